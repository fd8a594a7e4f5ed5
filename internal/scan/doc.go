// Package scan builds a Snapshot of an ai-works workspace for one pulse of
// the watchdog: the newest activity logs and checkpoint, the last
// introspection, deep-work declarations, theme records, inboxes and tool
// restriction markers.
//
// Cost does not grow with history (docs/design.md section 6). The first Scan reads the
// names of every histories folder but stats and reads only the greatest few
// names of each (names are heartbeat IDs, so they sort by time) and keeps
// only a handful of proofs in memory. Later scans do not list a histories or
// checkpoints folder again (see the caveats for the exceptions): inotify (fsnotify) watches tell the scanner which
// files changed, and only those are stat'ed and read. Small folders
// (deep_work, feedbackbox, themebox, cooldown, lock, theme_histories) are
// re-read whole when an event touches them.
//
// Caveats:
//   - A full rescan replaces the incremental path when the kernel event queue
//     overflows, a watch cannot be added (fs.inotify.max_user_watches), or a
//     log the scanner holds disappears. Snapshot.Rescan says why.
//   - The scanner holds the newest checkpoint and the next newest 16 (read
//     only when needed): a removed checkpoint falls back to the next one
//     without a listing. stats/checkpoints is listed again only when every
//     checkpoint held is gone, or when the folder appears after the first scan.
//   - The first scan looks at the 16 greatest names per histories folder, so
//     an old log edited in place before the scanner started is not seen as
//     the newest until it changes again; stats/latest_proof.json (written by
//     mcp-heart) is folded in on each full scan (not on its own changes: it is
//     rewritten on every tool call) to find an introspection deeper in history.
//   - Each incremental scan creates and removes one dot-named file in stats/
//     and waits for its event, so every change made before Scan was called is
//     in the snapshot (inotify delivers events in order).
//   - Dot-files are temp files (renameio) and are never read.
//   - Symlinked theme folders are followed (inotify follows the link given).
package scan
