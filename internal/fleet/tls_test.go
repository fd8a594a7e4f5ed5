package fleet

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// The three other schemes against a real Mosquitto: TLS checked against
// the configured CA, websockets, and websockets over TLS. A state
// published on each reaches a view on the same listener.
func TestTLSAndWebSockets(t *testing.T) {
	b := testutil.MosquittoTLS(t)
	for _, url := range []string{b.SSLURL, b.WSURL, b.WSSURL} {
		scheme := strings.SplitN(url, ":", 2)[0]
		t.Run(scheme, func(t *testing.T) {
			m := mqttConfig(url)
			m.TLS.CAFile = b.CAFile
			v, _ := view(t, m)
			p := publisher(t, m)
			waitFor(t, "a connection", 10*time.Second, p.Connected)
			// One agent per scheme: the broker retains the others' states.
			p.State(testState("agent-"+scheme, 1))
			waitFor(t, "the state at the view", 10*time.Second, func() bool {
				m, ok := v.Member("agent-" + scheme)
				return ok && m.Online
			})
		})
	}
}

// A broker whose certificate the configured CA did not sign is refused,
// with an error that says so, and nothing is published.
func TestTLSRefusesAnUnknownCertificate(t *testing.T) {
	b := testutil.MosquittoTLS(t)
	other := testutil.MosquittoTLS(t) // another CA
	m := mqttConfig(b.SSLURL)
	m.TLS.CAFile = other.CAFile
	p, err := NewPublisher(context.Background(), m, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitFor(t, "a refusal", 10*time.Second, func() bool { return p.LastError() != "" })
	if e := p.LastError(); !strings.Contains(e, "certificate") || p.Connected() {
		t.Fatalf("LastError = %q, connected %v; want a certificate error", e, p.Connected())
	}
	m.TLS.CAFile = filepath.Join(t.TempDir(), "missing.pem")
	if _, err := NewPublisher(context.Background(), m, zerolog.Nop()); err == nil || !strings.Contains(err.Error(), "mqtt.tls.ca_file") {
		t.Fatalf("missing CA file: %v", err)
	}
}
