package checks

import "github.com/ai-heart/ai-heart/internal/lang"

// ja is the Japanese of the notices, keyed by the English format. Only the
// notices are translated: messages are alert lines, read by machines.
var ja = lang.Catalogue{
	// Facts: what holds recovery, named in the recovery notice.
	"no activity log or checkpoint for %s (inactivity; warning after %s, error after %s)":                                          "活動ログもチェックポイントもないまま%sたち、無活動チェック（`inactivity`）のエラーのしきい値（%[3]s。警告は%[2]s）を超えています",
	"no activity log or checkpoint of your own for %s, only the client's hooks (inactivity; warning after %s, error after %s)":     "クライアントのフックからの連絡はあっても、自分の活動ログもチェックポイントもないまま%sたち、無活動チェック（`inactivity`）のエラーのしきい値（フックの連絡だけのときの値で%[3]s。警告は%[2]s）を超えています",
	"your newest proof %s was written %s after its heartbeat ID %s: an old ID reused (stale_id; warning after %s, error after %s)": "最新の活動の証明 %[1]s は、そのハートビートID %[3]s の時刻より%[2]s後に書かれています。古いIDが使い回されています（`stale_id`。警告は%[4]s、エラーは%[5]s）",
	"your newest proof %s is named with heartbeat ID %s, %s in the future (future_id)":                                             "最新の活動の証明 %[1]s に、現在より%[3]s後のハートビートID %[2]s が付いています（`future_id`）",
	"the activity log %s was rewritten in %d pulses in a row (log_loop)":                                                           "活動ログ %s が%d回のパルスにわたって書き換えられ続けています（`log_loop`）",
	"%d theme start or end records were written in one heartbeat (%s) (theme_pattern)":                                             "同じハートビート（%[2]s）の中で、テーマの開始・終了の記録が%[1]d件書かれています（`theme_pattern`）",
	"the same %s call %d times in a row (tool_loop; warning at %d, error at %d)":                                                   "同じ %s の呼び出しが%d回続いています（`tool_loop`。警告は%d回、エラーは%d回から）",

	"No activity log or checkpoint for %s, counted from %s. If you are still working, write a checkpoint with a short note of what you are doing. " +
		"If the work needs a long stretch, declare it with start_deep_work (flexible: checkpoints still count; strict: inactivity, introspection and stale_id pause until its deadline). " +
		"When the activity is done, record it with create_activity_log.": "活動ログもチェックポイントもないまま、%[2]sから%[1]sたちました。まだ作業中なら、今していることを短く書いたチェックポイントを残してください。" +
		"長い作業になるなら start_deep_work で宣言してください。flexible ではチェックポイントが引き続き活動の証明になり、strict では期限まで無活動（`inactivity`）・内省（`introspection`）・`stale_id` のチェックが一時停止します。" +
		"活動が終わったら create_activity_log で記録してください。",
	"No activity log or checkpoint for %s, counted from %s. That count goes on in this run: begin with a checkpoint, a short note of what you take up, and when the activity is done, record it with create_activity_log. " +
		"If the work needs a long stretch, declare it with start_deep_work (flexible: checkpoints still count; strict: inactivity, introspection and stale_id pause until its deadline).": "活動ログもチェックポイントもないまま、%[2]sから%[1]sたちました。この時間はこの実行でも数え続けられます。まず、引き継ぐ作業を短く書いたチェックポイントを残し、活動が終わったら create_activity_log で記録してください。" +
		"長い作業になるなら start_deep_work で宣言してください。flexible ではチェックポイントが引き続き活動の証明になり、strict では期限まで無活動（`inactivity`）・内省（`introspection`）・`stale_id` のチェックが一時停止します。",
	"You have not reflected for %s%s (introspection is due every %s).": "内省しないまま、%[2]s%[1]sたちました（内省は%[3]sごとに必要です）。",
	"Plan an introspection within the next cycle or two (create_activity_log with activity_type introspection). If you are in the middle of long work, start_deep_work (flexible) pauses this check.": "次の1〜2サイクルのうちに、活動種別（create_activity_log の activity_type）を「内省」にした活動ログを書いてください。長い作業の途中なら、start_deep_work（flexible）でこのチェックを一時停止できます。",
	"Make your next activity log an introspection (create_activity_log with activity_type introspection). If you are in the middle of long work, start_deep_work (flexible) pauses this check.":       "次の活動ログは、活動種別（create_activity_log の activity_type）を「内省」にしてください。長い作業の途中なら、start_deep_work（flexible）でこのチェックを一時停止できます。",
	"Plan an introspection within the next cycle or two (create_activity_log with activity_type introspection).":                                                                                      "次の1〜2サイクルのうちに、活動種別（create_activity_log の activity_type）を「内省」にした活動ログを書いてください。",
	"Make your next activity log an introspection (create_activity_log with activity_type introspection).":                                                                                            "次の活動ログは、活動種別（create_activity_log の activity_type）を「内省」にしてください。",
	"Introspect now, in this cycle: look back on your recent activity and record it with create_activity_log with activity_type introspection.":                                                       "今、このサイクルで内省してください。最近の活動を振り返り、活動種別（create_activity_log の activity_type）を「内省」にした活動ログに記録してください。",
	"No activity log or checkpoint for %s, counted from %s, while your client's tools kept busy. The watchdog starts recovery: " +
		"at the next step of your work, write a checkpoint of what you are doing, then re-read GEMINI.md and ai-docs/ and write an activity log with activity_type recovery.": "クライアントのツールは動き続けていましたが、%[2]sから%[1]s、何をしているかを示す記録がありません。watchdog は回復を始めます。" +
		"作業の次の区切りで、今していることをチェックポイントに書き、GEMINI.md と ai-docs/ を読み直してから、活動種別「回復」の活動ログを書いてください。",
	"No activity log or checkpoint for %s, counted from %s. The watchdog treats you as stuck and starts recovery: " +
		"stop what you were doing, re-read GEMINI.md and ai-docs/, then write an activity log with activity_type recovery: what happened and what you will do next.": "活動ログもチェックポイントもないまま、%[2]sから%[1]sたちました。watchdog はあなたが行き詰まっているとみなし、回復を始めます。" +
		"していたことをやめ、GEMINI.md と ai-docs/ を読み直してから、活動種別「回復」の活動ログを書いてください。何が起きたか、次に何をするかを書きます。",
	"No activity log or checkpoint for %s, counted from %s. The watchdog starts recovery: " +
		"re-read GEMINI.md and ai-docs/, then write an activity log with activity_type recovery: what the ended run had done and what you will do next.": "活動ログもチェックポイントもないまま、%[2]sから%[1]sたちました。watchdog は回復を始めます。" +
		"GEMINI.md と ai-docs/ を読み直してから、活動種別「回復」の活動ログを書いてください。打ち切られた実行が何をしていたか、次に何をするかを書きます。",
	"No activity log or checkpoint for %s, counted from %s: the recovery notice says what to do.":                                                                              "活動ログもチェックポイントもないまま、%[2]sから%[1]sたちました。することは回復通知に書かれています。",
	"No activity log or checkpoint for %s, counted from %s. Before anything else, write an activity log with activity_type recovery: what happened and what you will do next.": "活動ログもチェックポイントもないまま、%[2]sから%[1]sたちました。何よりも先に、活動種別「回復」の活動ログを書いてください。何が起きたか、次に何をするかを書きます。",
	"No activity log or checkpoint for %s, counted from %s. Write the one activity log with activity_type recovery asked for above: it answers this too.":                      "活動ログもチェックポイントもないまま、%[2]sから%[1]sたちました。上で求められている活動種別「回復」の活動ログを一つ書けば、これにも応えたことになります。",
	" of working time": "作業時間で",
	" (urgent)":        "（緊急）",
	"your latest activity log or checkpoint (%s)":                 "最新の活動ログかチェックポイント（%s）",
	"the end of your strict deep work (%s)":                       "strict な深い作業の終わり（%s）",
	"a person's answer to your client's prompt (%s)":              "クライアントの確認へのユーザーの回答（%s）",
	"your last tool call (%s)":                                    "最後のツール呼び出し（%s）",
	"the wakeup (%s)":                                             "起動（%s）",
	"the wakeup of your last run (%s)":                            "前回の実行の起動（%s）",
	"the start of your turn (%s)":                                 "ターンの始まり（%s）",
	"your own last log, checkpoint or wakeup (%s)":                "あなた自身の最後の活動ログ、チェックポイント、または起動（%s）",
	"the watchdog's start (%s)":                                   "watchdog の開始（%s）",
	"the end of the operator's pause (%s)":                        "一時停止の解除（%s）",
	"the tool cap (agent.max_tool_calls: %s)":                     "ツール呼び出しの上限（agent.max_tool_calls: %s）",
	"the tool cap (agent.max_tool_calls: %d) on its tool call %d": "ツール呼び出しの上限（agent.max_tool_calls: %d）を超えた%d回目の呼び出し",
	"the token cap (budget.per_wakeup_tokens: %s)":                "1回の起動のトークン上限（budget.per_wakeup_tokens: %s）",
	"its timeout (agent.timeout: %s)":                             "実行の制限時間（agent.timeout: %s）",
	"the signal %s":                                               "シグナル %s",
	"Your last run was ended by %s at %s, before it wrote an activity log; keep each run within it.":                                                                               "前回の実行は、活動ログを書く前に%[2]sに%[1]sで打ち切られました。1回の実行をこの制限の範囲に収めてください。",
	"Your last run was ended by %s at %s, before it wrote an activity log. In long work, write checkpoints along the way and close each piece of work early with an activity log.": "前回の実行は、活動ログを書く前に%[2]sに%[1]sで打ち切られました。長い作業は途中でチェックポイントを書き、活動ログで早めに区切ってください。",
	"Your deep work %s ended with %s, and the log after it (%s) was not an introspection. After deep work, reflect first: " +
		"write your next activity log with create_activity_log with activity_type introspection.": "深い作業 %s は %s で終わりましたが、その次のログ（%s）が内省ではありませんでした。深い作業の後は、まず振り返ってください。" +
		"次の活動ログは活動種別「内省」にしてください。",
	"Your strict deep work %s reached its deadline %s and has been marked expired: inactivity counts again from the deadline, and introspection and stale_id apply again. " +
		"In this order: 1. record what you did with create_activity_log now (where a recovery notice asks for a recovery log, that log is this one); 2. make the log after it an introspection (why the planned time was too short); " +
		"3. only if the work goes on, declare again with start_deep_work, with more margin or in flexible mode.": "strict な深い作業 %s は期限（%s）を過ぎたため、期限切れにしました。無活動（`inactivity`）の時間は期限から数え直され、内省（`introspection`）と `stale_id` のチェックも再び動いています。" +
		"次の順にしてください：1. したことを今 create_activity_log で記録します（回復通知が活動種別「回復」のログを求めているなら、そのログがこれにあたります）。2. その次のログを内省にし、予定時間が足りなかった理由を振り返ります。" +
		"3. 作業が続くときだけ、余裕を持たせるか flexible にして、start_deep_work でもう一度宣言します。",
	"A deep-work declaration could not be read and was renamed .invalid.txt, so it pauses nothing: %s. " +
		"Declare deep work with the start_deep_work tool instead of writing the file by hand.": "深い作業の宣言 %s が読めなかったため、.invalid.txt にリネームしました。この宣言では何も一時停止しません。" +
		"深い作業は、ファイルを手で書くのではなく start_deep_work ツールで宣言してください。",
	"Your newest proof %s is named with heartbeat ID %s, which is later than now. Never invent an ID: " +
		"let the tools (checkpoint, create_activity_log) name files; they read the current ID themselves.": "最新の活動の証明 %s に、現在より後のハートビートID %s が付いています。IDを作り出さないでください。" +
		"ファイルの名前はツール（checkpoint、create_activity_log）に任せてください。ツールが現在のIDを自分で読みます。",
	"Your newest proof %s is named with heartbeat ID %s, %s older than when it was written: an old ID was reused. " +
		"You never need an ID: let the tools (checkpoint, create_activity_log) name files; they read the current ID themselves.": "最新の活動の証明 %s のハートビートID %s は、書かれた時刻より%s古いものです。古いIDが使い回されています。" +
		"IDが必要になることはありません。ファイルの名前はツール（checkpoint、create_activity_log）に任せてください。ツールが現在のIDを自分で読みます。",
	"The activity log %s has been rewritten again and again. Stop editing it: it looks like a loop. " +
		"Re-read your rules (GEMINI.md), then record your next activity as a new log with create_activity_log.": "活動ログ %s が何度も書き換えられています。ループのように見えるので、編集をやめてください。" +
		"ルール（GEMINI.md）を読み直してから、次の活動を create_activity_log で新しいログとして記録してください。",
	"%d theme start/end records were written in the same heartbeat (%s): themes are being started and ended in a loop. " +
		"Stop, read artifacts/theme_histories/ to see where you are, and continue the current theme; start or end a theme (start_theme, end_theme) only once per decision.": "同じハートビート（%[2]s）でテーマの開始・終了の記録が%[1]d件書かれました。テーマの開始と終了がループしています。" +
		"手を止めて artifacts/theme_histories/ を読んで現在地を確かめ、今のテーマを続けてください。テーマの開始・終了（start_theme、end_theme）はハートビートごとに一度までにしてください。",
	"Take the urgent ones now, before your current work.": "緊急のものには、今の作業をいったん置いて、すぐに対応してください。",
	"Feedback from the user is waiting: %s. Take each file with check_and_process_item (it gives you the text and renames the file processed.<name>), " +
		"act on it, and record what you did in your next activity log.": "ユーザーからのフィードバックが届いています：%s。check_and_process_item で一つずつ受け取り（本文が返され、ファイルは processed.<名前> にリネームされます）、" +
		"対応して、したことを次の活動ログに書いてください。",
	"These tools are restricted for now: %s. Do not use them until then; choose another activity meanwhile.": "次のツールは今使えません：%s。表示の時刻までは使わず、ほかの活動を選んでください。",
	"You have made the same %s call %d times in a row. Repeating it will not change its result: " +
		"read the last result again and try a different approach, or write a checkpoint saying what blocks you and move to another activity.": "同じ %s の呼び出しを%d回続けています。繰り返しても結果は変わりません。" +
		"最後の結果を読み直して別のやり方を試すか、何に行き詰まっているかをチェックポイントに書いて、ほかの活動に移ってください。",
	"In your last run your client refused your calls to %s: they are not allowed here. " +
		"Do not retry them: do the work with the tools you are allowed, or write in your activity log what you need them for, so the user can allow them.": "前回の実行で、クライアントが %s の呼び出しを拒否しました。ここでは使えないツールです。" +
		"再試行せず、使えるツールで作業を進めるか、そのツールが何のために必要かを活動ログに書いて、ユーザーが許可できるようにしてください。",
	"%s (%s until %s)": "%[1]s（%[3]sまで%[2]s中）",
	"lock":             "ロック",
	"cooldown":         "クールダウン",
	", ":               "、",
	"a tool":           "あるツール",
	"Your last %d answers changed nothing in your work (%s): no file, no commit. " +
		"If something blocks you, say in an activity log what it is and what you need; otherwise change course and make the next step real: a file written, a test run, a commit.": "直近%d回の応答では、作業（%s）に何の変化もありませんでした：ファイルもコミットも変わっていません。" +
		"何かに行き詰まっているなら、それが何で何が必要かを活動ログに書いてください。そうでなければ進め方を変えて、次の一歩を形にしてください：ファイルを書く、テストを走らせる、コミットする。",
}
