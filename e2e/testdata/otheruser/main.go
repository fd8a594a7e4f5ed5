// Command otheruser is a hostile exec agent for the tests, run as another
// user than the watchdog's: each run tries what an agent did to a watchdog
// that kept its state in the workspace (rewrite the daily cap, remove the
// ledger, plant a file, take the lock, signal a reload), against the
// watchdog's state folder, and appends what happened to REPORT (a file in
// its own workspace) as one JSON line. It replies "done".
//
//	otheruser STATE_FOLDER REPORT
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: otheruser STATE_FOLDER REPORT")
		os.Exit(2)
	}
	dir, report := os.Args[1], os.Args[2]
	errs := map[string]string{}
	note := func(what string, err error) {
		if err == nil {
			errs[what] = "ok"
			return
		}
		errs[what] = err.Error()
	}
	note("rewrite daily_cap.json", os.WriteFile(filepath.Join(dir, "daily_cap.json"), []byte(`{"used":0}`), 0o644))
	note("remove cost.json", os.Remove(filepath.Join(dir, "cost.json")))
	note("plant a file", os.WriteFile(filepath.Join(dir, "planted"), nil, 0o644))
	f, err := os.OpenFile(filepath.Join(dir, "watchdog.lock"), os.O_RDONLY, 0)
	if err == nil {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		f.Close()
	}
	note("take the lock", err)
	note("signal a reload", syscall.Kill(os.Getppid(), syscall.SIGHUP))
	errs["uid"] = fmt.Sprint(os.Getuid())
	line, _ := json.Marshal(errs)
	out, err := os.OpenFile(report, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out.Write(append(line, '\n'))
	out.Close()
	fmt.Println("done")
}
