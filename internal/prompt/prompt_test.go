package prompt

import (
	"reflect"
	"testing"
)

func TestBuildParse(t *testing.T) {
	tests := []struct {
		name  string
		id    string
		paras []string
		want  string
	}{
		{"bare", "20261122100000", nil, "Heartbeat: 20261122100000"},
		{"notices", "20261122100000", []string{"a\nb", "", "c"}, "Heartbeat: 20261122100000\n\na\nb\n\nc"},
		{"duplicates once", "20261122100000", []string{"x", " x ", "y"}, "Heartbeat: 20261122100000\n\nx\n\ny"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Build(tc.id, tc.paras...)
			if got != tc.want {
				t.Fatalf("Build(%q, %q) = %q, want %q", tc.id, tc.paras, got, tc.want)
			}
			id, paras, ok := Parse(got)
			if !ok || id != tc.id {
				t.Fatalf("Parse(%q) = %q, %v", got, id, ok)
			}
			if len(paras) > 0 && tc.name == "notices" && !reflect.DeepEqual(paras, []string{"a\nb", "c"}) {
				t.Fatalf("Parse paragraphs = %q", paras)
			}
		})
	}
	if _, _, ok := Parse("hello"); ok {
		t.Fatal("Parse accepted a prompt without the heartbeat line")
	}
}

// A feedback file's name with an escape sequence, a raw C1 byte and a bidi
// override reaches the prompt escaped: the inbox file carries no control
// character (tmux stripped them; the file and exec did not).
func TestBuildEscapesControls(t *testing.T) {
	got := Build("20261125120000", "Feedback from the user is waiting: feedbackbox/a\x1b[2J\x9b31m\u202etxt.md.\r\nTake it.\tNow.")
	want := "Heartbeat: 20261125120000\n\nFeedback from the user is waiting: feedbackbox/a\\x1b[2J\\x9b31m\\u202etxt.md.\\x0d\nTake it.\tNow."
	if got != want {
		t.Errorf("Build =\n%q\nwant\n%q", got, want)
	}
	for _, r := range got {
		if r != '\n' && r != '\t' && (r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == 0x202e) {
			t.Errorf("the prompt carries %U", r)
		}
	}
}
