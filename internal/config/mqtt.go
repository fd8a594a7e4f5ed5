package config

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// MQTT puts the pulse on a broker (the Heart paper's keepalive topics): each
// agent's state, retained, on <topic_prefix>/<agent>/state, its alerts on
// <topic_prefix>/<agent>/alerts, and the process's presence (a last will) on
// <topic_prefix>/_watchdog/<host>/<client>. An empty Broker means off.
type MQTT struct {
	// Broker is the server URL: tcp://, ssl://, ws:// or wss:// ("" = off).
	Broker string `yaml:"broker"`
	// ClientID is the MQTT client ID ("" = watchdog-<host>-<pid>).
	ClientID string `yaml:"client_id"`
	// Username and PasswordFile authenticate; the password is read from the
	// file (first line) so it never sits on a command line or in this file.
	Username     string  `yaml:"username"`
	PasswordFile string  `yaml:"password_file"`
	TLS          MQTTTLS `yaml:"tls"`
	// TopicPrefix is the first topic level (default "heart").
	TopicPrefix string `yaml:"topic_prefix"`
	// KeepAlive is the MQTT keepalive (default 30s); the broker fires the
	// last will within 1.5 times it after the process dies.
	KeepAlive Duration `yaml:"keepalive"`
}

// MQTTTLS is the TLS material for ssl:// and wss:// brokers. CAFile alone
// verifies the broker; CertFile and KeyFile together add a client
// certificate.
type MQTTTLS struct {
	CAFile   string `yaml:"ca_file"`
	CertFile string `yaml:"cert_file"`
	KeyFile  string `yaml:"key_file"`
}

// Enabled reports whether a broker is configured.
func (m MQTT) Enabled() bool { return m.Broker != "" }

// DefaultTopicPrefix is the first topic level when mqtt.topic_prefix is empty.
const DefaultTopicPrefix = "heart"

// validateMQTT checks the mqtt section and fills its defaults. Nothing is
// checked when it is off, so a half-written block does not stop a watchdog
// that does not use it.
func (c *Config) validateMQTT() error {
	m := &c.MQTT
	if !m.Enabled() {
		return nil
	}
	if err := CheckBroker(m.Broker); err != nil {
		return fmt.Errorf("mqtt.broker: %w", err)
	}
	if m.TopicPrefix == "" {
		m.TopicPrefix = DefaultTopicPrefix
	}
	if strings.ContainsAny(m.TopicPrefix, "#+") || strings.HasPrefix(m.TopicPrefix, "/") || strings.HasSuffix(m.TopicPrefix, "/") {
		return fmt.Errorf("mqtt.topic_prefix: %q must not hold + or # nor start or end with /", m.TopicPrefix)
	}
	switch {
	case m.KeepAlive == 0:
		m.KeepAlive = Duration(30 * time.Second)
	case m.KeepAlive < Duration(time.Second) || m.KeepAlive > Duration(65535*time.Second):
		return fmt.Errorf("mqtt.keepalive: %s is not between 1s and 65535s", m.KeepAlive.D())
	}
	if m.PasswordFile != "" && m.Username == "" {
		return fmt.Errorf("mqtt.password_file: needs mqtt.username")
	}
	if (m.TLS.CertFile == "") != (m.TLS.KeyFile == "") {
		return fmt.Errorf("mqtt.tls: give both cert_file and key_file, or neither")
	}
	tlsScheme := strings.HasPrefix(m.Broker, "ssl://") || strings.HasPrefix(m.Broker, "wss://")
	if !tlsScheme && (m.TLS.CAFile != "" || m.TLS.CertFile != "") {
		return fmt.Errorf("mqtt.tls: set, but mqtt.broker %q is not ssl:// or wss://", m.Broker)
	}
	return nil
}

// CheckBroker accepts a broker URL with a tcp, ssl, ws or wss scheme and a
// host (watchdog fleet --mqtt uses it too).
func CheckBroker(broker string) error {
	u, err := url.Parse(broker)
	if err != nil {
		return fmt.Errorf("%q: %v", broker, err)
	}
	switch u.Scheme {
	case "tcp", "ssl", "ws", "wss":
	default:
		return fmt.Errorf("%q: the scheme must be tcp://, ssl://, ws:// or wss://", broker)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("%q: no host", broker)
	}
	if u.User != nil {
		return fmt.Errorf("%q: no credentials in the URL; use mqtt.username and mqtt.password_file", redact(u))
	}
	return nil
}

func redact(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}
