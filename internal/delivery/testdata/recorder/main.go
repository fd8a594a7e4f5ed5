//go:build linux

// Command recorder stands in for a terminal agent in tmux delivery tests: it
// puts its terminal in raw mode (no echo, no line editing, CR stays CR),
// prints READY, and appends every byte it reads to the -out file.
package main

import (
	"flag"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

func main() {
	out := flag.String("out", "", "file to append received bytes to")
	bracketed := flag.Bool("bracketed", false, "ask the terminal for bracketed paste (DECSET 2004)")
	flag.Parse()
	if err := run(*out, *bracketed); err != nil {
		fmt.Fprintln(os.Stderr, "recorder:", err)
		os.Exit(1)
	}
}

func run(out string, bracketed bool) error {
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	t, err := unix.IoctlGetTermios(0, unix.TCGETS)
	if err != nil {
		return fmt.Errorf("get termios: %w", err)
	}
	// cfmakeraw(3).
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	if err := unix.IoctlSetTermios(0, unix.TCSETS, t); err != nil {
		return fmt.Errorf("set termios: %w", err)
	}
	if bracketed {
		os.Stdout.WriteString("\x1b[?2004h")
	}
	// tmux handles pane output in order: once READY is on screen, raw mode
	// and bracketed paste are in force.
	os.Stdout.WriteString("READY")
	buf := make([]byte, 64<<10)
	for {
		n, err := os.Stdin.Read(buf)
		if n > 0 {
			if _, werr := f.Write(buf[:n]); werr != nil {
				return werr
			}
		}
		if err != nil {
			return err
		}
	}
}
