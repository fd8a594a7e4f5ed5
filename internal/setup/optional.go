package setup

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"
)

// helpTimeout bounds the run of a client's --help: init never hangs on it.
const helpTimeout = 10 * time.Second

// clientHelp is what prog --help prints ("" when it cannot be run): the
// installed client says which flags it has. A variable, for tests.
var clientHelp = func(prog string) string {
	path, err := exec.LookPath(prog)
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), helpTimeout)
	defer cancel()
	out, _ := exec.CommandContext(ctx, path, "--help").Output() // argv, no shell
	return string(out)
}

var helps sync.Map // prog → its --help, read once per init

// command is h's argv with the optional flags the installed client has.
func (h headless) command() []string {
	argv := slices.Clone(h.Command)
	if len(h.Optional) == 0 || len(argv) == 0 {
		return argv
	}
	help, ok := helps.Load(argv[0])
	if !ok {
		help, _ = helps.LoadOrStore(argv[0], clientHelp(argv[0]))
	}
	for _, f := range h.Optional {
		if strings.Contains(help.(string), f.Help+" ") || strings.Contains(help.(string), f.Help+"\n") {
			argv = append(argv, f.Args...)
		}
	}
	return argv
}
