package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestCreateNew(t *testing.T) {
	mtime := time.Date(2025, 7, 20, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		existing string // content already at the path; "" = none
		wantErr  error
		want     string
	}{
		{name: "new file", want: "new\n"},
		{name: "existing file kept", existing: "old\n", wantErr: os.ErrExist, want: "old\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := New(t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			rel := "stats/deep_work/20250720090000.txt"
			if tt.existing != "" {
				if err := w.WriteFile(rel, []byte(tt.existing)); err != nil {
					t.Fatal(err)
				}
			}
			err = w.CreateNew(rel, []byte("new\n"), mtime)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("CreateNew() = %v, want %v", err, tt.wantErr)
			}
			got, err := os.ReadFile(w.Path(rel))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("content = %q, want %q", got, tt.want)
			}
			if tt.existing == "" {
				fi, _ := os.Stat(w.Path(rel))
				if !fi.ModTime().Equal(mtime) {
					t.Errorf("mtime = %v, want %v", fi.ModTime(), mtime)
				}
			}
			ents, _ := os.ReadDir(filepath.Dir(w.Path(rel)))
			if len(ents) != 1 {
				t.Errorf("folder holds %d entries, want 1 (no stray temp file)", len(ents))
			}
		})
	}
}

func TestCreateNewRefusesOutside(t *testing.T) {
	w, err := New(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.CreateNew("../escape.txt", []byte("x"), time.Time{}); !errors.Is(err, ErrOutside) {
		t.Fatalf("CreateNew(../escape.txt) = %v, want ErrOutside", err)
	}
}

// A FIFO the agent put at a skeleton folder's name does not stop a start:
// the folder is skipped, the others are made.
func TestEnsureSkeletonSkipsATakenName(t *testing.T) {
	w, err := New(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(w.Path(StatsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.Path(CooldownDir), []byte("taken"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := w.EnsureSkeleton(); err != nil {
		t.Fatalf("EnsureSkeleton with stats/cooldown taken by a file: %v", err)
	}
	if fi, err := os.Stat(w.Path(ThemeboxDir)); err != nil || !fi.IsDir() {
		t.Fatalf("themebox not made: %v", err)
	}
}
