package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestMQTTDefaultsAndPaths(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "watchdog.yml")
	yml := "mqtt:\n  broker: ssl://broker.example:8883\n  username: heart\n  password_file: secrets/mqtt.pw\n  tls: {ca_file: ca.crt}\n"
	if err := os.WriteFile(path, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatalf("Load = %v", err)
	}
	m := c.MQTT
	if !m.Enabled() || m.TopicPrefix != "heart" || m.KeepAlive.D() != 30*time.Second {
		t.Errorf("mqtt = %+v, want enabled, prefix heart, keepalive 30s", m)
	}
	if want := filepath.Join(dir, "secrets/mqtt.pw"); m.PasswordFile != want {
		t.Errorf("password_file = %q, want %q (relative to the config)", m.PasswordFile, want)
	}
	if want := filepath.Join(dir, "ca.crt"); m.TLS.CAFile != want {
		t.Errorf("tls.ca_file = %q, want %q", m.TLS.CAFile, want)
	}
}

func TestMQTTOffByDefault(t *testing.T) {
	c, err := Parse([]byte("mqtt: {topic_prefix: x}\n"))
	if err != nil {
		t.Fatalf("Parse = %v", err)
	}
	if c.MQTT.Enabled() {
		t.Errorf("mqtt enabled without a broker")
	}
}

func TestCheckBroker(t *testing.T) {
	for _, b := range []string{"tcp://127.0.0.1:1883", "ssl://h:8883", "ws://h:9001/mqtt", "wss://h/mqtt"} {
		if err := CheckBroker(b); err != nil {
			t.Errorf("CheckBroker(%q) = %v, want nil", b, err)
		}
	}
	for _, b := range []string{"mqtt://h:1883", "tcp://", "h:1883", "tcp://u:p@h:1883"} {
		if err := CheckBroker(b); err == nil {
			t.Errorf("CheckBroker(%q) = nil, want an error", b)
		}
	}
}
