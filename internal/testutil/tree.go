package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// CopyTree copies the folder src (a fixture under testdata) into dst, files
// mode 0644 and folders 0755, and returns the copied files' paths relative
// to dst.
func CopyTree(t testing.TB, src, dst string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, rel)
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Snapshot maps every file under root to its content and mtime, and every
// folder (as "rel/") to "", so a test can tell that a call changed, added or
// removed nothing: compare two snapshots, or list what differs with Diff.
func Snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[rel] = string(b) + "@" + fi.ModTime().Format(time.RFC3339Nano)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Diff lists what differs between two snapshots: "gone: rel", "changed:
// rel" and "new: rel", in no particular order.
func Diff(before, after map[string]string) []string {
	var out []string
	for k, v := range before {
		if w, ok := after[k]; !ok {
			out = append(out, "gone: "+k)
		} else if w != v {
			out = append(out, "changed: "+k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			out = append(out, "new: "+k)
		}
	}
	return out
}
