package workspace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Proof is one file that proves activity: an activity log or a checkpoint.
type Proof struct {
	Path    string       `json:"path"` // slash-separated, workspace-relative
	ID      ID           `json:"id"`
	ModTime time.Time    `json:"mod_time"`
	Type    ActivityType `json:"type,omitempty"`    // logs only
	Message string       `json:"message,omitempty"` // checkpoints: the latest line
}

// Latest is the latest-proof index, stats/latest_proof.json. It lets a tool
// call answer "when was the last log, introspection, checkpoint" without
// walking the history. mcp-heart updates it on every write; the watchdog
// updates it when its scan sees a proof written by other means.
type Latest struct {
	Log           *Proof `json:"log,omitempty"`
	Introspection *Proof `json:"introspection,omitempty"`
	Checkpoint    *Proof `json:"checkpoint,omitempty"`
	// Recovery is the newest recovery log: a reply leaves out the
	// recovery notice it has answered since the watchdog's pulse.
	Recovery *Proof `json:"recovery,omitempty"`
}

// NewestProof is the newer of the last log and the last checkpoint, or nil.
func (l Latest) NewestProof() *Proof {
	switch {
	case l.Log == nil:
		return l.Checkpoint
	case l.Checkpoint == nil:
		return l.Log
	case l.Checkpoint.ModTime.After(l.Log.ModTime):
		return l.Checkpoint
	}
	return l.Log
}

// NoteLog records an activity log if it is at least as new as the one held.
func (l *Latest) NoteLog(p Proof) {
	if newer(l.Log, p) {
		c := p
		l.Log = &c
	}
	if p.Type == Introspection && newer(l.Introspection, p) {
		c := p
		l.Introspection = &c
	}
	if p.Type == Recovery && newer(l.Recovery, p) {
		c := p
		l.Recovery = &c
	}
}

// NoteCheckpoint records a checkpoint if it is at least as new as the one held.
func (l *Latest) NoteCheckpoint(p Proof) {
	if newer(l.Checkpoint, p) {
		c := p
		l.Checkpoint = &c
	}
}

func newer(held *Proof, p Proof) bool {
	return held == nil || held.Path == p.Path || !p.ModTime.Before(held.ModTime)
}

// ReadLatest reads the index as stored; fs.ErrNotExist when there is none.
func (w *Workspace) ReadLatest() (Latest, error) {
	var l Latest
	b, err := w.ReadFile(LatestFile, MaxTextFile)
	if err != nil {
		return l, fmt.Errorf("read %s: %w", LatestFile, err)
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return Latest{}, fmt.Errorf("read %s: %w", LatestFile, err)
	}
	return l, nil
}

// UpdateLatest changes the index under an exclusive lock held across
// processes (stats/.latest_proof.lock), so concurrent writers never lose each
// other's entries. fn sees the stored index checked against its files; when
// it holds no log yet (a workspace the old system wrote) the history is
// scanned once first, so the stored index is whole from then on. The file is
// written only when its content changes.
//
// The index is written atomically but not synced: it is a cache of what the
// files say, never the only record of anything. The proof it names was
// synced before it (the write that calls this), and a power cut that brings
// the index back older or empty costs a scan: every reader checks the
// index against its files, an index with no log is rebuilt from the
// history, and the watchdog's pulse notes the proofs its scan finds.
func (w *Workspace) UpdateLatest(fn func(*Latest)) error {
	return w.updateLatest(fn, true)
}

// NoteLatest is UpdateLatest without the scan: for the watchdog's pulse,
// which passes the proofs its own snapshot found and must never walk the
// history.
func (w *Workspace) NoteLatest(fn func(*Latest)) error {
	return w.updateLatest(fn, false)
}

func (w *Workspace) updateLatest(fn func(*Latest), scan bool) error {
	unlock, err := w.lock(".latest_proof.lock")
	if err != nil {
		return fmt.Errorf("lock %s: %w", LatestFile, err)
	}
	defer unlock()
	l, raw := w.loaded()
	if scan && l.Log == nil {
		if l, err = w.withScan(l); err != nil {
			return err
		}
	}
	fn(&l)
	out, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return fmt.Errorf("update %s: %w", LatestFile, err)
	}
	out = append(out, '\n')
	if bytes.Equal(out, raw) {
		return nil
	}
	return w.WriteFileNoSync(LatestFile, out)
}

// loaded is the stored index checked against its files, and the file as
// read. When the file is still what this workspace's last LoadLatest read
// (the same call's, in a tool that reads the index and then writes a
// proof), that check is taken over instead of statting every file again.
func (w *Workspace) loaded() (Latest, []byte) {
	w.mu.Lock()
	memo := w.latest
	w.latest = latestMemo{}
	w.mu.Unlock()
	if memo.raw != nil {
		if raw, err := w.ReadFile(LatestFile, MaxTextFile); err == nil && bytes.Equal(raw, memo.raw) {
			return memo.l, raw
		}
	}
	return w.readVerified()
}

// latestMemo is the index LoadLatest returned and the file it read it from.
type latestMemo struct {
	raw []byte
	l   Latest
}

// LoadLatest returns the index, checked against the files it names: an entry
// whose file is gone is dropped, a changed modification time is taken over.
// With no log in the index the history is scanned; nothing is written (a
// read-only tool stays read-only; the next UpdateLatest, or the watchdog's
// pulse, stores the index).
func (w *Workspace) LoadLatest() (Latest, error) {
	l, raw := w.readVerified()
	if l.Log == nil {
		var err error
		if l, err = w.withScan(l); err != nil {
			return l, err
		}
	}
	if raw != nil {
		w.mu.Lock()
		w.latest = latestMemo{raw: raw, l: l}
		w.mu.Unlock()
	}
	return l, nil
}

// withScan is the scanned index with l's checkpoint kept if newer.
func (w *Workspace) withScan(l Latest) (Latest, error) {
	scanned, err := w.ScanLatest()
	if err != nil {
		return l, err
	}
	if l.Checkpoint != nil {
		scanned.NoteCheckpoint(*l.Checkpoint)
	}
	return scanned, nil
}

// readVerified reads the stored index and checks its entries against their
// files. raw is the file's content as read (nil when there is none); a
// corrupt index reads as empty and is rebuilt, never fatal.
func (w *Workspace) readVerified() (Latest, []byte) {
	var l Latest
	raw, err := w.ReadFile(LatestFile, MaxTextFile)
	if err != nil {
		return l, nil
	}
	if json.Unmarshal(raw, &l) != nil {
		return Latest{}, raw
	}
	l.Log = w.verify(l.Log)
	l.Introspection = w.verify(l.Introspection)
	l.Checkpoint = w.verify(l.Checkpoint)
	l.Recovery = w.verify(l.Recovery)
	return l, raw
}

// verify stats the file a proof names.
func (w *Workspace) verify(p *Proof) *Proof {
	if p == nil {
		return nil
	}
	fi, err := w.Stat(p.Path)
	if err != nil {
		return nil
	}
	if !fi.ModTime().Equal(p.ModTime) {
		c := *p
		c.ModTime = fi.ModTime()
		return &c
	}
	return p
}
