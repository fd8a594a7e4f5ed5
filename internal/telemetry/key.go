package telemetry

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// KeyFile is an agent's telemetry key, in its folder under state_dir: its
// clients send it in the path they export to (/otlp/<agent>/<key>/v1/…),
// and the window refuses every post without it, loopback included. Gemini
// CLI's settings take no headers, so the path carries it for every client.
const KeyFile = "telemetry.key"

// keyLen is the key's length in hex digits (128 bits).
const keyLen = 32

// LoadKey reads the key at path; with create, a missing one is made first
// (folder 0700, file 0600, never over one that exists).
func LoadKey(path string, create bool) (string, error) {
	b, err := safeopen.ReadHead(path, 256)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return "", fmt.Errorf("telemetry key: %w", err)
		}
		k, ferr := makeKey(path)
		if ferr == nil {
			return k, nil
		}
		if !errors.Is(ferr, fs.ErrExist) {
			return "", fmt.Errorf("telemetry key: %w", ferr)
		}
		b, err = safeopen.ReadHead(path, 256) // made meanwhile by another start
	}
	if err != nil {
		return "", fmt.Errorf("telemetry key: %w", err)
	}
	k := strings.TrimSpace(string(b))
	if len(k) != keyLen || strings.Trim(k, "0123456789abcdef") != "" {
		return "", fmt.Errorf("telemetry key %s: not a key the watchdog made (%d characters); remove it and start the watchdog again", path, len(k))
	}
	return k, nil
}

// SameKey compares a key sent with the agent's in constant time.
func SameKey(sent, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(sent), []byte(want)) == 1
}

// makeKey writes a new key to a file of its own and links it at path, so
// another start never reads the key half written; fs.ErrExist when one is
// there already (never replaced).
func makeKey(path string) (string, error) {
	var raw [keyLen / 2]byte
	rand.Read(raw[:])
	k := hex.EncodeToString(raw[:])
	tmp := path + "." + k[:8] + ".tmp"
	f, err := safeopen.Open(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	_, err = f.WriteString(k + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Link(tmp, path) // fails on anything at path, a link too
	}
	return k, err
}
