package safeopen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// operatorFiles are the files of the three binaries that may open paths
// with the os package directly, and why: each opens only what the
// operator names (the config, secrets, certificates), creates a new file
// that cannot exist (O_EXCL never opens a FIFO or follows a link), or is
// not the watchdog's (the demo's own scratch workspace). Anything else
// opens through this package.
var operatorFiles = map[string]string{
	"internal/config/load.go":               "the operator's config file",
	"internal/notify/secret.go":             "the operator's notification URL file",
	"internal/web/auth.go":                  "the operator's token file (a mode check of its own)",
	"internal/fleet/conn.go":                "the operator's MQTT password and CA files",
	"internal/delivery/leftover_linux.go":   "the kernel's /proc files of a run",
	"internal/state/holder_linux.go":        "the kernel's /proc/locks and a lock holder's name",
	"internal/setup/userunit.go":            "init's user unit, created with O_EXCL",
	"internal/scan/barrier_linux.go":        "a probe file created with O_EXCL",
	"internal/scan/barrier_other.go":        "a probe file created with O_EXCL",
	"internal/asks/ask/conn_linux.go":       "the asks socket's folder in the state folder, opened to name the socket by its descriptor",
	"internal/workspace/write.go":           "temp files created with O_EXCL inside the workspace's root",
	"internal/workspace/pulsefile_linux.go": "the pulse's two kept files, created with O_EXCL inside the workspace's root",
	"internal/demo/agent.go":                "the demo's scripted agent, in its own scratch workspace",
	"internal/demo/narrate.go":              "the demo's narration file, in its own scratch folder",
	"cmd/watchdog/demo.go":                  "the demo's own output folder",
	"internal/safeopen/safeopen.go":         "the one open",
}

// opens are the calls that open a path: os's, a walk's, a lock's.
var opens = map[string]map[string]bool{
	"os":       {"Open": true, "OpenFile": true, "ReadFile": true, "ReadDir": true, "Create": true, "WriteFile": true, "CreateTemp": true, "DirFS": true, "OpenInRoot": true},
	"filepath": {"Walk": true, "WalkDir": true},
	"ioutil":   {"ReadFile": true, "ReadDir": true, "WriteFile": true, "TempFile": true},
	"renameio": {"ReadFile": true},
}

// Every open of a path in the watchdog's, mcp-heart's and heart-hook's code
// goes through this package: a FIFO, a device or a link the agent plants
// where a file is read or appended to cannot hang or redirect it. A new
// os.Open in a new file fails here; it belongs in safeopen.Open, or (an
// operator's file) in operatorFiles with the reason.
func TestNoOpenOutsideSafeopen(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	seen := map[string]bool{}
	for _, top := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if d.Name() == "testdata" || rel == "internal/testutil" {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
				return nil
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, p, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				name := pkg.Name + "." + sel.Sel.Name
				unsafe := opens[pkg.Name][sel.Sel.Name] ||
					// An os.Root's OpenFile too (safeopen.OpenIn is its safe one).
					(sel.Sel.Name == "OpenFile" && pkg.Name != "safeopen") ||
					// A lock file opens its path too: it must pass
					// safeopen.LockFlag.
					(name == "flock.New" && len(call.Args) < 2)
				if !unsafe {
					return true
				}
				if _, ok := operatorFiles[rel]; ok {
					seen[rel] = true
					return true
				}
				bad = append(bad, fset.Position(call.Pos()).String()[len(root)+1:]+": "+name)
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s opens a path outside safeopen: use safeopen.Open (or ReadHead, ReadDir, OpenIn...), or list the file in operatorFiles with why", b)
	}
	for f := range operatorFiles {
		if !seen[f] {
			t.Errorf("operatorFiles lists %s, which opens nothing with os any more: drop it", f)
		}
	}
}
