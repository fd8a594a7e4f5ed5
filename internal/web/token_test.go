package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A token any local user can read (or replace) is refused at start, as ssh
// refuses such a key: whoever reads it can pause every agent.
func TestReadTokenRefusesOtherUsersAccess(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		mode os.FileMode
		ok   bool
	}{
		{0o600, true}, {0o640, true}, {0o400, true},
		{0o644, false}, {0o604, false}, {0o602, false}, {0o666, false},
	} {
		p := filepath.Join(dir, tt.mode.String())
		if err := os.WriteFile(p, []byte("tok\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, tt.mode); err != nil {
			t.Fatal(err)
		}
		tok, err := ReadToken(p)
		if tt.ok && (err != nil || tok != "tok") {
			t.Errorf("ReadToken(mode %v) = %q, %v; want tok", tt.mode, tok, err)
		}
		if !tt.ok && (err == nil || !strings.Contains(err.Error(), "chmod o-rwx") || strings.Contains(err.Error(), "tok\n")) {
			t.Errorf("ReadToken(mode %v) = %q, %v; want a refusal that says chmod o-rwx", tt.mode, tok, err)
		}
	}
}
