package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCredentialFiles: a secret's file may be named in systemd's credentials
// folder, ${CREDENTIALS_DIRECTORY}/NAME, so LoadCredential= hands the
// watchdog its secrets without its environment. Unset (a command run from
// a shell), the path stays as written; other paths are untouched, and a
// relative one is still taken from the config's folder.
func TestCredentialFiles(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "watchdog.yaml")
	body := `workspace: ws
healthcheck: {url_file: "${CREDENTIALS_DIRECTORY}/hc-url"}
http: {listen: "127.0.0.1:0", token_file: "$CREDENTIALS_DIRECTORY/token"}
alerts:
  notify:
    - {url_file: "ntfy.url"}
mqtt: {broker: "ssl://broker:8883", username: u, password_file: "${CREDENTIALS_DIRECTORY}/mqtt", tls: {ca_file: "${CREDENTIALS_DIRECTORY}/ca.pem"}}
`
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, creds string
		want        map[string]string
	}{
		{name: "in the unit", creds: "/run/credentials/ai-heart-watchdog.service", want: map[string]string{
			"healthcheck": "/run/credentials/ai-heart-watchdog.service/hc-url",
			"token":       "/run/credentials/ai-heart-watchdog.service/token",
			"mqtt":        "/run/credentials/ai-heart-watchdog.service/mqtt",
			"ca":          "/run/credentials/ai-heart-watchdog.service/ca.pem",
			"notify":      filepath.Join(dir, "ntfy.url"),
		}},
		{name: "from a shell", want: map[string]string{
			"healthcheck": "${CREDENTIALS_DIRECTORY}/hc-url",
			"token":       "$CREDENTIALS_DIRECTORY/token",
			"mqtt":        "${CREDENTIALS_DIRECTORY}/mqtt",
			"ca":          "${CREDENTIALS_DIRECTORY}/ca.pem",
			"notify":      filepath.Join(dir, "ntfy.url"),
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(CredentialsVar, tt.creds)
			c, err := Load(cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{"healthcheck": c.Healthcheck.URLFile, "token": c.HTTP.TokenFile, "mqtt": c.MQTT.PasswordFile,
				"ca": c.MQTT.TLS.CAFile, "notify": c.Alerts.Notify[0].URLFile}
			for k, w := range tt.want {
				if got[k] != w {
					t.Errorf("%s file = %q, want %q", k, got[k], w)
				}
			}
		})
	}
}
