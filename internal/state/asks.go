package state

import "time"

// Asks are the questions the agent's client waits on that a person may
// answer from afar (asks.hold), and what became of the last ones.
type Asks struct {
	// Pending are the questions offered now, oldest first.
	Pending []Ask `json:"pending"`
	// Recent are the last questions closed (answered, withdrawn) and
	// answers refused, newest last (at most RecentAnswers).
	Recent []Answer `json:"recent,omitempty"`
	// WaitedToday is how long today's closed questions waited for a
	// person, in seconds, and Today how many there were (local day).
	WaitedToday float64 `json:"waited_today_s"`
	Today       int     `json:"today"`
	// Socket is where the client's hooks ask.
	Socket string `json:"socket"`
}

// RecentAnswers bounds Asks.Recent.
const RecentAnswers = 5

// Ask is a pending question, as status and the page list it.
type Ask struct {
	ID    string    `json:"id"`
	Tool  string    `json:"tool"`
	Input string    `json:"input,omitempty"` // the tool's input, cut to a line
	Since time.Time `json:"since"`
	Hold  time.Time `json:"hold_until"` // after it the client's own dialog alone stands
}

// Answer is what became of one question: answered (Decision allow or deny,
// Outcome delivered or gone), withdrawn, or an answer refused.
type Answer struct {
	Time     time.Time `json:"time"`
	ID       string    `json:"id"`
	Tool     string    `json:"tool,omitempty"`
	Decision string    `json:"decision,omitempty"`
	Outcome  string    `json:"outcome"`
	Why      string    `json:"why,omitempty"`
	// Via is the channel (cli, page, link) and By the credential.
	Via    string  `json:"via,omitempty"`
	By     string  `json:"by,omitempty"`
	Waited float64 `json:"waited_s,omitempty"`
}
