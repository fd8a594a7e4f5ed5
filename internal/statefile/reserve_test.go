package statefile

import (
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A kept file written, removed and written again reads as the file; its
// reserve, once made, says nothing while the file is current.
func TestKeptFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.json")
	if err := WriteKept(path, counter{Used: 3}); err != nil {
		t.Fatal(err)
	}
	var v counter
	if found, err := ReadKept(path, &v); !found || err != nil || v.Used != 3 {
		t.Fatalf("ReadKept = %v, %v, %+v", found, err, v)
	}
	if fi, err := os.Stat(path + ReserveSuffix); err != nil || fi.Size() < reserveMin {
		t.Fatalf("no reserve of at least %d bytes: %v %v", reserveMin, fi, err)
	}
	if err := RemoveKept(path); err != nil {
		t.Fatal(err)
	}
	if found, err := ReadKept(path, &v); found || err != nil {
		t.Fatalf("after RemoveKept: found %v, %v", found, err)
	}
	time.Sleep(20 * time.Millisecond) // past the file system's coarse clock
	if err := WriteKept(path, counter{Used: 5}); err != nil {
		t.Fatal(err)
	}
	if found, err := ReadKept(path, &v); !found || err != nil || v.Used != 5 {
		t.Fatalf("written again: %v, %v, %+v", found, err, v)
	}
}

// What stands in the reserve's place is never trusted beyond its checks: a
// forged or torn one, a FIFO, a link, a huge length are none (the file is
// read), and none of them blocks.
func TestHostileReserveIsIgnored(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other")
	body := []byte(`{"used": 99}`)
	line := func(kind string, ns int64, n int, sum uint32) string {
		return fmt.Sprintf("%s %s %d %d %08x\n", magic, kind, ns, n, sum)
	}
	future := time.Now().Add(time.Hour).UnixNano()
	good := crc32.ChecksumIEEE(body)
	for name, plant := range map[string]func(string) error{
		"bad checksum": func(p string) error {
			return os.WriteFile(p, []byte(line(kindValue, future, len(body), good+1)+string(body)), 0o600)
		},
		"torn": func(p string) error {
			return os.WriteFile(p, []byte(line(kindValue, future, len(body), good)+string(body[:4])), 0o600)
		},
		"huge length": func(p string) error {
			return os.WriteFile(p, []byte(line(kindValue, future, 1<<40, good)+string(body)), 0o600)
		},
		"negative": func(p string) error {
			return os.WriteFile(p, []byte(line(kindValue, -future, -1, good)+string(body)), 0o600)
		},
		"unknown kind": func(p string) error {
			return os.WriteFile(p, []byte(line("grant", future, len(body), good)+string(body)), 0o600)
		},
		"fifo": func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"link": func(p string) error {
			if err := os.WriteFile(other, []byte(line(kindValue, future, len(body), good)+string(body)), 0o600); err != nil {
				return err
			}
			return os.Symlink(other, p)
		},
	} {
		path := filepath.Join(dir, name+".json")
		if err := Write(path, counter{Used: 1}); err != nil {
			t.Fatal(err)
		}
		if err := plant(path + ReserveSuffix); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		var v counter
		var found bool
		var err error
		go func() { found, err = ReadKept(path, &v); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: ReadKept blocked", name)
		}
		if !found || err != nil || v.Used != 1 {
			t.Errorf("%s: ReadKept = %v, %v, %+v; want the file's 1", name, found, err, v)
		}
	}
}

// A whole reserve dated in the future (a clock set back, or forged) holds
// only until the next successful write makes it stale.
func TestFutureReserveEndsAtTheNextWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cap.json")
	body := []byte(`{"used": 99}`)
	future := time.Now().Add(time.Hour).UnixNano()
	planted := fmt.Sprintf("%s %s %d %d %08x\n%s", magic, kindValue, future, len(body), crc32.ChecksumIEEE(body), body)
	if err := os.WriteFile(path+ReserveSuffix, append([]byte(planted), make([]byte, reserveMin)...), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteKept(path, counter{Used: 2}); err != nil {
		t.Fatal(err)
	}
	var v counter
	if _, err := ReadKept(path, &v); err != nil || v.Used != 2 {
		t.Fatalf("after a write: %+v, %v; want 2", v, err)
	}
}
