package progress

import (
	"context"
	"strconv"
	"strings"
)

// Change is what changed in the watched folders between two fingerprints.
type Change struct {
	// Files added, removed or changed.
	Files int `json:"files"`
	// Commits made (git work trees), and the lines their diff adds and
	// removes (text files; the working tree's own changes count in Files).
	Commits int `json:"commits,omitempty"`
	Added   int `json:"lines_added,omitempty"`
	Removed int `json:"lines_removed,omitempty"`
}

// Any reports a change of any kind.
func (c Change) Any() bool { return c.Files > 0 || c.Commits > 0 }

// Add sums two changes.
func (c Change) Add(d Change) Change {
	return Change{Files: c.Files + d.Files, Commits: c.Commits + d.Commits, Added: c.Added + d.Added, Removed: c.Removed + d.Removed}
}

// Compare says what changed from before to after, one folder's two
// fingerprints. A HEAD that moved counts the commits between and their
// lines (git log and diff between the two commits; -1 commits when git
// cannot tell, as after a rewritten history).
func Compare(ctx context.Context, before, after Print) Change {
	var c Change
	for f, d := range after.Files {
		if before.Files[f] != d {
			c.Files++
		}
	}
	for f := range before.Files {
		if _, ok := after.Files[f]; !ok {
			c.Files++
		}
	}
	if before.Head == after.Head || after.Head == "" {
		return c
	}
	if before.Head == "" {
		c.Commits = 1 // the first commit of a new repository
		return c
	}
	n, err := strconv.Atoi(gitLine(ctx, after.Dir, "rev-list", "--count", before.Head+".."+after.Head))
	if err != nil || n == 0 {
		n = 1 // HEAD moved, say to a rewritten history: a change all the same
	}
	c.Commits = n
	for _, l := range strings.Split(git(ctx, after.Dir, "diff", "--numstat", "--no-ext-diff", "--no-textconv", "--no-renames", before.Head, after.Head), "\n") {
		f := strings.Fields(l)
		if len(f) < 3 {
			continue
		}
		a, errA := strconv.Atoi(f[0]) // "-" for a binary file
		r, errR := strconv.Atoi(f[1])
		if errA == nil && errR == nil {
			c.Added += a
			c.Removed += r
		}
	}
	return c
}
