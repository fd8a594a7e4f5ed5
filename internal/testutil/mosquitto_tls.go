package testutil

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TLSBroker is a Mosquitto with encrypted and websocket listeners, its
// certificate signed by a CA made for the test.
type TLSBroker struct {
	*Broker
	SSLURL, WSURL, WSSURL string
	CAFile                string // the CA that signed the broker's certificate
}

// MosquittoTLS starts a broker listening with TLS (ssl://), websockets
// (ws://) and websockets over TLS (wss://) on loopback, anonymous, or skips
// when mosquitto is absent.
func MosquittoTLS(t testing.TB) *TLSBroker {
	t.Helper()
	b := Mosquitto(t, nil) // a plain broker first: the binary, the dir, the cleanup
	b.Stop()
	ca, cert, key := writeTestPKI(t, b.dir)
	port := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		_, p, _ := net.SplitHostPort(ln.Addr().String())
		return p
	}
	ssl, ws, wss := port(), port(), port()
	tlsFiles := []string{"cafile " + ca, "certfile " + cert, "keyfile " + key}
	conf := []string{"per_listener_settings false", "allow_anonymous true", "persistence false", "log_dest stderr", "log_type error"}
	if os.Geteuid() == 0 {
		conf = append(conf, "user root")
	}
	conf = append(conf, "listener "+ssl+" 127.0.0.1")
	conf = append(conf, tlsFiles...)
	conf = append(conf, "listener "+ws+" 127.0.0.1", "protocol websockets")
	conf = append(conf, "listener "+wss+" 127.0.0.1", "protocol websockets")
	conf = append(conf, tlsFiles...)
	if err := os.WriteFile(b.conf, []byte(strings.Join(conf, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	b.Addr = "127.0.0.1:" + ssl
	b.URL = "ssl://" + b.Addr
	b.start()
	return &TLSBroker{Broker: b, SSLURL: b.URL, WSURL: "ws://127.0.0.1:" + ws, WSSURL: "wss://127.0.0.1:" + wss, CAFile: ca}
}

// writeTestPKI writes a CA and a server certificate for 127.0.0.1 into dir.
func writeTestPKI(t testing.TB, dir string) (ca, cert, key string) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ai-heart test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	srvKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	srvTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, caCert, &srvKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(srvKey)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	return write("ca.pem", "CERTIFICATE", caDER), write("server.pem", "CERTIFICATE", srvDER), write("server-key.pem", "EC PRIVATE KEY", keyDER)
}
