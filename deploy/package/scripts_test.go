package pkg

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPostinstRestart: dpkg runs postinst "configure" with the version it
// replaces on an upgrade and with none on a first install. On an upgrade
// the script asks systemd to restart the unit if, and only if, it runs
// (try-restart); a first install starts nothing. The script runs for real
// in a mount namespace whose /run says systemd is up, against stand-ins
// for systemctl, getent and install that only log their arguments.
// Whether systemd's try-restart leaves a stopped unit alone is systemd's
// to keep; .ci/package-check sees it where systemd is PID 1.
func TestPostinstRestart(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root for a mount namespace")
	}
	if err := exec.Command("unshare", "--mount", "true").Run(); err != nil {
		t.Skipf("no mount namespace here: %v", err)
	}
	script, err := filepath.Abs("postinstall.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"install", []string{"configure", ""}, []string{"daemon-reload"}},
		{"upgrade", []string{"configure", "0.1.0~dev"}, []string{"daemon-reload", "try-restart ai-heart-watchdog.service"}},
		{"reinstall", []string{"configure", "0.1.0"}, []string{"daemon-reload", "try-restart ai-heart-watchdog.service"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := t.TempDir()
			log := filepath.Join(t.TempDir(), "systemctl.log")
			stub := "#!/bin/sh\necho \"$*\" >> " + log + "\n"
			for _, name := range []string{"systemctl", "getent", "install"} {
				s := stub
				if name != "systemctl" {
					s = "#!/bin/sh\nexit 0\n"
				}
				if err := os.WriteFile(filepath.Join(bin, name), []byte(s), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			sh := `mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/system && exec sh "$0" "$@"`
			cmd := exec.Command("unshare", append([]string{"--mount", "sh", "-c", sh, script}, tc.args...)...)
			cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("postinst %v: %v\n%s", tc.args, err, out)
			}
			got, err := os.ReadFile(log)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if g := strings.Split(strings.TrimSpace(string(got)), "\n"); strings.Join(g, "|") != strings.Join(tc.want, "|") {
				t.Errorf("postinst %q called systemctl %q, want %q", tc.args, g, tc.want)
			}
		})
	}
}
