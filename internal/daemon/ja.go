package daemon

import (
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/lang"
)

// ja is the Japanese of what the daemon tells the agent (the recovery
// notice and the wakeups' own texts), keyed by the English format. Alert
// lines stay English.
var ja = lang.Catalogue{
	`RECOVERY (attempt %d of %d): %s That was the watchdog's limit, not a stall, but nothing has recorded the work since: %s
This is a new run. Do this now:
1. Re-read GEMINI.md and ai-docs/ (healthy activity, deep work, heartbeat notices).
2. Write an activity log with create_activity_log, activity_type "recovery", saying what the ended run had done (its files and checkpoints show it) and what you will do next.
3. If a notice below says an introspection is due, write it too (activity_type introspection).
The tools name every file with the current heartbeat ID themselves: never type, reuse or invent one.`: `回復通知（%d回目／全%d回）：%sこれは watchdog の制限によるもので、行き詰まりではありません。ただ、その後の作業を示す記録がありません。%s。
これは新しい実行です。今、次のことをしてください。
1. GEMINI.md と ai-docs/（健全な活動状態、深い作業、ハートビートの通知）を読み直します。
2. create_activity_log で活動種別「回復」の活動ログを書き、打ち切られた実行が何をしていたか（ファイルとチェックポイントからわかります）、次に何をするかを記録します。
3. 下の通知が内省を求めているなら、活動種別「内省」の活動ログも書きます。
ツールが現在のハートビートIDですべてのファイルに名前を付けます。IDを自分で入力したり、使い回したり、作り出したりしないでください。`,
	`RECOVERY (attempt %d of %d): the watchdog detected a problem: %s
Your client's tools have kept busy, but nothing of your own says what you are doing. At the next step of your work, do this:
1. Call checkpoint with a short note of what you are doing and what is left.
2. Re-read GEMINI.md and ai-docs/ (healthy activity, deep work, heartbeat notices).
3. Write an activity log with create_activity_log, activity_type "recovery", saying what happened and what you will do next; if the work needs a long stretch, declare deep work with start_deep_work.
4. If a notice below says an introspection is due, write it too (activity_type introspection).
The tools name every file with the current heartbeat ID themselves: never type, reuse or invent one.`: `回復通知（%d回目／全%d回）：watchdog が問題を検知しました。%s。
クライアントのツールは動き続けていましたが、何をしているのかを示すあなた自身の記録がありません。作業の次の区切りで、以下のことをしてください。
1. checkpoint を呼び、今していることと残っていることを短く書きます。
2. GEMINI.md と ai-docs/（健全な活動状態、深い作業、ハートビートの通知）を読み直します。
3. create_activity_log で活動種別「回復」の活動ログを書き、何が起きたか、次に何をするかを記録します。長い作業が続くなら、start_deep_work で深い作業を宣言します。
4. 下の通知が内省を求めているなら、活動種別「内省」の活動ログも書きます。
ツールが現在のハートビートIDですべてのファイルに名前を付けます。IDを自分で入力したり、使い回したり、作り出したりしないでください。`,
	`RECOVERY (attempt %d of %d): the watchdog detected a problem: %s
Reset before anything else. Do this now:
1. Stop what you were doing; do not repeat the last action.
2. Re-read GEMINI.md and ai-docs/ (healthy activity, deep work, heartbeat notices).
3. Write an activity log with create_activity_log, activity_type "recovery", saying what happened and what you will do next.
4. If a notice below says an introspection is due, write it too (activity_type introspection).
The tools name every file with the current heartbeat ID themselves: never type, reuse or invent one.`: `回復通知（%d回目／全%d回）：watchdog が問題を検知しました。%s。
何よりも先に立て直してください。今、次のことをしてください。
1. していたことをやめます。直前の操作を繰り返さないでください。
2. GEMINI.md と ai-docs/（健全な活動状態、深い作業、ハートビートの通知）を読み直します。
3. create_activity_log で活動種別「回復」の活動ログを書き、何が起きたか、次に何をするかを記録します。
4. 下の通知が内省を求めているなら、活動種別「内省」の活動ログも書きます。
ツールが現在のハートビートIDですべてのファイルに名前を付けます。IDを自分で入力したり、使い回したり、作り出したりしないでください。`,
	"New while you were idle: %s. Read it and decide what to do (start_theme with themebox_file for a themebox file; check_and_process_item for feedback, then act on it).":                                                  "待機中に届いたもの：%s。読んで、どうするか決めてください（themebox/ のファイルなら、themebox_file にそのファイル名を渡して start_theme を呼んでください。フィードバックなら check_and_process_item で受け取ってから対応してください）。",
	"This run may make at most %d tool calls: the watchdog ends it at call %d, and a run it ends answers nothing; the call that writes your activity log counts too. Close the cycle with an activity log well before that.": "この実行でできるツール呼び出しは%d回までです。%d回目を呼ぶと watchdog が実行を打ち切り、打ち切られた実行は起動への応答になりません。活動ログを書く呼び出しも数に入ります。その前に余裕をもって、活動ログでサイクルを閉じてください。",
	"Your own scheduled wakeup (%s) was due at %s and did not fire: the watchdog wakes you in its place. Do what you had scheduled, then go on as usual.":                                                                    "自分で予約した起動（%s）は %s の予定でしたが、起きませんでした。watchdog が代わりに起こします。予約していたことをしてから、いつもどおり続けてください。",
	"The usage limit reset at %s and your session did not continue by itself: go on with the work you were doing.":                                                                                                           "利用上限は %s にリセットされましたが、セッションは自分で再開しませんでした。していた作業を続けてください。",
	"A notice from the watchdog, received during your turn:":          "ターンの途中に届いた、watchdog からの通知：",
	"From the user, through the watchdog (%s, %s)":                    "ユーザーから、watchdog を通じて（%s、%s）",
	"The user denied this call from afar, through the watchdog (%s).": "ユーザーが watchdog を通じて、離れた場所からこの呼び出しを拒否しました（%s）。",
	"Their words: %s": "ユーザーの言葉：「%s」",
	"Do not repeat the same call: choose another way, or write in your activity log what you need.": "同じ呼び出しを繰り返さず、別の方法を選ぶか、必要なことを活動ログに書いてください。",
	"the page":              "ページから",
	"a notification's link": "通知のリンクから",
	"the command line":      "コマンドラインから",
	"Urgent feedback: %s. Take it now with check_and_process_item (one file per call, with its text; it renames each processed.<name>), act on it before your current work, and record what you did in your activity log.":                                                                                                            "緊急のフィードバック：%s。今すぐ check_and_process_item で受け取り（1回に1ファイル、本文付き。受け取ったファイルは processed.<名前> にリネームされます）、今の作業より先に対応して、したことを活動ログに書いてください。",
	"Recovery tried %d times on %s, then the watchdog stopped waking you at %s; waking came back at %s because %s. Your recovery log, written at %s, answers it: no second one is needed. Act on the notices below, if any, then go on with your next activity.":                                                                      "%[2]sのエラーで回復を%[1]d回試みても立ち直らなかったため、watchdog は%[3]sからあなたを起こすのをやめていました。%[5]sため、%[4]sから再び起こしています。%[6]sに書いた活動種別「回復」の活動ログで応えているので、もう一度書く必要はありません。下の通知があればそれに対応してから、次の活動に進んでください。",
	"Recovery tried %d times on %s, then the watchdog stopped waking you at %s; the operator paused you at %s, which ended that stop, and the pause has ended since, so waking is back. Your recovery log, written at %s, answers it: no second one is needed. Act on the notices below, if any, then go on with your next activity.": "%[2]sのエラーで回復を%[1]d回試みても立ち直らなかったため、watchdog は%[3]sからあなたを起こすのをやめていました。%[4]sにユーザーが watchdog を一時停止したので、その時点から一時停止の扱いに変わりました。その一時停止もすでに終わり、再び起こしています。%[5]sに書いた活動種別「回復」の活動ログで応えているので、もう一度書く必要はありません。下の通知があればそれに対応してから、次の活動に進んでください。",
	"Recovery tried %d times on %s, then the watchdog stopped waking you at %s; the operator paused you at %s, which ended that stop. No wakeup comes until the pause ends. Your recovery log, written at %s, answers it: no second one is needed.":                                                                                   "%[2]sのエラーで回復を%[1]d回試みても立ち直らなかったため、watchdog は%[3]sからあなたを起こすのをやめていました。%[4]sにユーザーが watchdog を一時停止したので、その時点から一時停止の扱いに変わりました。一時停止が終わるまで、起動は来ません。%[5]sに書いた活動種別「回復」の活動ログで応えているので、もう一度書く必要はありません。",
	"Recovery tried %d times on %s, then the watchdog stopped waking you at %s; waking came back at %s because %s. Before anything else, write an activity log with create_activity_log, activity_type \"recovery\": what happened and what you will do next.":                                                                        "%[2]sのエラーで回復を%[1]d回試みても立ち直らなかったため、watchdog は%[3]sからあなたを起こすのをやめていました。%[5]sため、%[4]sから再び起こしています。何よりも先に、create_activity_log で活動種別「回復」の活動ログを書き、何が起きたか、次に何をするかを記録してください。",
	"Recovery tried %d times on %s, then the watchdog stopped waking you at %s; your recovery log (%s) brought the checks back to ok, and waking came back at %s. Act on the notices below, if any, then go on with your next activity.":                                                                                              "%[2]sのエラーで回復を%[1]d回試みても立ち直らなかったため、watchdog は%[3]sからあなたを起こすのをやめていました。あなたの活動種別「回復」の活動ログ（%[4]s）でチェックが正常に戻ったため、%[5]sから再び起こしています。下の通知があればそれに対応してから、次の活動に進んでください。",
	"No theme has been started in this workspace yet, and an activity log needs one. Check themebox/ and feedbackbox/, then start a theme with start_theme (themebox_file for a themebox file, or a theme of your own) and record your first cycle with create_activity_log.":                                                         "このワークスペースではまだテーマが始まっておらず、活動ログにはテーマが必要です。themebox/ と feedbackbox/ を確認してから、start_theme でテーマを始め（themebox/ のファイルなら themebox_file にその名前を渡します。自分で決めたテーマでもかまいません）、最初のサイクルを create_activity_log で記録してください。",
	"The notices below still ask something of you: act on them first, then choose your next activity and close the cycle with an activity log.":                                                                                                                                                                                       "下の通知がまだあなたに対応を求めています。先にそれに対応してから次の活動を選び、活動ログでサイクルを閉じてください。",
	", ": "、",
	"The model's service answered %s at %s, so the watchdog held your wakeups until %s and then tried once more. This was the model's own limit, not one of report_tool_usage's. If work was cut off, pick it up now.": "モデルのサービスが%[2]sに %[1]s を返したため、watchdog は%[3]sまで起動を止め、その後にもう一度だけ試しました。これはモデル自身の制限で、report_tool_usage の制限ではありません。作業が途中で切れていたら、今から続けてください。",
	"the checks went back to ok":  "チェックが正常に戻った",
	"the operator resumed you":    "ユーザーが再開した",
	gateReason:                    "今日の予算を使い切りました。活動ログを書いて、このターンを終えてください（mcp-heart のツールは使えます。ほかのツールの呼び出しは現地時間の深夜0時まで拒否されます）。",
	"the set waiting time passed": "設定された待ち時間が過ぎた",
	"Recovery tried %d times on %s, then the watchdog stopped waking you at %s; the operator paused you at %s, which ended that stop, and the pause has ended since, so waking is back. Before anything else, write an activity log with create_activity_log, activity_type \"recovery\": what happened and what you will do next.": "%[2]sのエラーで回復を%[1]d回試みても立ち直らなかったため、watchdog は%[3]sからあなたを起こすのをやめていました。%[4]sにユーザーが watchdog を一時停止したので、その時点から一時停止の扱いに変わりました。その一時停止もすでに終わり、再び起こしています。何よりも先に、create_activity_log で活動種別「回復」の活動ログを書き、何が起きたか、次に何をするかを記録してください。",
	"Recovery tried %d times on %s, then the watchdog stopped waking you at %s; the operator paused you at %s, which ended that stop. No wakeup comes until the pause ends. Before anything else, write an activity log with create_activity_log, activity_type \"recovery\": what happened and what you will do next.":             "%[2]sのエラーで回復を%[1]d回試みても立ち直らなかったため、watchdog は%[3]sからあなたを起こすのをやめていました。%[4]sにユーザーが watchdog を一時停止したので、その時点から一時停止の扱いに変わりました。一時停止が終わるまで、起動は来ません。何よりも先に、create_activity_log で活動種別「回復」の活動ログを書き、何が起きたか、次に何をするかを記録してください。",
}

// jaRecoveryReasons say in Japanese why each recoverable check started
// recovery (the English notice carries the check's alert line instead).
var jaRecoveryReasons = map[string]string{
	checks.Inactivity:   "活動ログもチェックポイントもないまま、無活動チェック（`inactivity`）のエラーのしきい値を超えています",
	checks.StaleID:      "最新の活動の証明に古いハートビートIDが使い回されています（`stale_id`）",
	checks.FutureID:     "最新の活動の証明に、現在より後のハートビートIDが付いています（`future_id`）",
	checks.LogLoop:      "同じ活動ログが何度も書き換えられています（`log_loop`）",
	checks.ThemePattern: "同じハートビートの中でテーマの開始・終了が繰り返されています（`theme_pattern`）",
	checks.ToolLoop:     "同じツールの呼び出しが何度も続いています（`tool_loop`）",
}
