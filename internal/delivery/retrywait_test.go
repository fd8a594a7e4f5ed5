package delivery

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// An announced wait lengthens the run by its length, never past the
// timeout plus RetryMax; a wait of nothing or less lengthens nothing.
func TestRunDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		ended := make(chan time.Time, 1)
		d := newRunDeadline(start, 10*time.Second, time.Minute, func() { ended <- time.Now() })
		defer d.stop()
		time.Sleep(5 * time.Second)
		d.retry(time.Now(), -time.Hour)
		d.retry(time.Now(), 0)
		d.retry(time.Now(), 30*time.Second) // the run ends at 40 s, the wait at 35 s
		if until, capped := d.waiting(time.Now()); !until.Equal(start.Add(35*time.Second)) || capped {
			t.Fatalf("waiting = %v, %v; want until 35 s, not capped", until.Sub(start), capped)
		}
		d.retry(time.Now(), 1000*time.Hour) // forged: cut at 10 s + 1 m
		if until, capped := d.waiting(time.Now()); !until.Equal(start.Add(70*time.Second)) || !capped {
			t.Fatalf("waiting = %v, %v; want until 70 s (the bound), capped", until.Sub(start), capped)
		}
		at := <-ended
		if got := at.Sub(start); got != 70*time.Second {
			t.Fatalf("the run ended at %v, want 70 s", got)
		}
		if until, _ := d.waiting(at); !until.IsZero() {
			t.Errorf("waiting after its end = %v, want none", until)
		}
	})
}

// A real run that waits out an announced retry longer than its timeout
// answers; one that announces a huge wait is ended at the bound.
func TestExecRetryWait(t *testing.T) {
	agent := buildHelper(t, "fakeagent")
	e := NewExec([]string{agent, "retry", "2000", "1500"}, time.Second)
	e.StreamJSON, e.RetryMax = true, 5*time.Second
	res, err := e.Deliver(context.Background(), "x")
	if err != nil || res.Reply != "done" || res.Retries != 1 || res.RetryCapped {
		t.Fatalf("Deliver = %+v, %v; want the run's answer after its announced wait", res, err)
	}
	e = NewExec([]string{agent, "retry", "1e15", "60000"}, time.Second)
	e.StreamJSON, e.RetryMax = true, time.Second
	res, err = e.Deliver(context.Background(), "x")
	if !errors.Is(err, ErrTimeout) || !res.RetryCapped || res.Duration > 2*time.Second+killGrace {
		t.Fatalf("Deliver = %+v (%s), %v; want ended at 2 s, the wait capped", res, res.Duration, err)
	}
	e = NewExec([]string{agent, "retry", "2000", "1500"}, time.Second)
	e.StreamJSON = true // RetryMax 0: not believed
	if _, err := e.Deliver(context.Background(), "x"); !errors.Is(err, ErrTimeout) {
		t.Fatalf("Deliver with retry_wait_max 0 = %v, want ErrTimeout", err)
	}
}
