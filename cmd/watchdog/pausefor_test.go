package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// `pause --for 15s` says when the pause ends to the second: "paused until
// 14:55" for a pause that ends at 14:55:36 read as if it were over.
func TestPauseForSecondsSaysSeconds(t *testing.T) {
	root := t.TempDir()
	cfg := filepath.Join(root, "watchdog.yaml")
	body := fmt.Sprintf("workspace: %s\nstate_dir: %s\ntimezone: UTC\n", filepath.Join(root, "ai-works"), filepath.Join(root, "state"))
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dur  string
		want *regexp.Regexp
	}{
		{"15s", regexp.MustCompile(`paused until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC`)},
		{"2h", regexp.MustCompile(`paused until \d{4}-\d\d-\d\d \d\d:\d\d UTC`)},
	} {
		var out, errb strings.Builder
		if code := run(context.Background(), []string{"pause", "-c", cfg, "--for", tc.dur}, &out, &errb); code != 0 {
			t.Fatalf("pause --for %s exited %d: %s", tc.dur, code, errb.String())
		}
		if !tc.want.MatchString(out.String()) {
			t.Errorf("pause --for %s said %q; want %s", tc.dur, out.String(), tc.want)
		}
	}
}
