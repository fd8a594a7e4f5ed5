package lang

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Lang
		ok   bool
	}{{"", English, true}, {"en", English, true}, {"ja", Japanese, true}, {"jp", "", false}, {"EN", "", false}}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("Parse(%q) = %q, %v, want %q (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestCatalogue(t *testing.T) {
	c := Catalogue{"%d files": "%d個のファイル"}
	tests := []struct {
		l          Lang
		s, want, f string
	}{
		{English, "%d files", "%d files", "3 files"},
		{Japanese, "%d files", "%d個のファイル", "3個のファイル"},
		{Japanese, "not in it", "not in it", "not in it"},
		{"", "%d files", "%d files", "3 files"},
	}
	for _, tt := range tests {
		if got := c.T(tt.l, tt.s); got != tt.want {
			t.Errorf("T(%q, %q) = %q, want %q", tt.l, tt.s, got, tt.want)
		}
		if tt.s == "%d files" {
			if got := c.F(tt.l, tt.s, 3); got != tt.f {
				t.Errorf("F(%q, %q, 3) = %q, want %q", tt.l, tt.s, got, tt.f)
			}
		}
	}
}
