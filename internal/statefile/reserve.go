package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/safeopen"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// A kept file (the daily cap, the cost ledger, the live run's record) has a
// reserve beside it, NAME.reserve: blocks taken while the disk has room,
// overwritten in place when the file cannot be replaced. A full disk
// refuses the atomic write's new temp file, not an overwrite of blocks a
// file already holds; so what is counted while the disk is full outlives a
// kill -9 that leaves no later write to catch up. A reserve is read only
// while it is newer than its file; the next successful write marks it
// stale.

// ReserveSuffix names a kept file's reserve.
const ReserveSuffix = ".reserve"

const (
	reserveMin = 8 << 10
	headerMax  = 96
	magic      = "ai-heart reserve 1"
)

// What a reserve holds.
const (
	kindStale   = "stale"   // nothing: the file is current
	kindValue   = "value"   // the file's newest content
	kindRemoved = "removed" // the file was removed after its last write
)

// reserves is what this process knows of each reserve: its size, and
// whether it may hold something newer than its file.
var reserves = struct {
	sync.Mutex
	m map[string]*reserveInfo
}{m: map[string]*reserveInfo{}}

type reserveInfo struct {
	size int64
	live bool
}

// WriteKept is Write for a kept file: when the file cannot be written, v
// goes into its reserve, and the error (still returned: the disk is full)
// says so.
func WriteKept(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	b = append(b, '\n')
	werr := WriteEncoded(path, b)
	reserves.Lock()
	defer reserves.Unlock()
	if werr == nil {
		settle(path, len(b))
		return nil
	}
	if rerr := writeReserve(path, kindValue, b); rerr != nil {
		return werr
	}
	return fmt.Errorf("%w (kept in %s until the file can be written)", werr, filepath.Base(path)+ReserveSuffix)
}

// RemoveKept removes a kept file, and says so in its reserve.
func RemoveKept(path string) error {
	err := os.Remove(path)
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	reserves.Lock()
	defer reserves.Unlock()
	if _, serr := os.Lstat(path + ReserveSuffix); serr == nil {
		_ = writeReserve(path, kindRemoved, nil)
	}
	return err
}

// ReadKept is Read for a kept file: its reserve, when that is newer.
func ReadKept(path string, v any) (found bool, err error) {
	kind, at, body, ok := readReserve(path)
	if ok && kind != kindStale {
		fi, serr := os.Lstat(path)
		if serr != nil || at.After(fi.ModTime()) {
			if kind == kindRemoved {
				return false, nil
			}
			if err := json.Unmarshal(body, v); err != nil {
				return true, fmt.Errorf("read %s: %w: %v", path+ReserveSuffix, ErrCorrupt, err)
			}
			return true, nil
		}
	}
	return Read(path, v)
}

// settle follows a successful write of n bytes: the reserve is made stale,
// and made (or grown) to hold twice the file. Best effort: a disk too full
// for it leaves the reserve as it was. Called with reserves held.
func settle(path string, n int) {
	info := reserves.m[path]
	if info == nil {
		info = &reserveInfo{live: true} // what an earlier process left is not known
		if fi, err := os.Lstat(path + ReserveSuffix); err == nil && fi.Mode().IsRegular() {
			info.size = fi.Size()
		}
		reserves.m[path] = info
	}
	need := int64(max(reserveMin, 2*(n+headerMax)))
	need = (need + 4095) &^ 4095
	if info.size < need {
		b := make([]byte, need)
		copy(b, header(kindStale, nil))
		if err := workspace.AtomicWriteFile(path+ReserveSuffix, b, FileMode); err == nil {
			info.size, info.live = need, false
		}
		return
	}
	if info.live && writeReserve(path, kindStale, nil) == nil {
		info.live = false
	}
}

// writeReserve overwrites the reserve's first bytes in place. Called with
// reserves held.
func writeReserve(path, kind string, body []byte) error {
	f, err := safeopen.Open(path+ReserveSuffix, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	b := append(header(kind, body), body...)
	if fi, err := f.Stat(); err != nil || fi.Size() < int64(len(b)) {
		return fmt.Errorf("reserve %s: too small", path+ReserveSuffix)
	}
	if _, err := f.WriteAt(b, 0); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	info := reserves.m[path]
	if info == nil {
		info = &reserveInfo{}
		reserves.m[path] = info
	}
	info.live = kind != kindStale
	return nil
}

// header is the reserve's first line: what it holds, when it was written,
// and the length and checksum of what follows.
func header(kind string, body []byte) []byte {
	return fmt.Appendf(nil, "%s %s %d %d %08x\n", magic, kind, time.Now().UnixNano(), len(body), crc32.ChecksumIEEE(body))
}

// readReserve reads and checks a reserve; anything but a whole one is
// none (ok false).
func readReserve(path string) (kind string, at time.Time, body []byte, ok bool) {
	b, err := safeopen.ReadHead(path+ReserveSuffix, headerMax+MaxFile)
	if err != nil {
		return "", time.Time{}, nil, false
	}
	line, rest, found := bytes.Cut(b, []byte{'\n'})
	if !found || len(line) > headerMax || !bytes.HasPrefix(line, []byte(magic+" ")) {
		return "", time.Time{}, nil, false
	}
	f := bytes.Fields(line[len(magic):])
	if len(f) != 4 {
		return "", time.Time{}, nil, false
	}
	kind = string(f[0])
	ns, err1 := strconv.ParseInt(string(f[1]), 10, 64)
	n, err2 := strconv.Atoi(string(f[2]))
	sum, err3 := strconv.ParseUint(string(f[3]), 16, 32)
	switch {
	case err1 != nil || err2 != nil || err3 != nil || ns <= 0 || n < 0 || n > len(rest):
		return "", time.Time{}, nil, false
	case kind != kindStale && kind != kindValue && kind != kindRemoved:
		return "", time.Time{}, nil, false
	}
	body = rest[:n]
	if crc32.ChecksumIEEE(body) != uint32(sum) {
		return "", time.Time{}, nil, false
	}
	return kind, time.Unix(0, ns), body, true
}
