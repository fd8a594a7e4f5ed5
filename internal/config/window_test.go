package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHTTPMaxConnections(t *testing.T) {
	for _, tt := range []struct {
		yaml, wantErr string
		want          int
	}{
		{yaml: "http: {listen: \"127.0.0.1:0\"}\n", want: 0},
		{yaml: "http: {listen: \"127.0.0.1:0\", max_connections: 8}\n", want: 8},
		{yaml: "http: {listen: \"127.0.0.1:0\", max_connections: -1}\n", wantErr: "http.max_connections: -1 is negative"},
	} {
		p := filepath.Join(t.TempDir(), "w.yml")
		if err := os.WriteFile(p, []byte(tt.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := Load(p)
		switch {
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("Load(%q) = %v, want an error containing %q", tt.yaml, err, tt.wantErr)
		case tt.wantErr == "" && err != nil:
			t.Errorf("Load(%q) = %v", tt.yaml, err)
		case tt.wantErr == "" && c.HTTP.MaxConnections != tt.want:
			t.Errorf("Load(%q): max_connections %d, want %d", tt.yaml, c.HTTP.MaxConnections, tt.want)
		}
	}
}
