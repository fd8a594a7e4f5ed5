package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestTranscriptErrorsReadWell: every error the Japanese transcript pins,
// as the binary rendered it, says its problem and then one instruction: no
// sentence with two colons, and a 直し方 that ends in 「ください。」.
func TestTranscriptErrorsReadWell(t *testing.T) {
	b, err := os.ReadFile("testdata/transcript_ja.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	for _, ex := range parseTxtar(b) {
		_, reply, ok := strings.Cut(ex.data, "\n< ")
		if !ok {
			continue
		}
		var r struct {
			Result struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
		}
		// The transcript normalises numbers to <n>: only errors, which
		// carry none, need decoding.
		if !strings.Contains(reply, `"isError": true`) {
			continue
		}
		if err := json.Unmarshal([]byte(reply), &r); err != nil {
			t.Fatalf("%s: %v", ex.name, err)
		}
		if !r.Result.IsError {
			continue
		}
		for _, c := range r.Result.Content {
			n++
			for _, p := range testutil.ErrorFlaws(c.Text) {
				t.Errorf("%s: %s\n%s", ex.name, p, c.Text)
			}
		}
	}
	if n < 15 {
		t.Fatalf("only %d errors in the transcript", n)
	}
}
