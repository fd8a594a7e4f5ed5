package cost

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/ai-heart/ai-heart/internal/config"
)

// ErrImplausible reports a run's usage that cannot be true: a negative
// count or price, or more than budget.max_report_tokens or max_report_usd.
var ErrImplausible = errors.New("implausible usage report")

// Vet is the one door from a run's report to what the ledger books: every
// source (an exec run's stream, a turn's transcript the Stop hook names)
// comes through it. The report comes from the agent's side: the agent
// writes its client's transcript, and can write a forged line there or
// forge the hook event that names it. A plausible report is measured as
// Measure does. An implausible one is booked as a run of unknown usage (no
// tokens, no cost) and an error wrapping ErrImplausible says why, for an
// alert: never a credit (a negative count), never a wrap, and never the
// agent's invented figure in the ledger, the totals and /metrics. Booking the
// cap instead would put a made-up number there and let one forged line spend
// the day's budget; the unknown run is what the ledger already says of a
// run whose client reported nothing believable.
func Vet(u *Usage, prices map[string]config.Price, b config.Budget) (Run, error) {
	if u == nil {
		return Measure(nil, prices), nil
	}
	if why := implausible(u, b); why != "" {
		return Run{}, fmt.Errorf("%w: %s", ErrImplausible, why)
	}
	r := Measure(u, prices)
	if r.USD != nil && (math.IsInf(*r.USD, 0) || math.IsNaN(*r.USD)) {
		return Run{}, fmt.Errorf("%w: priced at %v", ErrImplausible, *r.USD)
	}
	return r, nil
}

// implausible says what in u cannot be true under b's limits ("" if nothing).
func implausible(u *Usage, b config.Budget) string {
	if why := implausibleTokens(u.Tokens, b.MaxReportTokens); why != "" {
		return why
	}
	models := make([]string, 0, len(u.Models))
	for m := range u.Models {
		models = append(models, m)
	}
	sort.Strings(models) // the same report, the same reason
	for _, m := range models {
		if why := implausibleTokens(u.Models[m], b.MaxReportTokens); why != "" {
			return fmt.Sprintf("model %q: %s", m, why)
		}
	}
	if v := u.ReportedUSD; v != nil && (*v < 0 || math.IsNaN(*v) || math.IsInf(*v, 0) || (b.MaxReportUSD > 0 && *v > b.MaxReportUSD)) {
		return fmt.Sprintf("the client's price $%v is negative or above budget.max_report_usd ($%v)", *v, b.MaxReportUSD)
	}
	return ""
}

func implausibleTokens(t Tokens, most int64) string {
	for _, k := range Kinds {
		if t.Kind(k) < 0 {
			return fmt.Sprintf("%s tokens %d: a negative count", k, t.Kind(k))
		}
	}
	if most > 0 && t.Total() > most {
		return fmt.Sprintf("%d tokens, above budget.max_report_tokens (%d)", t.Total(), most)
	}
	return ""
}
