package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// helpFor is the -h of a command's flag set: its line (the positional
// arguments and what it does, from about) and every flag the set holds,
// with its argument's name (the `word` in its usage), text and default.
// watchdog --help prints each command's, so neither can drift.
func helpFor(fs *flag.FlagSet) func() {
	return func() {
		w := fs.Output()
		a := about[fs.Name()]
		line := "watchdog " + fs.Name()
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			line += " [FLAGS]"
		}
		if a[0] != "" {
			line += " " + a[0]
		}
		fmt.Fprintf(w, "usage: %-32s %s\n", line, a[1])
		printFlags(w, fs)
	}
}

func printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		arg, text := flag.UnquoteUsage(f)
		name := "--" + f.Name
		if len(f.Name) == 1 {
			name = "-" + f.Name
		}
		if arg != "" {
			name += " " + arg
		}
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "0s" && d != "[]" && !strings.Contains(text, "(default") {
			text += " (default " + d + ")"
		}
		fmt.Fprintf(w, "      %-22s %s\n", name, text)
	})
}
