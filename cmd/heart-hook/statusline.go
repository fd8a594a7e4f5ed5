package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// lastLimits is the workspace-relative file of the limits last recorded:
// the status line runs at every update of the client's screen, and the
// spool gets a line only when the limits changed.
const lastLimits = hook.SpoolDir + "/statusline.last"

// chainTimeout bounds a chained status line of the user's own.
const chainTimeout = 2 * time.Second

// statusLine is the client's status line: it records the rate limits the
// input carries and prints a short status (or the chained command's).
// Whatever fails, something is printed: a status line never breaks.
func statusLine(client, ws string, chain []string, stdin io.Reader, stdout io.Writer, now time.Time) error {
	a := clients.Lookup(client)
	if a == nil || a.Statusline() == nil {
		fmt.Fprintln(stdout, "heart: ?")
		return fmt.Errorf("--client %q has no status line", client)
	}
	if ws == "" {
		fmt.Fprintln(stdout, "heart: ?")
		return fmt.Errorf("--workspace is required")
	}
	data, err := readBounded(stdin, maxInput, time.Second)
	if err != nil {
		fmt.Fprintln(stdout, "heart: ?")
		return err
	}
	st, perr := a.Statusline()(data)
	limits := st.Limits
	var rerr error
	if e := hook.RateLimitEvent(client, limits, now); e != nil {
		e.Version = st.Version
		rerr = record(ws, *e)
	}
	if len(chain) > 0 {
		runChain(chain, data, stdout)
	} else {
		fmt.Fprintln(stdout, summary(limits))
	}
	if perr != nil {
		return perr
	}
	return rerr
}

// summary is the short status: each limit's share used.
func summary(limits []hook.Limit) string {
	if len(limits) == 0 {
		return "heart: ok"
	}
	names := map[string]string{"five_hour": "5h", "seven_day": "7d"}
	parts := make([]string, 0, len(limits))
	for _, l := range limits {
		n := names[l.Window]
		if n == "" {
			n = l.Window
		}
		parts = append(parts, fmt.Sprintf("%s %.0f%%", n, l.Used))
	}
	return "heart: " + strings.Join(parts, " · ")
}

// record appends e to the spool when its limits differ from the last
// recorded (whole percents, reset to the second).
func record(ws string, e hook.Event) error {
	var key strings.Builder
	for _, l := range e.Limits {
		fmt.Fprintf(&key, "%s %.0f %d\n", l.Window, l.Used, l.Resets.Unix())
	}
	r, err := os.OpenRoot(ws)
	if err != nil {
		return err
	}
	defer r.Close()
	name := filepath.FromSlash(lastLimits)
	if b, err := safeopen.ReadHeadIn(r, name, 1024); err == nil && string(b) == key.String() {
		return nil
	}
	if err := hook.Append(ws, e); err != nil {
		return err
	}
	f, err := safeopen.OpenIn(r, name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(key.String())
	return err
}

// runChain hands the input to the user's own status line and prints what
// it prints (argv, no shell of ours; bounded in time).
func runChain(argv []string, data []byte, stdout io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), chainTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(data)
	cmd.Stdout = stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "heart-hook: status line", argv[0]+":", err)
	}
}
