package tools

import (
	"os"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
)

func TestCheckThemeStatus(t *testing.T) {
	e := newEnv(t)
	top := `"theme_start_id":"20250101000000","theme_directory_part":"research"`
	e.write("artifacts/theme_histories/20250101000000_start_research.md", "# Theme start: Deep research\n", e.now())
	e.write(testThemeHist+"/20250101010000.md", "## Activity type\nthinking\n", e.now())
	e.write(testThemeHist+"/20250101020000_01.md", "## Activity type\ncreation\n", e.now())
	e.write(testThemeHist+"/.20250101030000.md123456789012", "temp", e.now())
	sub := "artifacts/20250101000000_research/subthemes/20250101100000_tides"
	if err := os.MkdirAll(e.ws.Path(sub+"/histories"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write(sub+"/histories/20250101110000.md", "x", e.now())
	e.write("artifacts/theme_histories/20250101100000_start_tides.md", "# テーマ開始: 潮の満ち引き\n", e.now())
	// Another theme with the same part ended: not this one's end.
	e.write("artifacts/theme_histories/20250101120000_end_tides.md", "# Theme end\n- theme_start_id: 20240101000000\n", e.now())
	before := e.snapshot()

	res, err := call(e.tl, e.tl.CheckThemeStatus, args(t, `{`+top+`}`))
	if err != nil {
		t.Fatal(err)
	}
	e.sameSnapshot(before)
	if res.ThemeName != "Deep research" || res.Ended || res.LogCount != 2 || res.LatestLog != testThemeHist+"/20250101020000_01.md" {
		t.Fatalf("theme = %+v", res.ThemeInfo)
	}
	if len(res.Subthemes) != 1 || res.Subthemes[0].ThemeName != "潮の満ち引き" || res.Subthemes[0].LogCount != 1 || res.Subthemes[0].Ended {
		t.Fatalf("subthemes = %+v", res.Subthemes)
	}
	if !strings.Contains(res.Text(lang.English), "sub-theme "+sub) {
		t.Fatalf("text lacks the sub-theme: %s", res.Text(lang.English))
	}

	e.write("artifacts/theme_histories/20250102000000_end_research.md", "# Theme end\n- theme_start_id: 20250101000000\n", e.now())
	res, _ = call(e.tl, e.tl.CheckThemeStatus, args(t, `{`+top+`,"include_subthemes":false}`))
	if !res.Ended || res.EndRecord != "artifacts/theme_histories/20250102000000_end_research.md" || len(res.Subthemes) != 0 {
		t.Fatalf("ended theme without subthemes = %+v", res)
	}

	_, err = call(e.tl, e.tl.CheckThemeStatus, args(t, `{"theme_start_id":"20250101000000","theme_directory_part":"nothing"}`))
	wantInputError(t, err, "theme_start_id", "does not exist")
	_, err = call(e.tl, e.tl.CheckThemeStatus, args(t, `{`+top+`,"include_subthemes":"yes"}`))
	wantInputError(t, err, "include_subthemes", "true or false")
}
