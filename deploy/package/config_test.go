// Package pkg holds what the Debian package installs besides the binaries;
// its test keeps the default config true to the code.
package pkg

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/config"
)

// TestDefaultConfig: the installed /etc/ai-heart/watchdog.yaml loads, names
// the package's workspace, and every commented default equals the code's.
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
	// Uncommented, the commented defaults must load to the built-in values.
	var lines []string
	key := regexp.MustCompile(`^# ?([a-z_]+:|  [a-z_]+:)`)
	for _, l := range strings.Split(string(b), "\n") {
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
	if all.Pulse != d.Pulse || all.Thresholds != d.Thresholds || all.Recovery != d.Recovery || all.CircuitBreaker != d.CircuitBreaker ||
		all.DailyCap != d.DailyCap || all.Idle.After != d.Idle.After || all.Schedule.Every != d.Schedule.Every ||
		all.Agent.Delivery != d.Agent.Delivery || all.Agent.Timeout != d.Agent.Timeout || all.Language != d.Language {
		t.Errorf("the commented defaults differ from config.Defaults():\n%s", strings.Join(lines, "\n"))
	}
}
