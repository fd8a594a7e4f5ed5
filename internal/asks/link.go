package asks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
	"time"
)

// Links mints and checks the tokens of notification links: each is bound
// to one agent's one question, expires, and is signed with a key that
// lives only in the watchdog's memory (a restart, which drops every held
// question too, voids them). It is single-use because its question is
// answered once.
type Links struct{ key []byte }

// NewLinks makes a fresh key.
func NewLinks() *Links {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return &Links{key: k}
}

// ErrLink reports a link token that does not verify or has expired.
var ErrLink = errors.New("this link is not valid (wrong, or expired)")

// macLen is the signature's length in the token.
const macLen = 16

// Mint is the token for question id of agent, valid until until.
func (l *Links) Mint(agent, id string, until time.Time) string {
	p := payload(agent, id, until)
	return base64.RawURLEncoding.EncodeToString(append(p, l.mac(p)...))
}

// Verify returns the agent and question a token is for, if it verifies
// and has not expired at now.
func (l *Links) Verify(token string, now time.Time) (agent, id string, err error) {
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(b) < 8+macLen {
		return "", "", ErrLink
	}
	p, sig := b[:len(b)-macLen], b[len(b)-macLen:]
	if !hmac.Equal(sig, l.mac(p)) {
		return "", "", ErrLink
	}
	until := time.Unix(int64(binary.BigEndian.Uint64(p[:8])), 0)
	agent, id, ok := strings.Cut(string(p[8:]), "\x00")
	if !ok || !now.Before(until) {
		return "", "", ErrLink
	}
	return agent, id, nil
}

func payload(agent, id string, until time.Time) []byte {
	p := binary.BigEndian.AppendUint64(nil, uint64(until.Unix()))
	return append(append(append(p, agent...), 0), id...)
}

func (l *Links) mac(p []byte) []byte {
	m := hmac.New(sha256.New, l.key)
	m.Write(p)
	return m.Sum(nil)[:macLen]
}
