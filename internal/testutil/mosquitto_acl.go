package testutil

import (
	"os"
	"path/filepath"
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
