package fleet

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"github.com/ai-heart/ai-heart/internal/config"
)

// Reconnection backoff: quick first retries (a broker restart), then a
// random wait up to 5 s, so a fleet with 10 s pulses is back on a restarted
// broker well before a view would count 3 missed pulses.
const (
	backoffMin     = 100 * time.Millisecond
	backoffInitial = 500 * time.Millisecond
	backoffMax     = 5 * time.Second
)

// clientConfig builds the autopaho settings every connection shares: the
// broker URL, TLS, credentials read from their file, keepalive, backoff.
func clientConfig(m config.MQTT, clientID string) (autopaho.ClientConfig, error) {
	var cc autopaho.ClientConfig
	if err := config.CheckBroker(m.Broker); err != nil {
		return cc, fmt.Errorf("mqtt.broker: %w", err)
	}
	u, _ := url.Parse(m.Broker)
	cc.ServerUrls = []*url.URL{u}
	if u.Scheme == "ssl" || u.Scheme == "wss" {
		t, err := tlsConfig(m.TLS, u.Hostname())
		if err != nil {
			return cc, err
		}
		cc.TlsCfg = t
	}
	if m.Username != "" {
		cc.ConnectUsername = m.Username
		if m.PasswordFile != "" {
			pw, err := ReadPassword(m.PasswordFile)
			if err != nil {
				return cc, err
			}
			cc.ConnectPassword = pw
		}
	}
	ka := m.KeepAlive.D()
	if ka <= 0 {
		ka = 30 * time.Second
	}
	cc.KeepAlive = uint16(ka / time.Second)
	cc.CleanStartOnInitialConnection = true
	cc.ReconnectBackoff = autopaho.NewExponentialBackoff(backoffMin, backoffMax, backoffInitial, 2)
	cc.ConnectTimeout = 10 * time.Second
	cc.ClientID = clientID
	cc.PacketTimeout = 10 * time.Second
	return cc, nil
}

// ReadPassword reads the first line of a password file.
func ReadPassword(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mqtt.password_file: %w", err)
	}
	pw, _, _ := strings.Cut(string(b), "\n")
	pw = strings.TrimRight(pw, "\r")
	if pw == "" {
		return nil, fmt.Errorf("mqtt.password_file %s: the first line is empty", path)
	}
	return []byte(pw), nil
}

func tlsConfig(t config.MQTTTLS, host string) (*tls.Config, error) {
	c := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: host}
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("mqtt.tls.ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("mqtt.tls.ca_file %s: no PEM certificate in it", t.CAFile)
		}
		c.RootCAs = pool
	}
	if t.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("mqtt.tls.cert_file/key_file: %w", err)
		}
		c.Certificates = []tls.Certificate{cert}
	}
	return c, nil
}

// connectError says why the broker refused or could not be reached, in
// words an operator can act on; it never holds the password.
func connectError(err error) string {
	var ce *autopaho.ConnackError
	if errors.As(err, &ce) {
		switch ce.ReasonCode {
		case 0x86, 0x87, 0x04, 0x05: // bad credentials, not authorised (MQTT 5, 3.1.1); Mosquitto answers 0x87 to a wrong password
			return fmt.Sprintf("the broker refused the user name or password (reason %d): check mqtt.username and mqtt.password_file", ce.ReasonCode)
		case 0x85:
			return fmt.Sprintf("the broker refused the client ID (reason %d): check mqtt.client_id", ce.ReasonCode)
		}
		return "the broker refused the connection: " + ce.Error()
	}
	return err.Error()
}

// retainedLife is how long the broker keeps a retained state or will
// (MQTT 5 message expiry): a live agent replaces its state each pulse, so
// only the topics of agents and processes gone for a day disappear, rather
// than piling up with every restart.
const retainedLife = 24 * 60 * 60 // seconds

// willProps fire the last will as soon as the broker loses the client.
var willProps = &paho.WillProperties{WillDelayInterval: new(uint32), MessageExpiry: ptr(uint32(retainedLife))}

func ptr[T any](v T) *T { return &v }

var clients atomic.Int64

// processName names a client of this process: the PID, then PID-2, PID-3...
// for further clients (tests and measurements run several in one process;
// two clients with one ID would keep pushing each other off the broker).
func processName() string {
	n := clients.Add(1)
	if n == 1 {
		return fmt.Sprint(os.Getpid())
	}
	return fmt.Sprintf("%d-%d", os.Getpid(), n)
}

// Host is this machine's name as a topic level.
func Host() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		h = "unknown"
	}
	return TopicLevel(h)
}
