// Package progress tells whether the agent's work changed around a wakeup:
// a fingerprint of each watched folder before it and after its answer, and
// what changed between the two (files, commits, the commits' lines). An
// agent that answers every wakeup politely and changes nothing is alive,
// yet not working; only its work shows that.
package progress

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// Bounds of one fingerprint: a folder of more files than MaxFiles is seen
// by its first MaxFiles (in walk order), a file larger than MaxFileHash by
// its size and time, and once MaxHashed bytes were read, every further
// file too. A take never reads more than that, whatever the agent put
// there.
const (
	MaxFiles    = 20_000
	MaxFileHash = 1 << 20
	MaxHashed   = 64 << 20
	// MaxDirs and MaxDepth bound the folders walked (an os.Root resolves
	// each path from its root, so a deep chain costs depth squared), and
	// MaxTake a take's time.
	MaxDirs    = 20_000
	MaxDepth   = 32
	MaxTake    = 20 * time.Second
	gitTimeout = 10 * time.Second
)

// Print is one folder's fingerprint at one moment.
type Print struct {
	Dir string
	// Head is the commit a git work tree's HEAD names ("" for a folder
	// that is none, or whose repository git refuses: another user's).
	Head string
	// Files maps each file (slash-separated, relative to Dir; never under
	// .git) to a digest of its content, or of its size and time.
	Files map[string]string
	// Cut: the folder had more files than MaxFiles.
	Cut bool
	// Err says why the folder could not be read ("" when it could).
	Err string
}

// Skip says whether a file or folder (slash-separated, relative to the
// folder fingerprinted) is not the agent's work: its own records.
type Skip func(rel string, dir bool) bool

// Take fingerprints dir: its files through an os.Root (a link never leads
// out of it, and is not followed), and the commit HEAD names when it is a
// git work tree.
func Take(ctx context.Context, dir string, skip Skip) Print {
	p := Print{Dir: dir, Files: map[string]string{}}
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// The folder itself a link: it may lead anywhere (the watchdog's
		// stats, /etc), so it is not read at all.
		p.Err = dir + " is a link: a watched folder must be a folder"
		return p
	}
	ctx, cancel := context.WithTimeout(ctx, MaxTake)
	defer cancel()
	root, err := os.OpenRoot(dir)
	if err != nil {
		p.Err = err.Error()
		return p
	}
	defer root.Close()
	hashed, dirs := int64(0), 0
	err = fs.WalkDir(root.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // a folder that vanished or cannot be read: what remains counts
		}
		if rel == "." {
			return nil
		}
		if ctx.Err() != nil {
			p.Cut = true
			return fs.SkipAll
		}
		if d.IsDir() {
			if d.Name() == ".git" || skip != nil && skip(rel, true) {
				return fs.SkipDir
			}
			if dirs++; dirs > MaxDirs {
				p.Cut = true
				return fs.SkipAll
			}
			if strings.Count(rel, "/") >= MaxDepth {
				p.Cut = true
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || skip != nil && skip(rel, false) {
			return nil
		}
		if len(p.Files) >= MaxFiles {
			p.Cut = true
			return fs.SkipAll
		}
		p.Files[rel] = digest(root, rel, d, &hashed)
		return nil
	})
	if err != nil {
		p.Err = err.Error()
	}
	if _, err := root.Lstat(".git"); err == nil {
		p.Head = gitLine(ctx, dir, "rev-parse", "--verify", "-q", "HEAD")
	}
	return p
}

// digest is the content's sha256 while the bounds allow, else its size
// and modification time.
func digest(root *os.Root, rel string, d fs.DirEntry, hashed *int64) string {
	fi, err := d.Info()
	if err != nil {
		return "gone"
	}
	meta := fi.ModTime().UTC().Format(time.RFC3339Nano) + " " + strconv.FormatInt(fi.Size(), 10)
	if fi.Size() > MaxFileHash || *hashed+fi.Size() > MaxHashed {
		return meta
	}
	f, err := safeopen.OpenIn(root, rel, os.O_RDONLY, 0)
	if err != nil {
		return meta
	}
	defer f.Close()
	h := sha256.New()
	n, _ := io.Copy(h, io.LimitReader(f, MaxFileHash))
	*hashed += n
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// gitLine runs git (argv, no shell) on the work tree dir and returns its
// first output line, "" on any failure. Only commands that run nothing of
// the repository's own (no filters, hooks, external diff or textconv) are
// asked, and git's own ownership check stands: a repository of another
// user is refused.
func gitLine(ctx context.Context, dir string, args ...string) string {
	out := git(ctx, dir, args...)
	line, _, _ := strings.Cut(out, "\n")
	return strings.TrimSpace(line)
}

func git(ctx context.Context, dir string, args ...string) string {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	argv := append([]string{"-C", dir, "--no-optional-locks", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=" + os.DevNull,
		"-c", "protocol.allow=never"}, args...)
	cmd := exec.CommandContext(ctx, "git", argv...)
	// No lazy fetch of a partial clone (it would run the repository's
	// uploadpack), and no wait for a child git left holding an output.
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "GIT_NO_LAZY_FETCH=1")
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return string(out)
}
