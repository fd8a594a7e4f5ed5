// Package systemd holds the watchdog's systemd unit; its test checks the
// unit with systemd-analyze.
package systemd

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	unitName    = "ai-heart-watchdog.service"
	installPath = "/usr/local/bin/watchdog"
)

// directives returns the unit's active (uncommented) key=value lines.
func directives(t *testing.T, unit string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(unit))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' || line[0] == '[' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("unit line %q is not key=value", line)
		}
		out[k] = append(out[k], v)
	}
	return out
}

func readUnit(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(unitName)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestUnitSettings(t *testing.T) {
	d := directives(t, readUnit(t))
	one := func(k string) string {
		if len(d[k]) != 1 {
			return ""
		}
		return d[k][0]
	}
	tests := []struct {
		name string
		ok   func() bool
	}{
		{name: "Type=notify", ok: func() bool { return one("Type") == "notify" }},
		{name: "NotifyAccess=main", ok: func() bool { return one("NotifyAccess") == "main" }},
		{name: "WatchdogSec exceeds the default pulse interval twice", ok: func() bool {
			v, err := time.ParseDuration(one("WatchdogSec"))
			return err == nil && v > 2*60*time.Second
		}},
		{name: "Restart=on-failure", ok: func() bool { return one("Restart") == "on-failure" }},
		{name: "ExecStart runs the installed daemon with the /etc config", ok: func() bool {
			return one("ExecStart") == installPath+" run -c /etc/ai-heart/watchdog.yaml"
		}},
		{name: "User set", ok: func() bool { return one("User") != "" }},
		{name: "ProtectSystem=strict", ok: func() bool { return one("ProtectSystem") == "strict" }},
		{name: "workspace writable", ok: func() bool { return strings.Contains(one("ReadWritePaths"), "ai-works") }},
		{name: "the watchdog's state in a 0700 StateDirectory", ok: func() bool {
			return one("StateDirectory") == "ai-heart/state" && one("StateDirectoryMode") == "0700"
		}},
		{name: "NoNewPrivileges=yes", ok: func() bool { return one("NoNewPrivileges") == "yes" }},
		{name: "no MemoryDenyWriteExecute (kills Node-based agents)", ok: func() bool { return d["MemoryDenyWriteExecute"] == nil }},
		{name: "no PrivateTmp (hides the tmux socket)", ok: func() bool { return d["PrivateTmp"] == nil }},
		{name: "unix sockets allowed (tmux, sd_notify)", ok: func() bool { return strings.Contains(one("RestrictAddressFamilies"), "AF_UNIX") }},
		// A watchdog gone wrong (or fed a decoding bomb) is ended and
		// restarted at a bound, not left to grow until the host's OOM
		// killer picks something; an exec agent's end does not stop the unit.
		{name: "MemoryHigh below MemoryMax", ok: func() bool {
			high, max := bytesOf(one("MemoryHigh")), bytesOf(one("MemoryMax"))
			return high > 0 && max > high
		}},
		{name: "OOMPolicy=continue", ok: func() bool { return one("OOMPolicy") == "continue" }},
		{name: "no secret in Environment=", ok: func() bool {
			for _, e := range d["Environment"] {
				if !strings.HasPrefix(e, "PATH=") {
					return false
				}
			}
			return true
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.ok() {
				t.Errorf("%s: not so in %s", tt.name, unitName)
			}
		})
	}
}

// bytesOf reads a systemd size (1536M, 2G); 0 when it is not one.
func bytesOf(v string) int64 {
	n, err := strconv.ParseInt(strings.TrimRight(v, "KMG"), 10, 64)
	if err != nil {
		return 0
	}
	switch {
	case strings.HasSuffix(v, "K"):
		return n << 10
	case strings.HasSuffix(v, "M"):
		return n << 20
	case strings.HasSuffix(v, "G"):
		return n << 30
	}
	return n
}

// verify copies unit into a temp folder with ExecStart pointing at an
// existing binary and runs systemd-analyze verify on it. It returns the
// tool's complaints about the unit, and logs anything else it printed.
func verify(t *testing.T, unit string) []string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), unitName)
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(unit, installPath, self)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("systemd-analyze", "verify", "--man=no", path)
	// Make sure warnings are printed whatever the environment says.
	cmd.Env = append(os.Environ(), "SYSTEMD_LOG_LEVEL=info", "SYSTEMD_LOG_COLOR=0")
	out, err := cmd.CombinedOutput()
	var complaints []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		switch {
		case line == "":
		case strings.Contains(line, unitName):
			complaints = append(complaints, line)
		default:
			t.Logf("systemd-analyze: %s", line)
		}
	}
	if err != nil && len(complaints) == 0 {
		complaints = append(complaints, "systemd-analyze verify: "+err.Error())
	}
	return complaints
}

func TestSystemdAnalyzeVerify(t *testing.T) {
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Skip("systemd-analyze is not installed (Debian package systemd)")
	}
	unit := readUnit(t)
	tests := []struct {
		name          string
		unit          string
		wantComplaint string // "" = the unit must verify clean
	}{
		{name: "shipped unit", unit: unit},
		// The harness must see warnings, or a clean run proves nothing.
		{name: "unknown key is caught", unit: strings.Replace(unit, "[Service]\n", "[Service]\nPrivateTmpp=yes\n", 1), wantComplaint: "PrivateTmpp"},
		{name: "missing binary is caught", unit: strings.ReplaceAll(unit, installPath, "/nonexistent/watchdog"), wantComplaint: "/nonexistent/watchdog"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := verify(t, tt.unit)
			if tt.wantComplaint == "" {
				for _, c := range got {
					t.Errorf("systemd-analyze verify: %s", c)
				}
				return
			}
			if !strings.Contains(strings.Join(got, "\n"), tt.wantComplaint) {
				t.Errorf("systemd-analyze verify complained %q, want a complaint about %q", got, tt.wantComplaint)
			}
		})
	}
}

// TestPackageUnitInStep: the Debian package's unit is this one but for the
// installed paths and the package's user: every other directive is equal,
// so hardening added here cannot be forgotten there.
func TestPackageUnitInStep(t *testing.T) {
	b, err := os.ReadFile("../package/" + unitName)
	if err != nil {
		t.Fatal(err)
	}
	pkg, here := directives(t, string(b)), directives(t, readUnit(t))
	want := map[string]string{
		"ExecStart":      "/usr/bin/watchdog run -c /etc/ai-heart/watchdog.yaml",
		"User":           "ai-heart",
		"Group":          "ai-heart",
		"ReadWritePaths": "/var/lib/ai-heart",
	}
	for k, v := range want {
		if got := strings.Join(pkg[k], " "); got != v {
			t.Errorf("package unit %s=%q, want %q", k, got, v)
		}
	}
	for _, m := range []map[string][]string{pkg, here} {
		for k := range m {
			if _, differs := want[k]; differs {
				continue
			}
			if strings.Join(pkg[k], "\n") != strings.Join(here[k], "\n") {
				t.Errorf("%s: package unit %q, deploy unit %q; only %v may differ", k, pkg[k], here[k], want)
			}
		}
	}
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		return
	}
	unit := strings.ReplaceAll(string(b), "/usr/bin/watchdog", installPath)
	unit = strings.NewReplacer("User=ai-heart", "User=root", "Group=ai-heart", "Group=root").Replace(unit)
	for _, c := range verify(t, unit) {
		t.Errorf("systemd-analyze verify (package unit): %s", c)
	}
}
