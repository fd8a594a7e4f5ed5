package notify

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRedactKeepsSchemeAndHostOnly(t *testing.T) {
	for raw, want := range map[string]string{
		"ntfy://:tk_secret123@ntfy.sh/my-topic":               "ntfy://ntfy.sh/…",
		"generic+https://hooks.example.com/T0/B1/XyZsecret":   "generic+https://hooks.example.com/…",
		"telegram://123456:ABCdefSECRET@telegram?chats=@chan": "telegram://telegram/…",
		"gotify://gotify.example.com":                         "gotify://gotify.example.com",
		"not a url":                                           "(a notification URL)",
	} {
		if got := Redact(raw); got != want {
			t.Errorf("Redact(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestScrubberHidesEveryPieceOfTheSecret(t *testing.T) {
	secret := "generic+http://user:pa55word@127.0.0.1:9/hooks/T0KEN123?key=qwerty42"
	s := newScrubber(secret)
	// Services rebuild the URL in their errors, with another scheme.
	msg := s.scrub(`sending HTTP request: Post "http://127.0.0.1:9/hooks/T0KEN123?key=qwerty42": dial tcp: refused; token T0KEN123, user pa55word`)
	for _, leak := range []string{"T0KEN123", "qwerty42", "pa55word"} {
		if strings.Contains(msg, leak) {
			t.Fatalf("%q leaked: %s", leak, msg)
		}
	}
	if !strings.Contains(msg, "http://127.0.0.1:9/…") || !strings.Contains(msg, "dial tcp: refused") {
		t.Fatalf("scrubbed too much: %s", msg)
	}
}

func TestResolveURL(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "url")
	if err := os.WriteFile(file, []byte("ntfy://:tok@ntfy.sh/t\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if u, err := ResolveURL("alerts.notify[0]", "", file); err != nil || u != "ntfy://:tok@ntfy.sh/t" {
		t.Fatalf("url_file: %q %v", u, err)
	}
	t.Setenv("AIHEART_TEST_TOKEN", "s3cr3t")
	if u, err := ResolveURL("alerts.notify[0]", "ntfy://:${AIHEART_TEST_TOKEN}@ntfy.sh/t", ""); err != nil || u != "ntfy://:s3cr3t@ntfy.sh/t" {
		t.Fatalf("env: %q %v", u, err)
	}
	_, err := ResolveURL("alerts.notify[1]", "ntfy://:${AIHEART_NOT_SET_ANYWHERE}@ntfy.sh/t", "")
	if err == nil || !strings.Contains(err.Error(), "alerts.notify[1].url") || !strings.Contains(err.Error(), "AIHEART_NOT_SET_ANYWHERE") {
		t.Fatalf("missing env: %v", err)
	}
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	if _, err := ResolveURL("alerts.notify[2]", "", empty); err == nil || !strings.Contains(err.Error(), "url_file") {
		t.Fatalf("empty file: %v", err)
	}
}

func TestEnvNames(t *testing.T) {
	got := EnvNames("ntfy://${HOST}/$TOPIC?token=${TOKEN}&x=1")
	if want := []string{"HOST", "TOPIC", "TOKEN"}; !slices.Equal(got, want) {
		t.Errorf("EnvNames = %q, want %q", got, want)
	}
	if got := EnvNames("https://example.invalid/hook"); len(got) != 0 {
		t.Errorf("EnvNames(no variables) = %q, want none", got)
	}
}
