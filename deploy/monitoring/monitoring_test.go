// Package monitoring holds example Prometheus alerting rules and a Grafana
// dashboard for the watchdog's /metrics; its tests keep them true to what
// the watchdog exports.
package monitoring

import (
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/fleet"
	"github.com/ai-heart/ai-heart/internal/metrics"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestAlertRules: promtool accepts the rules, and its unit tests
// (alerts_test.yml) see them fire on what they mean and stay quiet
// otherwise. CI installs promtool (Debian's prometheus package).
func TestAlertRules(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool not installed (Debian package prometheus)")
	}
	for _, args := range [][]string{{"check", "rules", "alerts.yml"}, {"test", "rules", "alerts_test.yml"}} {
		if out, err := exec.Command(promtool, args...).CombinedOutput(); err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// TestMetricNames: every metric the rules and the dashboard's queries name
// is one a real scrape of the watchdog's /metrics serves (or Prometheus's
// own up).
func TestMetricNames(t *testing.T) {
	served := scrapedNames(t)
	var exprs []string
	var rules struct {
		Groups []struct {
			Rules []struct{ Expr string }
		}
	}
	b, err := os.ReadFile("alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &rules); err != nil {
		t.Fatal(err)
	}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			exprs = append(exprs, r.Expr)
		}
	}
	if b, err = os.ReadFile("dashboard.json"); err != nil {
		t.Fatal(err)
	}
	var dash any
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatalf("dashboard.json: %v", err)
	}
	n := len(exprs)
	walk(dash, func(key, v string) {
		switch key {
		case "expr":
			exprs = append(exprs, v)
		case "definition": // a variable's query, e.g. label_values(metric, label)
			exprs = append(exprs, regexp.MustCompile(`label_values\(([^,)]+).*\)`).ReplaceAllString(v, "$1"))
		}
	})
	if n == 0 || len(exprs) == n {
		t.Fatalf("found %d rule and %d dashboard expressions; want some of each", n, len(exprs)-n)
	}
	for _, e := range exprs {
		names := metricNames(e)
		if len(names) == 0 {
			t.Errorf("%q: names no metric", e)
		}
		for _, name := range names {
			if !served[name] && name != "up" {
				t.Errorf("%q names %s, which the watchdog does not export", e, name)
			}
		}
	}
}

// walk calls f with every string value of v and its key.
func walk(v any, f func(key, val string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok {
				f(k, s)
			}
			walk(x, f)
		}
	case []any:
		for _, x := range v {
			walk(x, f)
		}
	}
}

var (
	// Removed before looking for names: strings, label matchers, ranges,
	// and the label lists of by, without, on and ignoring.
	noise = regexp.MustCompile(`"[^"]*"|\{[^}]*\}|\[[^\]]*\]|\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`)
	ident = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*(\s*\()?`)
)

var keywords = map[string]bool{"and": true, "or": true, "unless": true, "bool": true, "offset": true}

// metricNames lists the metric names in a PromQL expression: identifiers
// that are neither a function called nor a keyword nor a number.
func metricNames(expr string) []string {
	var out []string
	for _, m := range ident.FindAllString(noise.ReplaceAllString(expr, " "), -1) {
		if strings.HasSuffix(m, "(") || keywords[m] || m == "e" || m == "Inf" || m == "NaN" {
			continue
		}
		out = append(out, m)
	}
	return out
}

func TestMetricNamesParses(t *testing.T) {
	for expr, want := range map[string]string{
		`sum by (agent, le) (rate(watchdog_pulse_duration_seconds_bucket{agent=~"$agent"}[15m]))`: "watchdog_pulse_duration_seconds_bucket",
		`watchdog_daily_cap_limit > 0 and watchdog_daily_cap_used >= watchdog_daily_cap_limit`:    "watchdog_daily_cap_limit watchdog_daily_cap_used watchdog_daily_cap_limit",
		`time() - watchdog_last_pulse_timestamp_seconds > 300`:                                    "watchdog_last_pulse_timestamp_seconds",
		`up{job="ai-heart-watchdog"} == 0`:                                                        "up",
	} {
		if got := strings.Join(metricNames(expr), " "); got != want {
			t.Errorf("metricNames(%q) = %q, want %q", expr, got, want)
		}
	}
}

// scrapedNames serves /metrics from the watchdog's registry over agent
// states with every field set and an MQTT publisher, and lists the names.
func scrapedNames(t *testing.T) map[string]bool {
	t.Helper()
	now := time.Now()
	s := state.State{
		Agent: "alice", PulseAt: now, PulseInterval: config.Duration(time.Minute),
		Checks:    map[string]state.CheckState{"inactivity": {Level: "ok"}},
		LastProof: &workspace.Proof{ModTime: now}, LastIntro: &workspace.Proof{ModTime: now},
		DeepWork: []state.DeepWork{{Mode: workspace.Strict}}, DailyCap: budget.CapState{Used: 1, Limit: 48},
		Pause: &pause.Pause{Since: now},
		Cost: &cost.Summary{Totals: map[string]cost.Cell{"schedule": {Runs: 1, Tokens: cost.Tokens{Input: 1}, USD: 0.01}},
			Budget: &cost.BudgetState{}},
	}
	s.Counters.Wakeup("schedule", state.OutcomeDelivered)
	m := metrics.New(sources{s}, nil)
	m.Pulse("alice", time.Millisecond)
	m.Alert("alice", "inactivity", "warning")
	m.Notified("alice", nil)
	m.Notified("alice", errors.New("refused"))
	m.AddPublisher(publisher{})
	srv := httptest.NewServer(m.Handler())
	t.Cleanup(srv.Close)
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, l := range strings.Split(string(body), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			names[strings.FieldsFunc(l, func(r rune) bool { return r == '{' || r == ' ' })[0]] = true
		}
	}
	var ws []string
	for n := range names {
		if strings.HasPrefix(n, "watchdog_") {
			ws = append(ws, n)
		}
	}
	sort.Strings(ws)
	t.Logf("the watchdog exports %d watchdog_ series names: %s", len(ws), strings.Join(ws, " "))
	return names
}

type sources []state.State

func (s sources) Statuses() []state.State { return s }

type publisher struct{}

func (publisher) Connected() bool      { return true }
func (publisher) Counts() fleet.Counts { return fleet.Counts{States: 1} }

// TestDocNamesEveryMetric: docs/monitoring.md names every watchdog_ metric
// the watchdog exports, and no other.
func TestDocNamesEveryMetric(t *testing.T) {
	served := scrapedNames(t)
	b, err := os.ReadFile("../../docs/monitoring.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]bool{}
	for _, m := range regexp.MustCompile("`(watchdog_[a-z_]+)`").FindAllStringSubmatch(string(b), -1) {
		doc[m[1]] = true
		if !served[m[1]] && !served[m[1]+"_count"] {
			t.Errorf("docs/monitoring.md names %s, which the watchdog does not export", m[1])
		}
	}
	for name := range served {
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_sum"), "_count")
		if strings.HasPrefix(name, "watchdog_") && !doc[name] && !doc[base] {
			t.Errorf("docs/monitoring.md does not name %s", name)
		}
	}
}
