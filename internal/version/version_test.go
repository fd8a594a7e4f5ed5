package version

import (
	"runtime/debug"
	"testing"
)

func TestGet(t *testing.T) {
	built := func(v string, settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Version: v}, Settings: settings}, true
		}
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123"}
	at := debug.BuildSetting{Key: "vcs.time", Value: "2026-11-24T10:00:00Z"}
	dirty := debug.BuildSetting{Key: "vcs.modified", Value: "true"}
	tests := []struct {
		name    string
		v, c, d string
		read    func() (*debug.BuildInfo, bool)
		want    string
	}{
		{name: "release build: ldflags win", v: "1.2.0", c: "abc1234", d: "2026-11-24T12:00:00Z", read: built("(devel)", rev, at), want: "1.2.0 (commit abc1234, built 2026-11-24T12:00:00Z)"},
		{name: "go build in a work tree", read: built("(devel)", rev, at), want: "dev (commit 0123456789ab, built 2026-11-24T10:00:00Z)"},
		{name: "uncommitted changes", read: built("(devel)", rev, at, dirty), want: "dev (commit 0123456789ab+dirty, built 2026-11-24T10:00:00Z)"},
		{name: "work tree with a pseudo-version", read: built("v0.0.0-20261124192255-0123456789ab+dirty", rev, at, dirty), want: "dev (commit 0123456789ab+dirty, built 2026-11-24T10:00:00Z)"},
		{name: "go install of a tagged module", read: built("v1.3.0"), want: "1.3.0"},
		{name: "nothing known", read: none, want: "dev"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := get(tt.v, tt.c, tt.d, tt.read).String(); got != tt.want {
				t.Errorf("get(%q, %q, %q).String() = %q, want %q", tt.v, tt.c, tt.d, got, tt.want)
			}
		})
	}
}
