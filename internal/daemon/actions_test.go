package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestApplyActions(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string // before
		action  checks.Action
		want    map[string]string // after; "" = must not exist
		wantErr error             // nil = success
	}{
		{"expire", map[string]string{"stats/deep_work/20250601110000.txt": "d"},
			checks.Action{Kind: checks.ExpireDeclaration, Rel: "stats/deep_work/20250601110000.txt", NewRel: "stats/deep_work/20250601110000.expired.txt"},
			map[string]string{"stats/deep_work/20250601110000.txt": "", "stats/deep_work/20250601110000.expired.txt": "d"}, nil},
		{"complete never clobbers", map[string]string{"stats/deep_work/20250601110000.txt": "new", "stats/deep_work/20250601110000.completed.txt": "old"},
			checks.Action{Kind: checks.CompleteDeclaration, Rel: "stats/deep_work/20250601110000.txt", NewRel: "stats/deep_work/20250601110000.completed.txt"},
			map[string]string{"stats/deep_work/20250601110000.txt": "new", "stats/deep_work/20250601110000.completed.txt": "old"}, os.ErrExist},
		{"invalidate", map[string]string{"stats/deep_work/20250601110000.txt": "??"},
			checks.Action{Kind: checks.InvalidateDeclaration, Rel: "stats/deep_work/20250601110000.txt", NewRel: "stats/deep_work/20250601110000.invalid.txt"},
			map[string]string{"stats/deep_work/20250601110000.invalid.txt": "??"}, nil},
		{"already renamed by another process", map[string]string{"stats/deep_work/20250601110000.completed.txt": "d"},
			checks.Action{Kind: checks.CompleteDeclaration, Rel: "stats/deep_work/20250601110000.txt", NewRel: "stats/deep_work/20250601110000.completed.txt"},
			map[string]string{"stats/deep_work/20250601110000.completed.txt": "d"}, nil},
		{"strip interrupt", map[string]string{"feedbackbox/interrupt.a.md": "stop"},
			checks.Action{Kind: checks.StripInterrupt, Rel: "feedbackbox/interrupt.a.md", NewRel: "feedbackbox/a.md"},
			map[string]string{"feedbackbox/interrupt.a.md": "", "feedbackbox/a.md": "stop"}, nil},
		{"strip interrupt never clobbers", map[string]string{"feedbackbox/interrupt.a.md": "stop", "feedbackbox/a.md": "older"},
			checks.Action{Kind: checks.StripInterrupt, Rel: "feedbackbox/interrupt.a.md", NewRel: "feedbackbox/a.md"},
			map[string]string{"feedbackbox/interrupt.a.md": "stop", "feedbackbox/a.md": "older"}, os.ErrExist},
		{"remove expired marker", map[string]string{"stats/cooldown/web_search": ""},
			checks.Action{Kind: checks.RemoveMarker, Rel: "stats/cooldown/web_search"},
			map[string]string{"stats/cooldown/web_search": ""}, nil},
		{"marker outside the marker folders refused", map[string]string{"artifacts/x.md": "keep"},
			checks.Action{Kind: checks.RemoveMarker, Rel: "artifacts/x.md"},
			map[string]string{"artifacts/x.md": "keep"}, errBadAction},
		{"marker path escaping refused", map[string]string{"stats/lock/../../keep.md": "keep"},
			checks.Action{Kind: checks.RemoveMarker, Rel: "stats/lock/../../keep.md"},
			map[string]string{"keep.md": "keep"}, errBadAction},
		{"rename out of deep_work refused", map[string]string{"stats/deep_work/20250601110000.txt": "d"},
			checks.Action{Kind: checks.ExpireDeclaration, Rel: "stats/deep_work/20250601110000.txt", NewRel: "themebox/x.md"},
			map[string]string{"stats/deep_work/20250601110000.txt": "d"}, errBadAction},
		{"unknown kind refused", nil, checks.Action{Kind: "delete", Rel: "feedbackbox/a.md"}, nil, errBadAction},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws, err := workspace.New(t.TempDir(), time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			if err := ws.EnsureSkeleton(); err != nil {
				t.Fatal(err)
			}
			for rel, data := range tc.files {
				abs := filepath.Clean(ws.Path(rel))
				os.MkdirAll(filepath.Dir(abs), 0o755)
				if err := os.WriteFile(abs, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			errs := applyActions(ws, []checks.Action{tc.action})
			switch {
			case tc.wantErr == nil && len(errs) > 0:
				t.Errorf("applyActions(%s) = %v, want no error", tc.name, errs)
			case tc.wantErr != nil && (len(errs) != 1 || !errors.Is(errs[0], tc.wantErr)):
				t.Errorf("applyActions(%s) = %v, want %v", tc.name, errs, tc.wantErr)
			}
			for rel, want := range tc.want {
				b, err := os.ReadFile(ws.Path(rel))
				gone := errors.Is(err, os.ErrNotExist)
				switch {
				case want == "" && tc.action.Kind != checks.RemoveMarker && !gone:
					t.Errorf("applyActions(%s): %s still exists", tc.name, rel)
				case tc.action.Kind == checks.RemoveMarker && tc.wantErr == nil && !gone:
					t.Errorf("applyActions(%s): marker %s not removed", tc.name, rel)
				case want != "" && string(b) != want:
					t.Errorf("applyActions(%s): %s = %q (%v), want %q", tc.name, rel, b, err, want)
				}
			}
		})
	}
}
