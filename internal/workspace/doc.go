// Package workspace is the one place that knows the ai-works folder: its
// layout (docs/design.md section 3), heartbeat IDs, the file formats of activity logs,
// checkpoints and deep-work declarations (new and legacy Japanese forms), and
// how files are written.
//
// Every read and write of the workspace goes through one os.Root per
// Workspace (root.go): no "..", no link out and no folder swapped for a link
// in the middle of a call reaches outside it.
//
// Caveats:
//   - Writes are atomic only where rename(2) is atomic (local file systems;
//     not NFS with several clients).
//   - A link inside the workspace is followed only when it is relative and
//     stays inside: os.Root follows no absolute link.
//   - Names that must never be clobbered (<ID>_NN.md) are claimed by writing a
//     whole temp file and hard-linking it into place, so the file system must
//     support hard links.
//   - Files whose names start with a dot are temp files and are never read as
//     workspace content.
package workspace
