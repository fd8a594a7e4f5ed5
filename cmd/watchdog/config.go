package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/config"
)

// defaultConfigFile is read when -c is not given and the file exists, so
// `watchdog run` in a folder with watchdog.yaml needs no flags.
const defaultConfigFile = "watchdog.yaml"

// configFlag adds -c to fs and returns a loader for it.
func configFlag(fs *flag.FlagSet) func() (*config.Config, string, error) {
	path := fs.String("c", "", "the config `FILE` (YAML); default ./watchdog.yaml if present, else built-in defaults")
	return func() (*config.Config, string, error) {
		p := *path
		if p == "" {
			if _, err := os.Stat(defaultConfigFile); err == nil {
				p = defaultConfigFile
			}
		}
		cfg, err := config.Load(p)
		if err == nil {
			// The clients are the registry's, which config does not import.
			if err = cfg.CheckClients(clients.Hooked()); err != nil {
				cfg = nil
			}
		}
		return cfg, p, err
	}
}

// parseFlags parses args and reports usage errors as exit code 2.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) (int, bool) {
	fs.SetOutput(stderr)
	fs.Usage = helpFor(fs)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "watchdog %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
}
