package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/daemon"
	"github.com/ai-heart/ai-heart/internal/sdnotify"
	"github.com/ai-heart/ai-heart/internal/termsafe"
)

// runRun is `watchdog run [-c FILE]`: the daemon. SIGINT/SIGTERM finish the
// pulse in flight, persist state and exit 0; SIGHUP reloads the config (a bad
// one is refused, alerted, and the old one kept).
func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	// SIGHUP's default action ends the process: catch it before anything
	// slow (config, windows, broker), so a reload sent right after a
	// (re)start waits for the daemon instead of killing it.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	load := configFlag(fs)
	format := fs.String("log-format", "auto", "the stderr log's `FORMAT`: auto (console on a terminal, else JSON), json, console")
	level := fs.String("log-level", "info", "the log `LEVEL`: debug, info, warn, error")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	base, err := newLogger(stderr, *format, *level)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog run: %v\n", err)
		return 2
	}
	// Alert lines carry the alert's own "time"; a timestamped logger would
	// add a second "time" key to each of them.
	log := base.With().Timestamp().Logger()
	if err := undumpable(); err != nil { // before any secret is read, and before any agent runs
		log.Warn().Err(err).Msg("cannot make the process non-dumpable: an agent of the same user can read its environment in /proc")
	}
	releaseStartPages(log) // the packages' initialisers
	cfg, path, err := load()
	if err != nil {
		log.Error().Err(err).Msg("bad config")
		return 2
	}
	sink, err := alert.NewSink(base, cfg.Alerts.File)
	if err != nil {
		log.Error().Err(err).Msg("alerts file")
		return 1
	}
	defer sink.Close()
	opts := daemon.Options{Log: log, Alerts: sink, Notify: sdnotify.Notifier{}}
	win, err := newWindow(cfg, sink)
	if err != nil {
		log.Error().Err(err).Msg("cannot start the http server")
		return 1
	}
	opts.Subscribers = append(opts.Subscribers, afterFirstPulses(len(cfg.AgentConfigs()), func() { releaseStartPages(log) }))
	var onResult func(string, error)
	if win != nil {
		defer win.release()
		opts.Subscribers = append(opts.Subscribers, win.pulsed)
		onResult = win.metrics.Notified
	}
	notifier, err := newNotifier(cfg, sink, log, onResult)
	if err != nil {
		log.Error().Err(err).Msg("cannot start notifications")
		return 1
	}
	if notifier != nil {
		defer notifier.Close(notifyShutdownWait)
		// One message per target for all that a pulse changed.
		opts.Subscribers = append(opts.Subscribers, func(e daemon.PulseEvent) { notifier.Flush(e.Agent) })
	}
	// The clients' questions, offered to a person afar (asks).
	questions := newAsked(cfg, win, notifier)
	opts.Asks, opts.OnAsk = true, questions.changed
	pub, err := newPublisher(ctx, cfg, sink, log)
	if err != nil {
		log.Error().Err(err).Msg("cannot start the mqtt publisher")
		return 1
	}
	if pub != nil {
		defer pub.Close() // after the last pulse: the will says offline
		opts.Subscribers = append(opts.Subscribers, func(e daemon.PulseEvent) { pub.State(e.State) })
		if win != nil {
			win.metrics.AddPublisher(pub)
		}
	}
	if err := withHealthcheck(ctx, cfg, &opts, log); err != nil {
		log.Error().Err(err).Msg("cannot start the healthcheck pings")
		return 1
	}
	// The URLs are resolved: their secrets live in memory only.
	if names := forgetSecretEnv(cfg); len(names) > 0 {
		log.Warn().Strs("variables", names).Msg("secrets read from the environment: until the watchdog made itself non-dumpable, a process of its user could read them in /proc/<pid>/environ; give them in files (url_file, with systemd's LoadCredential= as ${CREDENTIALS_DIRECTORY}/NAME)")
	}
	d, err := daemon.New(cfg, opts)
	if err != nil {
		log.Error().Err(err).Msg("cannot start")
		return 1
	}
	questions.pending = d.Asks
	if win != nil {
		win.serve(ctx, d, log)
	}
	// systemd restarts a unit whose pings stop for WatchdogSec; a pulse as
	// long as that gets the daemon killed while healthy.
	wd, _ := sdnotify.WatchdogInterval()
	for _, a := range cfg.AgentConfigs() {
		if wd > 0 && a.Pulse.Interval.D() >= wd {
			log.Warn().Str("agent", a.DisplayName()).Str("pulse", a.Pulse.Interval.D().String()).Str("watchdog_sec", wd.String()).
				Msg("pulse.interval is not shorter than the unit's WatchdogSec: raise WatchdogSec")
		}
		log.Info().Str("agent", a.DisplayName()).Str("workspace", a.Workspace).Str("delivery", a.Agent.Delivery).
			Str("pulse", a.Pulse.Interval.D().String()).Str("config", orDefaults(path)).Msg("watchdog started")
	}

	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
			}
			_ = sdnotify.Reloading()
			next, _, err := load()
			if err == nil {
				err = d.Reload(ctx, next)
			}
			_ = sdnotify.Ready() // reload over, whatever its outcome
			if err != nil {
				sink.Emit(alert.Alert{Time: time.Now(), Level: checks.Error, Agent: "watchdog", Check: "config_reload", Message: fmt.Sprintf("config reload refused, old config kept: %v", err)})
				continue
			}
			if next.MQTT != cfg.MQTT {
				log.Warn().Msg("the mqtt section changed: it takes effect at the next start")
			}
			log.Info().Str("config", orDefaults(path)).Msg("config reloaded")
		}
	}()
	if err := d.Run(ctx); err != nil {
		log.Error().Err(err).Msg("watchdog stopped")
		return 1
	}
	log.Info().Msg("watchdog stopped; state saved")
	return 0
}

func orDefaults(path string) string {
	if path == "" {
		return "(built-in defaults)"
	}
	return path
}

// newLogger builds the stderr logger, without timestamps: JSON for journald
// and files, a readable console format on a terminal.
func newLogger(w io.Writer, format, level string) (zerolog.Logger, error) {
	lvl, err := zerolog.ParseLevel(level)
	if err != nil {
		return zerolog.Logger{}, fmt.Errorf("log level %q: %w", level, err)
	}
	switch format {
	case "auto":
		if f, ok := w.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
			format = "console"
		} else {
			format = "json"
		}
	case "json", "console":
	default:
		return zerolog.Logger{}, fmt.Errorf("log format %q: want auto, json or console", format)
	}
	if format == "console" {
		// On a terminal, agent-written names in messages and fields are
		// shown escaped, never acting (the writer's own colours stay).
		safe := func(i any) string {
			if i == nil {
				return ""
			}
			return termsafe.Line(fmt.Sprint(i))
		}
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: "15:04:05", FormatMessage: safe, FormatFieldValue: safe, FormatErrFieldValue: safe}
	}
	return zerolog.New(w).Level(lvl), nil
}
