package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Folder and file names of the layout in docs/design.md section 3, relative to the root.
const (
	ArtifactsDir      = "artifacts"
	ThemeHistoriesDir = "artifacts/theme_histories"
	HistoriesDir      = "histories"
	SubthemesDir      = "subthemes"
	StatsDir          = "stats"
	CurrentIDFile     = "stats/current_heartbeat_id.txt"
	CheckpointsDir    = "stats/checkpoints"
	DeepWorkDir       = "stats/deep_work"
	CooldownDir       = "stats/cooldown"
	LockDir           = "stats/lock"
	WakeupsDir        = "stats/wakeups"
	StateFile         = "stats/watchdog_state.json"
	PromptFile        = "stats/heartbeat_prompt.md"
	LatestFile        = "stats/latest_proof.json"
	ThemeboxDir       = "themebox"
	FeedbackboxDir    = "feedbackbox"
	ProjectsDir       = "projects"
	LegacyDeepWorkDir = "stats/extended_processing"
)

// Skeleton lists the folders every workspace has.
var Skeleton = []string{
	ArtifactsDir, ThemeHistoriesDir, StatsDir, CheckpointsDir, DeepWorkDir,
	CooldownDir, LockDir, ThemeboxDir, FeedbackboxDir, ProjectsDir,
}

// ErrNoCurrentID reports that stats/current_heartbeat_id.txt is missing or
// holds no valid ID (the watchdog has not run yet).
var ErrNoCurrentID = errors.New("no current heartbeat ID")

// Workspace is an ai-works folder. Loc is the time zone heartbeat IDs are
// read in (the watchdog's configured timezone; default Local). Its files
// are read and written through one os.Root (see dir), held once opened.
type Workspace struct {
	Root string
	Loc  *time.Location
	// Sync makes a written file or a folder's new entry durable: every
	// fsync of this workspace's writers goes through it. nil is
	// (*os.File).Sync; a test counts the syncs of a call with it.
	Sync func(*os.File) error

	mu     sync.Mutex
	root   *os.Root
	latest latestMemo  // what LoadLatest last returned, for the update after it
	pulse  *pulseFiles // the pulse's files kept open (KeepPulseFiles), else nil
}

// New returns the workspace at root with IDs read in loc (nil means Local).
// root is made absolute so later containment checks compare like with like.
func New(root string, loc *time.Location) (*Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("workspace %q: %w", root, err)
	}
	if loc == nil {
		loc = time.Local
	}
	return &Workspace{Root: abs, Loc: loc}, nil
}

// Path joins slash-separated workspace-relative parts onto the root.
func (w *Workspace) Path(rel ...string) string {
	parts := make([]string, 0, len(rel)+1)
	parts = append(parts, w.Root)
	for _, r := range rel {
		parts = append(parts, filepath.FromSlash(r))
	}
	return filepath.Join(parts...)
}

// Rel returns abs as a slash-separated path relative to the root.
func (w *Workspace) Rel(abs string) string {
	r, err := filepath.Rel(w.Root, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(r)
}

// IDTime is id.Time in the workspace's location.
func (w *Workspace) IDTime(id ID) (time.Time, error) { return id.Time(w.Loc) }

// ReadCurrentID reads stats/current_heartbeat_id.txt.
// What does not parse is read once more: a reader that opened the file a
// whole pulse before reading it may catch the watchdog rewriting it (see
// WritePulseFile).
func (w *Workspace) ReadCurrentID() (ID, error) {
	var perr error
	for range 2 {
		b, err := w.ReadFile(CurrentIDFile, MaxSmallFile)
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("read %s: %w", CurrentIDFile, ErrNoCurrentID)
		}
		if err != nil {
			return "", fmt.Errorf("read %s: %w", CurrentIDFile, err)
		}
		var id ID
		if id, perr = ParseID(strings.TrimSpace(string(b))); perr == nil {
			return id, nil
		}
	}
	return "", fmt.Errorf("read %s: %w: %v", CurrentIDFile, ErrNoCurrentID, perr)
}

// WriteCurrentID atomically replaces stats/current_heartbeat_id.txt, but
// does not make it durable: a new ID is minted at every pulse and nothing
// reads an old one back, so a power cut that loses the last ID (or, on some
// file systems, leaves the file empty, which ReadCurrentID reports as no ID
// yet) is put right by the restarted watchdog's first pulse. The agent's
// logs named after an ID are written durably by their own writers.
func (w *Workspace) WriteCurrentID(id ID) error {
	return w.WritePulseFile(CurrentIDFile, []byte(string(id)+"\n"))
}

// EnsureSkeleton creates the layout's folders that are missing, inside the
// workspace only: a folder that is a link out of it (stats linked to
// /etc, say) is refused, never created through. A name taken by something
// else than a folder is skipped.
func (w *Workspace) EnsureSkeleton() error {
	if err := os.MkdirAll(w.Root, 0o755); err != nil {
		return fmt.Errorf("create workspace: %w", err)
	}
	for _, d := range Skeleton {
		err := w.in(d, func(r *os.Root, name string) error {
			// A name the agent took with a FIFO or a file is left as it
			// is: refusing to start on it would let the agent keep its
			// watchdog from starting, and the pulse's scan reads around it.
			if fi, err := r.Lstat(name); err == nil && !fi.IsDir() && fi.Mode()&os.ModeSymlink == 0 {
				return nil
			}
			return r.MkdirAll(name, 0o755)
		})
		if err != nil {
			return fmt.Errorf("create %s: %w", d, err)
		}
	}
	return nil
}

// Theme names a theme folder: artifacts/<StartID>_<Part>/, or, with a Parent,
// artifacts/<parent>/subthemes/<StartID>_<Part>/.
type Theme struct {
	StartID ID
	Part    string
	Parent  *Theme
}

// Name is the theme's folder name, <StartID>_<Part>.
func (t Theme) Name() string { return string(t.StartID) + "_" + t.Part }

// Dir is the theme's folder, slash-separated and workspace-relative.
func (t Theme) Dir() string {
	if t.Parent != nil {
		return t.Parent.Dir() + "/" + SubthemesDir + "/" + t.Name()
	}
	return ArtifactsDir + "/" + t.Name()
}

// HistoriesDir is the theme's activity log folder.
func (t Theme) HistoriesDir() string { return t.Dir() + "/" + HistoriesDir }
