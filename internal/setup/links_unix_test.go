//go:build unix

package setup

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestInitUnderUmask000: with no umask at all, nothing init creates in the
// workspace or the agent's home comes out writable by others (the hooks
// there name commands the client runs).
func TestInitUnderUmask000(t *testing.T) {
	home := t.TempDir() // made before the umask: the test's, not init's
	old := syscall.Umask(0)
	t.Cleanup(func() { syscall.Umask(old) })
	dir, _ := initIn(t, home, ClientGemini, ClientClaudeCode, ClientCodex, ClientAgy)
	for _, root := range []string{dir, home} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.Type()&fs.ModeSymlink != 0 {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			if fi.Mode().Perm()&0o002 != 0 {
				t.Errorf("%s: mode %v, writable by others", p, fi.Mode().Perm())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestHomeLinks: a settings file in the agent's home that is a link into a
// dotfiles repository is written through, wherever the repository is, and
// init says so. When init runs as root for another user's home
// (--agent-home), it writes only into what that user owns: a link the
// agent planted in its home towards a file it does not own is refused.
func TestHomeLinks(t *testing.T) {
	home := t.TempDir()
	dotfiles := filepath.Join(t.TempDir(), "dotfiles")
	writeFile(t, filepath.Join(dotfiles, "claude.json"), `{"theme": "dark"}`)
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dotfiles, "claude.json"), filepath.Join(home, ".claude", "settings.json")); err != nil {
		t.Skipf("symlink: %v", err)
	}
	_, res := initIn(t, home, ClientClaudeCode)
	if b, _ := os.ReadFile(filepath.Join(dotfiles, "claude.json")); !strings.Contains(string(b), "mcp__mcp-heart__checkpoint") || !strings.Contains(string(b), "dark") {
		t.Errorf("the dotfiles repository's file was not merged into:\n%s", b)
	}
	var via []string
	for _, w := range res.Wrote {
		via = append(via, w.Via...)
	}
	if !strings.Contains(strings.Join(via, "\n"), filepath.Join(dotfiles, "claude.json")) {
		t.Errorf("init did not say it followed the link: %q", via)
	}

	if os.Geteuid() != 0 {
		t.Skip("the other-user half needs root")
	}
	const nobody = 65534
	other := t.TempDir()
	victim := filepath.Join(t.TempDir(), "root-owned.json")
	writeFile(t, victim, `{"root": "file"}`)
	writeFile(t, filepath.Join(other, ".gemini", "trustedFolders.json"), `{}`)
	if err := os.MkdirAll(filepath.Join(other, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(other, ".claude", "settings.json")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{other, filepath.Join(other, ".claude"), filepath.Join(other, ".gemini"), filepath.Join(other, ".gemini", "trustedFolders.json")} {
		if err := os.Lchown(p, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(other, "ai-works") // root's init lays out only a workspace in the agent's home
	_, err := Init(dir, Options{MCPHeart: fakeBinary(t, "mcp-heart"), Clients: []string{ClientGemini, ClientClaudeCode}, AgentHome: other})
	if err == nil || !strings.Contains(err.Error(), victim) {
		t.Fatalf("Init as root through a link to a root-owned file: %v, want a refusal naming %s", err, victim)
	}
	if b, _ := os.ReadFile(victim); string(b) != `{"root": "file"}` {
		t.Errorf("the root-owned file was rewritten:\n%s", b)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(filepath.Join(other, ".gemini", "trustedFolders.json"), &st); err != nil || st.Uid != nobody {
		t.Errorf("the user's own file, rewritten by root, no longer belongs to them (uid %d, %v)", st.Uid, err)
	}
	if err := syscall.Stat(victim, &st); err != nil || st.Uid != 0 {
		t.Errorf("the victim changed hands: uid %d (%v)", st.Uid, err)
	}
}
