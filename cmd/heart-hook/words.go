package main

import (
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// What heart-hook adds to a refusal the agent reads, in the workspace's
// language (workspace.LanguageFile, as mcp-heart speaks it). The gate's
// own reason is the watchdog's, already in that language.
const (
	sayRunsOther  = "The server registered as mcp-heart in %s is not mcp-heart (%s): while the budget is spent, its tools are refused like any other."
	sayNamedLike  = "%s registers the server %s, whose tools bear the names of mcp-heart's: while the budget is spent, tools so named are refused like any other."
	sayNoEntry    = "None of %s registers mcp-heart: while the budget is spent, a tool named like one of mcp-heart's is refused like any other."
	sayUnreadable = "%s cannot be read (%s): while the budget is spent, a tool named like one of mcp-heart's is refused like any other."
	sayGateKind   = "%s is a %s, not a file: remove it. Until it is gone, the budget gate refuses every tool call but mcp-heart's (the watchdog writes that file itself)."
	sayGateError  = "%s cannot be read (%s): remove it. Until it is gone, the budget gate refuses every tool call but mcp-heart's (the watchdog writes that file itself)."
)

var ja = lang.Catalogue{
	sayRunsOther:  "%s に mcp-heart として登録されたサーバーは mcp-heart ではありません（%s）。予算を使い切っている間は、そのツールもほかのツールと同じく拒否されます。",
	sayNamedLike:  "%s に登録されたサーバー %s のツールは、mcp-heart のツールと同じ名前になります。予算を使い切っている間は、その名前のツールもほかのツールと同じく拒否されます。",
	sayNoEntry:    "%s のどれにも mcp-heart が登録されていません。予算を使い切っている間は、mcp-heart のツールと同じ名前のツールもほかのツールと同じく拒否されます。",
	sayUnreadable: "%s を読めません（%s）。予算を使い切っている間は、mcp-heart のツールと同じ名前のツールもほかのツールと同じく拒否されます。",
	sayGateKind:   "%s は%sで、ファイルではありません。削除してください。削除するまで、予算ゲートは mcp-heart 以外のツールの呼び出しをすべて拒否します（このファイルは watchdog が書きます）。",
	sayGateError:  "%s を読めません（%s）。削除してください。削除するまで、予算ゲートは mcp-heart 以外のツールの呼び出しをすべて拒否します（このファイルは watchdog が書きます）。",
	"folder":      "フォルダ",
	"socket":      "ソケット",
	"device":      "デバイス",
}

// tell is n in the agent's language l.
func (n *notHeart) tell(l lang.Lang) string {
	switch n.why {
	case runsOther:
		return ja.F(l, sayRunsOther, n.file, n.found)
	case namedLike:
		return ja.F(l, sayNamedLike, n.file, n.found)
	case noEntry:
		return ja.F(l, sayNoEntry, n.file)
	}
	return ja.F(l, sayUnreadable, n.file, n.found)
}

// tellGate is a gate that cannot be read, in the agent's language l.
func tellGate(e *hook.GateError, l lang.Lang) string {
	if e.Kind != "" {
		return ja.F(l, sayGateKind, hook.GateFile, ja.T(l, e.Kind))
	}
	return ja.F(l, sayGateError, hook.GateFile, e.Err.Error())
}

// language is the workspace's language, English when none is recorded.
func language(ws string) lang.Lang {
	if l := workspace.RecordedLanguage(ws); l != "" {
		return l
	}
	return lang.English
}
