package setup

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// nobody is the agent's user in the root tests: the owner of its home.
const nobody = 65534

// agentHomeOf makes a home folder owned by nobody, and a folder elsewhere
// owned by root that stands for root's own (its .claude/settings.json
// 0600), as the review's P18 planted them. It skips unless the test runs
// as root: only root can give a folder to another user.
func agentHomeOf(t *testing.T) (home, rootDir string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("init as root for another user's home needs root")
	}
	home = filepath.Join(t.TempDir(), "agent")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	chownNobody(t, home)
	rootDir = filepath.Join(t.TempDir(), "fakeroothome")
	writeFile(t, filepath.Join(rootDir, ".claude", "settings.json"), `{"model": "opus"}`)
	return home, rootDir
}

func chownNobody(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := os.Lchown(p, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
}

// rootInit is `watchdog init --agent-home home --client claude-code dir`
// run as root.
func rootInit(t *testing.T, home, dir string) (Result, error) {
	t.Helper()
	return Init(dir, Options{MCPHeart: fakeBinary(t, "mcp-heart"), HeartHook: fakeBinary(t, "heart-hook"),
		Clients: []string{ClientClaudeCode, ClientGemini}, AgentHome: home})
}

// TestRootInitRefusesAPlantedWorkspace: init run as root for the agent's
// home refuses a workspace path that is a link the agent planted, or has
// one below the home, or is not the agent's user's, or lies outside its
// home, saying why; root's folder stays exactly as it was (before, a link
// to it received init's files, and root's settings were merged into). A
// workspace that is not there yet is made, and what init makes there is
// the agent's user's.
func TestRootInitRefusesAPlantedWorkspace(t *testing.T) {
	home, rootDir := agentHomeOf(t)
	before := snapshotFiles(t, rootDir)
	link := func(name string) string {
		p := filepath.Join(home, name)
		if err := os.Symlink(rootDir, p); err != nil {
			t.Fatal(err)
		}
		chownNobody(t, p)
		return p
	}
	rootOwned := filepath.Join(home, "ws-root")
	if err := os.Mkdir(rootOwned, 0o755); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	chownNobody(t, elsewhere)
	for _, tc := range []struct {
		name, dir string
		says      []string
	}{
		{"the workspace a link", link("ai-works3"), []string{"ai-works3", "is a link", rootDir}},
		{"a link below the home", filepath.Join(link("sub"), "ai-works"), []string{filepath.Join(home, "sub"), "is a link"}},
		{"a workspace of root's", rootOwned, []string{rootOwned, "belongs to uid 0", "uid 65534"}},
		{"a workspace outside the home", elsewhere, []string{elsewhere, "not inside the agent's home", home}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := rootInit(t, home, tc.dir)
			if err == nil {
				t.Fatalf("init as root into %s: no error", tc.dir)
			}
			for _, s := range tc.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("the error does not say %q: %v", s, err)
				}
			}
			if after := snapshotFiles(t, rootDir); !mapsEqual(before, after) {
				t.Fatalf("init wrote into root's folder: before %v, after %v", before, after)
			}
		})
	}
	if entries, _ := os.ReadDir(rootOwned); len(entries) != 0 {
		t.Errorf("init wrote %d entries into the root-owned workspace", len(entries))
	}

	t.Run("a new workspace is the agent's", func(t *testing.T) {
		dir := filepath.Join(home, "projects", "ai-works")
		if _, err := rootInit(t, home, dir); err != nil {
			t.Fatal(err)
		}
		err := filepath.WalkDir(filepath.Join(home, "projects"), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			var st syscall.Stat_t
			if err := syscall.Lstat(p, &st); err != nil {
				return err
			}
			if st.Uid != nobody {
				t.Errorf("%s belongs to uid %d, want the agent's user's", p, st.Uid)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// TestRootInitAgainstAFlipper: while the agent swaps a folder init writes
// in for a link to root's folder and back as fast as it can (renameat2
// exchange), init as root for its home either refuses or writes into the
// agent's own folder: root's folder is never written. The swapped folder
// is the workspace (the review's P18), or ~/.claude in the home (P17).
func TestRootInitAgainstAFlipper(t *testing.T) {
	for _, tc := range []struct{ name, swapped, target string }{
		{"the workspace", "ai-works", ""},
		{"the home's .claude", ".claude", ".claude"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, rootDir := agentHomeOf(t)
			before := snapshotFiles(t, rootDir)
			real, evil := filepath.Join(home, tc.swapped), filepath.Join(home, "evil")
			if err := os.Mkdir(real, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(rootDir, tc.target), evil); err != nil {
				t.Fatal(err)
			}
			chownNobody(t, real, evil)
			var stop atomic.Bool
			var swaps atomic.Int64
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for !stop.Load() {
					if err := unix.Renameat2(unix.AT_FDCWD, real, unix.AT_FDCWD, evil, unix.RENAME_EXCHANGE); err != nil {
						t.Errorf("exchange: %v", err)
						return
					}
					swaps.Add(1)
				}
			}()
			t.Cleanup(func() { stop.Store(true); wg.Wait() })
			refused, wrote := 0, 0
			deadline := time.Now().Add(20 * time.Second)
			for i := 0; i < 40 && time.Now().Before(deadline); i++ {
				if _, err := rootInit(t, home, filepath.Join(home, "ai-works")); err != nil {
					refused++
				} else {
					wrote++
				}
			}
			stop.Store(true)
			wg.Wait()
			if after := snapshotFiles(t, rootDir); !mapsEqual(before, after) {
				t.Fatalf("init wrote into root's folder through the flipped link: before %v, after %v", before, after)
			}
			t.Logf("%d swaps; %d inits refused, %d wrote into the agent's folder", swaps.Load(), refused, wrote)
		})
	}
}
