package main

import (
	"os"
	"slices"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/notify"
)

// forgetSecretEnv unsets the environment variables the config's secrets
// were read from (the ${NAME} of alerts.notify and healthcheck URLs), once
// they are resolved into memory: nothing later in the process can hand them
// on, whatever environment it builds. The kernel's copy of the environment
// the process started with (/proc/<pid>/environ) keeps them: undumpable
// guards that one, once it runs. It returns the names it unset.
func forgetSecretEnv(cfg *config.Config) []string {
	names := notify.EnvNames(cfg.Healthcheck.URL)
	for _, nc := range cfg.Alerts.Notify {
		names = append(names, notify.EnvNames(nc.URL)...)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	for _, n := range names {
		_ = os.Unsetenv(n)
	}
	return names
}
