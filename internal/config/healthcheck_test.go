package config

import (
	"strings"
	"testing"
	"time"
)

// The healthcheck section: off by default, a minute between pings and a
// 10 s timeout when on, and every bad value refused with its key.
func TestHealthcheck(t *testing.T) {
	c, err := Parse([]byte("healthcheck: {url: \"https://hc-ping.com/${HC_UUID}\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if h := c.Healthcheck; !h.On() || h.Interval.D() != time.Minute || h.Timeout.D() != 10*time.Second || h.Method != "GET" || h.Fail {
		t.Fatalf("defaults %+v", h)
	}
	if c, err := Parse([]byte("name: x\n")); err != nil || c.Healthcheck.On() {
		t.Fatalf("off by default: %+v, %v", c.Healthcheck, err)
	}
	for body, want := range map[string]string{
		"healthcheck: {url: https://h/x, url_file: f}":               "healthcheck.url: give one of",
		"healthcheck: {url: https://h/x, interval: 100ms}":           "healthcheck.interval",
		"healthcheck: {url: https://h/x, interval: -1s}":             "healthcheck.interval",
		"healthcheck: {url: https://h/x, method: PUT}":               "healthcheck.method",
		"healthcheck: {url: https://h/x, interval: 5s, timeout: 6s}": "healthcheck.timeout",
	} {
		if _, err := Parse([]byte(body + "\n")); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}
