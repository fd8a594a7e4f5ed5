package aiheart

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/state"
)

// TestStateFileIsDocumented: every field of stats/watchdog_state.json (and
// so of `watchdog status --json`'s state), at every depth, is named in
// docs/state-file.md, so scripts can rely on what they read.
func TestStateFileIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("docs/state-file.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, path string) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || ty == reflect.TypeOf(time.Time{}) || seen[ty] {
			return
		}
		seen[ty] = true
		for i := range ty.NumField() {
			f := ty.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				t.Errorf("%s.%s has no json name", path, f.Name)
				continue
			}
			if !strings.Contains(string(doc), "`"+name+"`") {
				t.Errorf("docs/state-file.md does not name `%s` (%s.%s)", name, path, f.Name)
			}
			walk(f.Type, path+"."+name)
		}
	}
	walk(reflect.TypeOf(state.State{}), "state")
}
