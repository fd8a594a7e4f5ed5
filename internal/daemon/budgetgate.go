package daemon

import (
	"encoding/json"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// With budget.enforce: turn a spent budget binds inside the turn in flight
// too: the watchdog keeps hook.GateFile current in the workspace, and the
// client's pre-tool hook (heart-hook) refuses every tool call but the real
// mcp-heart's while it says so. The file is rewritten every pulse while the
// budget is spent and expires two pulses on (at most an hour), so a
// watchdog that stopped refuses nothing. The agent can write it, and the
// hooks' settings: a forged gate holds until the next pulse's write, hooks
// turned off are the check hooks_off.

// gateReason is what a refused tool call tells the agent.
const gateReason = "today's budget is spent; write your activity log and end this turn (mcp-heart's tools still work; your other tool calls are refused until local midnight)"

// keepGate writes the budget gate as the budget stands at now: closed
// while it is spent, open once (then left alone) when it is not.
func (a *agent) keepGate(now time.Time) {
	if !a.cfg.Budget.BindsTurn() {
		return
	}
	spent := a.gate.spent != nil && a.gate.spent(now) || a.inFlightSpends(now)
	if !spent && !a.gateClosed {
		return
	}
	g := hook.Gate{Spent: spent, Written: now.UTC()}
	if spent {
		ttl := min(2*a.cfg.Pulse.Interval.D(), hook.GateMaxAge)
		y, m, d := now.In(a.loc).Date()
		g.Expires, g.Until = now.Add(ttl).UTC(), time.Date(y, m, d+1, 0, 0, 0, 0, a.loc).UTC()
		g.Reason = ja.F(a.cfg.Language, gateReason)
	}
	b, _ := json.Marshal(g)
	err := a.ws.WriteFile(hook.GateFile, append(b, '\n'))
	a.wroteIn(now, "budget gate", hook.GateFile, err)
	if err == nil {
		a.gateClosed = spent
	}
}

// liveBind names the run or turn in flight: an exec run by its tag, a
// turn by its session since it began; zero when none is.
func (a *agent) liveBind() teleBind {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.execRun != "" {
		return teleBind{run: a.execRun}
	}
	if a.activity.InTurn {
		return teleBind{session: a.session, from: a.activity.TurnStart}
	}
	return teleBind{}
}

// inFlightSpends reports whether today's booked use and what the client's
// telemetry has reported of the run or turn in flight, not booked until it
// ends, reach the daily budget: the gate closes in the turn that spends it,
// not only in the next. Only reports that belong to that run or turn count
// (an exec run's tags, the turn's session): a stranger's cannot close the
// gate, nor a negative one reopen it.
func (a *agent) inFlightSpends(now time.Time) bool {
	b := a.cfg.Budget
	bind := a.liveBind()
	if bind.run == "" && bind.session == "" {
		return false
	}
	reps := a.tele.pending(bind)
	if !b.On() || len(reps) == 0 {
		return false
	}
	u := teleUsageOf(reps)
	if u == nil {
		return false
	}
	st := a.ledger.Budget(now, b)
	if b.DailyTokens > 0 && st.UsedTokens+u.Tokens.Total() >= b.DailyTokens {
		return true
	}
	r := cost.Measure(u, a.cfg.Prices)
	return b.DailyUSD > 0 && r.USD != nil && st.UsedUSD+*r.USD >= b.DailyUSD
}
