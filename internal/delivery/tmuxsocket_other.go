//go:build !unix

package delivery

import "errors"

// ErrTmuxUnsafe reports a tmux socket the watchdog will not talk to; tmux
// runs on unix systems only.
var ErrTmuxUnsafe = errors.New("the tmux socket is not the watchdog's own")

func socketFor(socket string) string { return socket }

func checkSocket(path string, uid int) (string, error) { return path, nil }
