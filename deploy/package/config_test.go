// Package pkg holds what the Debian package installs besides the binaries;
// its test keeps the default config true to the code.
package pkg

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
)

// TestDefaultConfig: the installed /etc/ai-heart/watchdog.yaml loads, names
// the package's workspace, and every commented default (outside the exec
// example) equals the code's.
func TestDefaultConfig(t *testing.T) {
	b, err := os.ReadFile("watchdog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := config.Parse(b)
	if err != nil {
		t.Fatalf("the default config does not load: %v", err)
	}
	if c.Workspace != "/var/lib/ai-heart/ai-works" {
		t.Errorf("workspace = %q, want the package's /var/lib/ai-heart/ai-works", c.Workspace)
	}
	// The watchdog's own state is the unit's StateDirectory, outside the
	// workspace (the agent's) and the unit's user's alone.
	unit, err := os.ReadFile("ai-heart-watchdog.service")
	if err != nil {
		t.Fatal(err)
	}
	if c.StateDir != "/var/lib/ai-heart/state" || !strings.Contains(string(unit), "\nStateDirectory=ai-heart/state\nStateDirectoryMode=0700\n") {
		t.Errorf("state_dir = %q, want /var/lib/ai-heart/state, the unit's StateDirectory=ai-heart/state (0700)", c.StateDir)
	}
	// Uncommented, the commented defaults must load to the built-in values.
	var lines []string
	key := regexp.MustCompile(`^# ?([a-z_]+:|  [a-z_]+:)`)
	var defaults []string // the exec block is an example, not a default
	for _, para := range strings.Split(string(b), "\n\n") {
		if !strings.Contains(para, "delivery: exec") {
			defaults = append(defaults, para)
		}
	}
	for _, l := range strings.Split(strings.Join(defaults, "\n"), "\n") {
		if m := key.FindStringSubmatch(l); m != nil && !strings.Contains(l, "tmux_target") && !strings.Contains(l, "command:") && !strings.HasPrefix(l, "# http:") {
			l = strings.TrimPrefix(strings.TrimPrefix(l, "#"), " ")
			if strings.HasPrefix(m[1], "  ") {
				l = "  " + strings.TrimLeft(l, " ")
			}
			lines = append(lines, l)
		}
	}
	all, err := config.Parse([]byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatalf("the commented defaults do not load: %v\n%s", err, strings.Join(lines, "\n"))
	}
	d := config.Defaults()
	// The language resolves when a config loads (the workspace's recorded
	// one, else en): compare with an empty config loaded the same way.
	empty, err := config.Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	if all.Pulse != d.Pulse || all.Thresholds != d.Thresholds || all.Recovery != d.Recovery || all.CircuitBreaker != d.CircuitBreaker ||
		all.DailyCap != d.DailyCap || all.Idle.After != d.Idle.After || all.Schedule.Every != d.Schedule.Every ||
		all.Agent.Delivery != d.Agent.Delivery || all.Agent.Timeout != d.Agent.Timeout || all.Language != empty.Language {
		t.Errorf("the commented defaults differ from config.Defaults():\n%s", strings.Join(lines, "\n"))
	}
}

// TestDefaultConfigExec: the packaged file's exec block, uncommented whole
// as it says, calls a model whose tokens and cost are counted (the client's
// stream-json, read as such) and cannot mean a model call every minute:
// its schedule fits under a daily cap it sets. And the page is where the
// docs put it, 9477 (9478 is the fleet view's).
func TestDefaultConfigExec(t *testing.T) {
	b, err := os.ReadFile("watchdog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var block []string
	keyLine := regexp.MustCompile(`^# ((?:  )?[a-z_]+:.*)$`)
	for _, para := range strings.Split(string(b), "\n\n") {
		if strings.Contains(para, "delivery: exec") {
			for _, l := range strings.Split(para, "\n") {
				if m := keyLine.FindStringSubmatch(l); m != nil {
					block = append(block, m[1])
				}
			}
		}
	}
	if len(block) == 0 {
		t.Fatal("no exec block (a paragraph with delivery: exec)")
	}
	src := "workspace: /var/lib/ai-heart/ai-works\n" + strings.Join(block, "\n")
	c, err := config.Parse([]byte(src))
	if err != nil {
		t.Fatalf("the exec block does not load: %v\n%s", err, src)
	}
	if c.Agent.Delivery != config.DeliveryExec || c.Agent.Output != config.OutputStreamJSON {
		t.Errorf("exec block: delivery %q, output %q; want exec and stream-json\n%s", c.Agent.Delivery, c.Agent.Output, src)
	}
	if cmd := strings.Join(c.Agent.Command, " "); !strings.Contains(cmd, "--output-format stream-json") {
		t.Errorf("exec block: command %q does not ask the client for stream-json", cmd)
	}
	perDay := 0
	if every := c.Schedule.Every.D(); every > 0 {
		perDay = int(24 * time.Hour / every)
	}
	if c.DailyCap <= 0 || c.DailyCap > 100 || perDay > c.DailyCap {
		t.Errorf("exec block: daily_cap %d with a schedule of %d wakeups a day; want a cap of at most 100 the schedule fits under", c.DailyCap, perDay)
	}
	if !strings.Contains(string(b), `# http: {listen: "127.0.0.1:9477"}`) {
		t.Errorf("the page's example is not on 9477, the status page's port (9478 is the fleet view's)")
	}
}

// TestDefaultConfigDocs: the docs the packaged config points to are ones
// the package installs (docs/*.md, beside README).
func TestDefaultConfigDocs(t *testing.T) {
	b, err := os.ReadFile("watchdog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	refs := regexp.MustCompile(`docs/[a-z-]+\.md`).FindAllString(string(b), -1)
	if len(refs) == 0 {
		t.Fatal("the packaged config points to no doc")
	}
	for _, r := range refs {
		if _, err := os.Stat("../../" + r); err != nil {
			t.Errorf("the packaged config points to %s: %v", r, err)
		}
	}
}
