//go:build !linux

package workspace

// pulseFiles is kept only on Linux, where renameat2 can exchange two names.
type pulseFiles struct{}

// KeepPulseFiles does nothing here: WritePulseFile replaces the file as
// WriteFileNoSync does.
func (w *Workspace) KeepPulseFiles() {}

// ClosePulseFiles does nothing here.
func (w *Workspace) ClosePulseFiles() {}

// WritePulseFile is WriteFileNoSync on systems without renameat2.
func (w *Workspace) WritePulseFile(rel string, data []byte) error {
	return w.WriteFileNoSync(rel, data)
}
