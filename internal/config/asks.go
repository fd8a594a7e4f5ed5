package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"time"
)

// Asks is how the questions the agent's client waits on (a permission
// request) are offered to a person afar: the page, `watchdog answer`, a
// notification's link. Nothing is ever allowed by a timeout: past Hold the
// client's own dialog alone stands.
type Asks struct {
	// Hold is how long a question is offered for an answer from afar
	// (30m; 0 = none is offered; at most 24h).
	Hold Duration `yaml:"hold"`
	// Socket is the Unix socket the client's hooks ask on ("" = asks.sock
	// in the agent's state folder). Run as another user than the agent,
	// the watchdog needs one the agent's user can reach, in a folder only
	// the watchdog's user can change.
	Socket string `yaml:"socket"`
	// Remind notifies a question again when it has waited this long
	// (10m; 0 = never).
	Remind Duration `yaml:"remind"`
}

// MaxAsksHold bounds asks.hold.
const MaxAsksHold = 24 * time.Hour

func (a Asks) check(key string, p *problems) {
	if a.Hold < 0 || a.Hold.D() > MaxAsksHold {
		p.addf(key+"asks.hold", "must be from 0 (off) to 24h, got %s", a.Hold.D())
	}
	if a.Remind < 0 {
		p.addf(key+"asks.remind", "must be 0 (never) or positive")
	}
	if a.Socket != "" && !filepath.IsAbs(a.Socket) {
		p.addf(key+"asks.socket", "%q: give an absolute path", a.Socket)
	}
}

// AsksSocket is where the agent's hooks ask: asks.socket, else asks.sock
// in its state folder ("" without one).
func (a AgentConfig) AsksSocket() string {
	if a.Asks.Socket != "" {
		return a.Asks.Socket
	}
	if d := a.StateDir(); d != "" {
		return filepath.Join(d, "asks.sock")
	}
	return ""
}

func checkPublicURL(u string) error {
	if u == "" {
		return nil
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return fmt.Errorf("http.public_url: %q: want an http or https URL of the page, as a person's phone reaches it", u)
	}
	return nil
}
