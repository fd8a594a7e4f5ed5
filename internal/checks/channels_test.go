package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/scan"
)

func TestChannelSilent(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return now.Add(time.Duration(m) * time.Minute) }
	for _, c := range []struct {
		name string
		chs  Channels
		want Level
		says string
	}{
		{name: "nothing wired", chs: nil},
		{name: "one channel alone", chs: Channels{ChannelHooks: {Last: at(-600), End: at(-600)}}},
		{name: "all spoke at the last turn's end", chs: Channels{
			ChannelHooks: {Last: at(-5), End: at(-5)}, ChannelTelemetry: {Last: at(-5), End: at(-5)}, ChannelExec: {Last: at(-5), End: at(-5)}}},
		// Claude Code -p exports as it exits: during a long run only the
		// hooks speak, and no turn has ended since the telemetry's last word.
		{name: "telemetry due at the run's end", chs: Channels{
			ChannelHooks: {Last: at(0), End: at(-65)}, ChannelTelemetry: {Last: at(-65), End: at(-65)}}},
		{name: "telemetry stopped", chs: Channels{
			ChannelHooks: {Last: at(-2), End: at(-2)}, ChannelTelemetry: {Last: at(-65), End: at(-65)}}, want: Warning, says: "telemetry (last at 10:55:00; hooks reported a turn ended at 11:58:00)"},
		{name: "hooks stopped, exec runs on", chs: Channels{
			ChannelHooks: {Last: at(-3000), End: at(-3000)}, ChannelExec: {Last: at(-1), End: at(-1)}}, want: Warning, says: "hooks (last at"},
		{name: "within the grace", chs: Channels{
			ChannelHooks: {Last: at(-2), End: at(-2)}, ChannelTelemetry: {Last: at(-16), End: at(-16)}}},
		{name: "a hooked tool call in flight", chs: Channels{
			ChannelHooks: {Last: at(-40), Busy: true}, ChannelTelemetry: {Last: at(-1), End: at(-1)}}},
		// A turn a person typed is no wakeup: its transcript is not read.
		{name: "transcript judged by its own due time", chs: Channels{
			ChannelHooks: {Last: at(-1), End: at(-1)}, ChannelTranscript: {Last: at(-120), Due: at(-121)}}},
		{name: "transcript due and silent", chs: Channels{
			ChannelHooks: {Last: at(-1), End: at(-1)}, ChannelTranscript: {Last: at(-120), Due: at(-30)}}, want: Warning, says: "transcript (last at 10:00:00; a turn it had to report ended at 11:30:00)"},
		{name: "an end dated in the future is not believed yet", chs: Channels{
			ChannelHooks: {Last: at(30), End: at(30)}, ChannelTelemetry: {Last: at(-65), End: at(-65)}}},
	} {
		r, _ := Evaluate(now, scan.Snapshot{}, Config{Channels: c.chs, Loc: time.UTC}, State{})
		f, _ := r.Finding(ChannelSilent)
		if f.Level != c.want || !strings.Contains(f.Message, c.says) || f.Notice != "" {
			t.Errorf("%s: %v %q (notice %q), want %v saying %q", c.name, f.Level, f.Message, f.Notice, c.want, c.says)
		}
	}
}
