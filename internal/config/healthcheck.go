package config

import (
	"fmt"
	"net/http"
	"time"
)

// Healthcheck is the watchdog's own dead-man's switch: a URL it pings on
// a healthy pulse (every agent pulsed), at most once an interval, so a
// service such as healthchecks.io tells the operator when the watchdog
// itself is down. The URL is a secret, as alerts.notify's are: url may
// read ${ENV}, url_file a file; it is never logged or shown.
type Healthcheck struct {
	URL     string `yaml:"url"`
	URLFile string `yaml:"url_file"`
	// Interval is the least time between two pings (1m).
	Interval Duration `yaml:"interval"`
	// Method is GET (the default) or POST.
	Method string `yaml:"method"`
	// Fail pings url + "/fail" while some agent has a check at error.
	Fail bool `yaml:"fail"`
	// Timeout bounds one ping (10s, at most the interval).
	Timeout Duration `yaml:"timeout"`
}

// On reports whether a ping URL is set.
func (h Healthcheck) On() bool { return h.URL != "" || h.URLFile != "" }

// validateHealthcheck checks the healthcheck section and fills its defaults.
func (c *Config) validateHealthcheck() error {
	h := &c.Healthcheck
	if !h.On() {
		return nil
	}
	switch {
	case h.URL != "" && h.URLFile != "":
		return fmt.Errorf("healthcheck.url: give one of url and url_file")
	case h.Interval < 0:
		return fmt.Errorf("healthcheck.interval: must not be negative (default 1m)")
	case h.Timeout < 0:
		return fmt.Errorf("healthcheck.timeout: must not be negative (default 10s)")
	}
	if h.Interval == 0 {
		h.Interval = Duration(time.Minute)
	}
	if h.Interval.D() < time.Second {
		return fmt.Errorf("healthcheck.interval: %s is under a second; a dead-man's switch needs a ping a minute or so", h.Interval.D())
	}
	if h.Timeout == 0 {
		h.Timeout = Duration(min(10*time.Second, h.Interval.D()))
	}
	if h.Timeout > h.Interval {
		return fmt.Errorf("healthcheck.timeout: %s is longer than the interval %s", h.Timeout.D(), h.Interval.D())
	}
	switch h.Method {
	case "":
		h.Method = http.MethodGet
	case http.MethodGet, http.MethodPost:
	default:
		return fmt.Errorf("healthcheck.method: %q is not GET or POST", h.Method)
	}
	return nil
}
