// Package mosquitto holds the broker config and ACL shipped for a fleet
// (docs/fleet.md); internal/fleet's TestACLKeepsPeersOffOtherAgents runs
// the real Mosquitto on them. This test keeps the docs equal to them.
package mosquitto

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/fleet"
)

// settings are a shipped file's lines without comments and blank lines.
func settings(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestDocsShowShippedFiles: the two blocks of docs/fleet.md's broker
// section are the shipped config and ACL, comments left out.
func TestDocsShowShippedFiles(t *testing.T) {
	b, err := os.ReadFile("../../docs/fleet.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "## The broker")
	end := strings.Index(doc, "## Each watchdog")
	if start < 0 || end < start {
		t.Fatal("docs/fleet.md has no broker section before Each watchdog")
	}
	blocks := regexp.MustCompile("(?s)```\n(.*?)\n```").FindAllStringSubmatch(doc[start:end], -1)
	if len(blocks) != 2 {
		t.Fatalf("the broker section has %d blocks, want the config and the ACL", len(blocks))
	}
	for i, name := range []string{"mosquitto.conf", "heart.acl"} {
		if got, want := strings.TrimSpace(blocks[i][1]), settings(t, name); got != want {
			t.Errorf("docs/fleet.md shows %s as\n%s\nwant\n%s", name, got, want)
		}
	}
	// The broker drops what the view would refuse: a payload over MaxPayload.
	if want := "message_size_limit " + strconv.Itoa(fleet.MaxPayload); !strings.Contains(settings(t, "mosquitto.conf"), want) {
		t.Errorf("mosquitto.conf has no %q, the view's limit", want)
	}
}
