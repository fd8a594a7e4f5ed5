package setup

import "testing"

// TestObjectRoundTrip: a settings file read and written back keeps its key
// order, its numbers as written and its characters unescaped, so a merge
// changes only what it adds.
func TestObjectRoundTrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"z": 1, "a": {"y": 1.50, "b": [], "c": {}}, "m": null}`,
			"{\n  \"z\": 1,\n  \"a\": {\n    \"y\": 1.50,\n    \"b\": [],\n    \"c\": {}\n  },\n  \"m\": null\n}\n"},
		{`{"cmd": "a && b > c <d>", "u": "\u00e9\u2028"}`,
			"{\n  \"cmd\": \"a && b > c <d>\",\n  \"u\": \"é\\u2028\"\n}\n"},
		{`{"k": 1, "k": 2}`, "{\n  \"k\": 2\n}\n"},
		{"  \n", "{}\n"},
		{`{"list": [1, "two", true, [false]]}`, "{\n  \"list\": [\n    1,\n    \"two\",\n    true,\n    [\n      false\n    ]\n  ]\n}\n"},
	}
	for _, tt := range tests {
		o, err := parseObject([]byte(tt.in))
		if err != nil {
			t.Fatalf("parseObject(%s) = %v", tt.in, err)
		}
		if got := string(marshalIndent(o)); got != tt.want {
			t.Errorf("round trip of %s =\n%s\nwant\n%s", tt.in, got, tt.want)
		}
	}
	for _, bad := range []string{`{`, `[]`, `"s"`, `{} {}`, `{"a": 1,}`, `{"a": NaN}`} {
		if _, err := parseObject([]byte(bad)); err == nil {
			t.Errorf("parseObject(%s) = nil error, want one", bad)
		}
	}
}
