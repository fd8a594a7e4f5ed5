package testutil

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// MosquittoACL starts a broker like Mosquitto with users (not empty) and
// the given acl_file text: what each user may read and write.
func MosquittoACL(t testing.TB, users map[string]string, acl string) *Broker {
	t.Helper()
	b := Mosquitto(t, users)
	b.Stop()
	aclFile := filepath.Join(b.dir, "acl")
	if err := os.WriteFile(aclFile, []byte(acl), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(b.conf, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString("acl_file " + aclFile + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	b.start()
	return b
}

// The names an operator's broker config uses that MosquittoConfig points at
// the test's own: the loopback listener's port and the two files.
const (
	ShippedListener     = "listener 1883 127.0.0.1"
	ShippedPasswordFile = "/etc/mosquitto/heart.passwd"
	ShippedACLFile      = "/etc/mosquitto/heart.acl"
)

// MosquittoConfig starts a broker on an operator's config and ACL as
// shipped: conf is used as written but for its listener's port and the
// paths of the password file (users, hashed) and of the ACL file (acl, as
// written). The test's lines come after it: logging to stderr, no
// persistence and, as root, no drop to the mosquitto user, who cannot read
// the test's folder.
func MosquittoConfig(t testing.TB, conf, acl string, users map[string]string) *Broker {
	t.Helper()
	b := Mosquitto(t, users)
	b.Stop()
	for _, s := range []string{ShippedListener, ShippedPasswordFile, ShippedACLFile} {
		if !strings.Contains(conf, s) {
			t.Fatalf("the broker config has no %q to point at the test's", s)
		}
	}
	_, port, _ := net.SplitHostPort(b.Addr)
	aclFile := filepath.Join(b.dir, "acl")
	if err := os.WriteFile(aclFile, []byte(acl), 0o600); err != nil {
		t.Fatal(err)
	}
	conf = strings.NewReplacer(
		ShippedListener, "listener "+port+" 127.0.0.1",
		ShippedPasswordFile, filepath.Join(b.dir, "passwd"),
		ShippedACLFile, aclFile,
	).Replace(conf)
	conf += "\n# the test's\npersistence false\nlog_dest stderr\nlog_type error\nlog_type warning\n"
	if os.Geteuid() == 0 {
		conf += "user root\n"
	}
	if err := os.WriteFile(b.conf, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	b.start()
	return b
}
