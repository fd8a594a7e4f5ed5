package web

import (
	"crypto/subtle"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
)

// Who may read and change what: a loopback window answers only to names of
// this machine, changes need the bearer token, and reads need it when the
// window is off loopback.

// loopbackName reports whether a Host header names this machine: a
// loopback address, localhost, or a name under .localhost (RFC 6761; browsers
// resolve those to loopback themselves, so no DNS answer can rebind them).
func loopbackName(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	return Loopback(host) || strings.HasSuffix(host, ".localhost")
}

// read guards a read: it needs the token only when ReadAuth is set.
func (s *Server) read(h http.Handler) http.Handler {
	if !s.opts.ReadAuth {
		return h
	}
	return s.write(h)
}

// write guards a change: it always needs the token; with no token set,
// changes are refused.
func (s *Server) write(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.opts.Token == "" {
			writeJSON(w, http.StatusForbidden, map[string]any{"error": "no http.token_file is configured, so nothing can be changed over HTTP"})
			return
		}
		got, ok := bearer(r.Header.Get("Authorization"))
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="watchdog"`)
			writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "missing or wrong bearer token"})
			return
		}
		h.ServeHTTP(w, r)
	})
}

// bearer takes the token from an Authorization header. The scheme is
// case-insensitive (RFC 7235, section 2.1): "bearer x" is "Bearer x".
func bearer(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimLeft(tok, " ")
	return tok, tok != ""
}

// CheckListen refuses a listen address that is not loopback unless a token
// guards it, and reports whether reads need the token.
func CheckListen(listen, token string) (readAuth bool, err error) {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false, fmt.Errorf("http.listen %q: %w", listen, err)
	}
	if Loopback(host) {
		return false, nil
	}
	if token == "" {
		return true, fmt.Errorf("http.listen %q is not loopback: set http.token_file so the page and API need a token", listen)
	}
	return true, nil
}

// Loopback reports whether host names only this machine.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ReadToken reads a token file: its first line, trimmed. An empty path
// means no token. A file other users may read or write is refused, not
// warned about (a warning scrolls by while any local user pauses agents):
// as ssh refuses such a key, the start fails until it is chmod o-rwx.
func ReadToken(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("http.token_file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("http.token_file: %w", err)
	}
	if m := fi.Mode().Perm(); m&0o007 != 0 {
		return "", fmt.Errorf("http.token_file %s is mode %04o: other users could read or replace the token; chmod o-rwx it", path, m)
	}
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return "", fmt.Errorf("http.token_file: %w", err)
	}
	tok, _, _ := strings.Cut(string(b), "\n")
	tok = strings.TrimSpace(tok)
	if tok == "" {
		return "", fmt.Errorf("http.token_file %s is empty", path)
	}
	return tok, nil
}
