package notify

import (
	"fmt"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
)

// ResolveURL returns the secret URL of one alerts.notify entry: read from
// url_file, or url with ${ENV} expanded. key names the entry in errors
// (alerts.notify[0]); no error ever carries the URL itself.
func ResolveURL(key, rawURL, urlFile string) (string, error) {
	if urlFile != "" {
		b, err := os.ReadFile(urlFile)
		if err != nil {
			return "", fmt.Errorf("%s.url_file: %w", key, err)
		}
		u := strings.TrimSpace(string(b))
		if u == "" {
			return "", fmt.Errorf("%s.url_file: %s is empty", key, urlFile)
		}
		return u, nil
	}
	var missing []string
	u := os.Expand(rawURL, func(name string) string {
		v, ok := os.LookupEnv(name)
		if !ok || v == "" {
			missing = append(missing, name)
		}
		return v
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("%s.url: the environment has no %s", key, strings.Join(missing, ", "))
	}
	return u, nil
}

// EnvNames are the environment variables a notify url reads (${NAME} or
// $NAME): secrets the agent's own processes must not inherit.
func EnvNames(rawURL string) []string {
	var names []string
	os.Expand(rawURL, func(name string) string {
		names = append(names, name)
		return ""
	})
	return names
}

// Redact shows a notification URL without anything that may be a secret:
// the scheme and host stay, credentials, path and query become "…".
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return "(a notification URL)"
	}
	s := u.Scheme + "://" + u.Host
	if u.User != nil || u.Path != "" || u.RawQuery != "" || u.Opaque != "" {
		s += "/…"
	}
	return s
}

var urlLike = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"'<>]+`)

// scrubber removes one URL's secrets from text bound for a log or an error:
// any URL in it is redacted, and so is every piece of the secret URL
// (user, password, path segments, query values) that is long enough to be
// worth hiding. Services rebuild URLs in their errors, so matching the
// whole URL alone is not enough.
type scrubber struct{ pieces []string }

func newScrubber(secret string) scrubber {
	var pieces []string
	add := func(s string) {
		if len(s) >= 4 {
			pieces = append(pieces, s, url.PathEscape(s), url.QueryEscape(s))
		}
	}
	if u, err := url.Parse(secret); err == nil {
		if u.User != nil {
			add(u.User.Username())
			p, _ := u.User.Password()
			add(p)
		}
		for _, seg := range strings.Split(u.Path, "/") {
			add(seg)
		}
		for _, vs := range u.Query() {
			for _, v := range vs {
				add(v)
			}
		}
	}
	// Longest first, so a piece inside another does not leave a tail.
	sort.Slice(pieces, func(i, j int) bool { return len(pieces[i]) > len(pieces[j]) })
	return scrubber{pieces: pieces}
}

func (s scrubber) scrub(text string) string {
	text = urlLike.ReplaceAllStringFunc(text, Redact)
	for _, p := range s.pieces {
		text = strings.ReplaceAll(text, p, "…")
	}
	return text
}
