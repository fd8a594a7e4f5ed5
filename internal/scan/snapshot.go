package scan

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// RecentLogCount is how many of the newest activity logs a Snapshot carries:
// enough to find the log that completed a deep work and the one after it.
const RecentLogCount = 8

// Snapshot is what one pulse knows about the workspace. Slices are fresh for
// each Scan, so a Snapshot may be kept and read after the next Scan.
type Snapshot struct {
	// LastLog is the newest activity log by modification time; Type is read
	// from its type section.
	LastLog *workspace.Proof
	// RecentLogs are the newest RecentLogCount logs, newest first (Type filled).
	RecentLogs []workspace.Proof
	// LastIntrospection is the newest log whose type is introspection.
	LastIntrospection *workspace.Proof
	// LastCheckpoint is the newest checkpoint file; Message is its latest line.
	LastCheckpoint *workspace.Proof
	// ActiveDeepWork are the parsed <ID>.txt declarations in stats/deep_work,
	// oldest ID first, with their files' modification times (more precise
	// than declared_at, whole seconds).
	ActiveDeepWork []workspace.DeepWorkFile
	// InvalidDeepWork are active declaration files that failed to parse.
	InvalidDeepWork []InvalidDeclaration
	// LastCompleted is the <ID>.completed.txt with the greatest ID, or nil.
	LastCompleted *CompletedDeepWork
	// ThemeRecordID is the newest ID among artifacts/theme_histories/ files.
	ThemeRecordID workspace.ID
	// ThemeRecords are the rel paths of theme history files sharing ThemeRecordID.
	ThemeRecords []string
	// Feedback are the unprocessed feedbackbox/*.md files, oldest name first.
	Feedback []InboxItem
	// Themebox are the unprocessed themebox/*.md files, oldest name first.
	Themebox []InboxItem
	// Restrictions are the tool restriction markers in stats/cooldown and
	// stats/lock, in force or not (the checks decide with "now").
	Restrictions []Marker
	// FullScan is true when this scan listed the history (first scan or a
	// fallback); Rescan says why a fallback happened ("" on the first scan).
	FullScan bool
	Rescan   string
}

// InvalidDeclaration is an active declaration file that cannot be parsed.
type InvalidDeclaration struct {
	Rel string
	ID  workspace.ID
	Err string
}

// CompletedDeepWork is a declaration renamed <ID>.completed.txt.
type CompletedDeepWork struct {
	// Decl is the parsed content; only ID is set when the content is unreadable.
	Decl workspace.Declaration
	Rel  string
	// ModTime is the file's modification time: when the declaration was written.
	ModTime time.Time
}

// InboxItem is one unprocessed themebox or feedbackbox file.
type InboxItem struct {
	Rel  string
	Name string
	// Interrupt is true for "interrupt." files: urgent feedback.
	Interrupt bool
}

// Marker kinds.
const (
	Cooldown = "cooldown"
	Lock     = "lock"
)

// Marker is a tool restriction marker, stats/cooldown/<tool> or stats/lock/<tool>.
type Marker struct {
	Kind string // Cooldown or Lock
	Tool string
	Rel  string
	// Since is the marker's modification time: when the restriction began.
	Since time.Time
	// Until is from an "until: <RFC 3339>" line, or Since plus a
	// "duration: <Go duration>" line; zero when the file says neither.
	Until time.Time
}

// NewestProof is the newer of LastLog and LastCheckpoint by modification
// time (the proof of activity), or nil, decided as the latest-proof index
// decides it.
func (s Snapshot) NewestProof() *workspace.Proof {
	return workspace.Latest{Log: s.LastLog, Checkpoint: s.LastCheckpoint}.NewestProof()
}
