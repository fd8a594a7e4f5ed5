// Command faketmux stands in for tmux where a test asserts the calls
// themselves, in order: each run appends one line to SOCKET.log, SOCKET
// being its -S flag (a socket of the test's, as the watchdog talks to no
// other), its other arguments joined by spaces (with load-buffer, "<N
// bytes>" for what it read on stdin), and exits 0. A line is one write to a
// file opened O_APPEND, so lines of concurrent runs never mix.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	args := os.Args[1:]
	if len(args) < 2 || args[0] != "-S" {
		fmt.Fprintln(os.Stderr, "faketmux: want -S SOCKET first")
		os.Exit(2)
	}
	log, rest := args[1]+".log", args[2:]
	line := strings.Join(rest, " ")
	if len(rest) > 0 && rest[0] == "load-buffer" {
		b, _ := io.ReadAll(os.Stdin)
		line += fmt.Sprintf(" <%d bytes>", len(b))
	}
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "faketmux:", err)
		os.Exit(1)
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		fmt.Fprintln(os.Stderr, "faketmux:", err)
		os.Exit(1)
	}
	f.Close()
}
