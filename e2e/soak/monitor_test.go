//go:build soak

package soak

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// pulseRec is one pulse as the status stream told it.
type pulseRec struct {
	PID        int
	Count      int64
	At         time.Time // pulse_at
	Seen       time.Time
	CapUsed    int
	CapLimit   int
	CapDay     string
	Inactivity string     // its level
	Next       *time.Time // the schedule's next wakeup, as promised
	InFlight   bool
}

// scanRec is one look at /proc: the agent runs' process groups alive.
type scanRec struct {
	At     time.Time
	Groups []int
}

type memRec struct {
	PID          int
	At           time.Time
	RSS, Anon    int64 // KiB
	HeapInuseKiB int64 // from /metrics, 0 when not read this time
}

// sseLoop follows the watchdog's status stream (/api/v1/events) until
// stop: every pulse, with its exact time.
func (s *soak) sseLoop(pid int, stop chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-stop; cancel() }()
	for ctx.Err() == nil {
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+s.addr+"/api/v1/events", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				event = v
				continue
			}
			v, ok := strings.CutPrefix(line, "data: ")
			if !ok || event != "status" {
				continue
			}
			var st struct {
				PID      int       `json:"pid"`
				PulseAt  time.Time `json:"pulse_at"`
				Chambers struct {
					Pulse struct {
						Count int64 `json:"count"`
					} `json:"pulse"`
					Schedule struct {
						NextWakeup *time.Time `json:"next_wakeup"`
						InFlight   bool       `json:"in_flight"`
					} `json:"schedule"`
				} `json:"chambers"`
				DailyCap struct {
					Day   string `json:"day"`
					Used  int    `json:"used"`
					Limit int    `json:"limit"`
				} `json:"daily_cap"`
				Checks map[string]struct {
					Level string `json:"level"`
				} `json:"checks"`
			}
			if json.Unmarshal([]byte(v), &st) != nil || st.PID != pid {
				continue
			}
			s.mu.Lock()
			n := len(s.pulses)
			if n == 0 || s.pulses[n-1].PID != pid || s.pulses[n-1].Count != st.Chambers.Pulse.Count {
				s.pulses = append(s.pulses, pulseRec{PID: pid, Count: st.Chambers.Pulse.Count, At: st.PulseAt, Seen: time.Now(),
					CapUsed: st.DailyCap.Used, CapLimit: st.DailyCap.Limit, CapDay: st.DailyCap.Day, Inactivity: st.Checks["inactivity"].Level, Next: st.Chambers.Schedule.NextWakeup, InFlight: st.Chambers.Schedule.InFlight})
			}
			s.mu.Unlock()
		}
		resp.Body.Close()
	}
}

// memLoop samples the watchdog's memory: RSS and anonymous RSS every 2 s,
// the Go heap in use (/metrics) every 10 s.
func (s *soak) memLoop(pid int, stop chan struct{}) {
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		r := memRec{PID: pid, At: time.Now()}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			f := strings.Fields(l)
			if len(f) < 2 {
				continue
			}
			n, _ := strconv.ParseInt(f[1], 10, 64)
			switch f[0] {
			case "VmRSS:":
				r.RSS = n
			case "RssAnon:":
				r.Anon = n
			}
		}
		if i%5 == 0 {
			r.HeapInuseKiB = heapInuse(s.addr)
		}
		s.mu.Lock()
		s.mem = append(s.mem, r)
		s.mu.Unlock()
	}
}

func heapInuse(addr string) int64 {
	c := http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get("http://" + addr + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "go_memstats_heap_inuse_bytes "); ok {
			f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return int64(f) / 1024
		}
	}
	return 0
}

// scanLoop looks at /proc every 150 ms until the soak ends: which agent
// runs' process groups have a live process (the leader, its tool child,
// its mcp-heart).
func (s *soak) scanLoop() {
	for time.Since(s.begin) < s.dur+time.Minute {
		s.mu.Lock()
		for _, p := range agentLeaders() {
			if g, _, ok := procStat(p); ok {
				s.known[g] = true
			}
		}
		known := maps.Clone(s.known)
		s.mu.Unlock()
		alive := map[int]bool{}
		dirs, _ := filepath.Glob("/proc/[0-9]*")
		for _, d := range dirs {
			pid, _ := strconv.Atoi(filepath.Base(d))
			if g, _, ok := procStat(pid); ok && known[g] {
				alive[g] = true
			}
		}
		rec := scanRec{At: time.Now()}
		for g := range alive {
			rec.Groups = append(rec.Groups, g)
		}
		s.mu.Lock()
		s.scans = append(s.scans, rec)
		s.mu.Unlock()
		select {
		case <-s.done:
			return
		default:
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// procStat reads a live process's group and state from /proc/<pid>/stat.
func procStat(pid int) (pgrp int, state string, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, "", false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, "", false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
		return 0, "", false
	}
	g, err := strconv.Atoi(f[2])
	return g, f[0], err == nil
}

// agentLeaders lists the live stand-in agents.
func agentLeaders() []int { return otherAgents(0) }

// startTheme starts the theme the agent's activity logs go into.
func startTheme(t *testing.T, ws string) string {
	c, err := client.NewStdioMCPClient(filepath.Join(binDir, "mcp-heart"), nil, "--workspace", ws)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "soak", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	call := mcp.CallToolRequest{}
	call.Params.Name = "start_theme"
	call.Params.Arguments = map[string]any{"theme_name": "Soak", "theme_directory_part": "soak", "reason": "a week alone"}
	res, err := c.CallTool(ctx, call)
	if err != nil || res.IsError {
		t.Fatalf("start_theme: %v %v", err, res)
	}
	m, _ := res.StructuredContent.(map[string]any)
	id, _ := m["theme_start_id"].(string)
	if id == "" {
		t.Fatalf("start_theme gave no theme_start_id: %v", m)
	}
	return id
}

// smallDisk mounts a 64 MiB tmpfs for the workspace and the state folder,
// so the soak can fill it; where that is impossible the soak runs on the
// temp folder and says the full-disk faults are skipped.
func (s *soak) smallDisk(root string) string {
	mnt := filepath.Join(root, "disk")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		s.t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		s.diskNote = "not root: no tmpfs to fill, the full-disk faults are skipped"
		return mnt
	}
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=64m"); err != nil {
		s.diskNote = "cannot mount a tmpfs (" + err.Error() + "): the full-disk faults are skipped"
		return mnt
	}
	s.t.Cleanup(func() { _ = syscall.Unmount(mnt, syscall.MNT_DETACH) })
	return mnt
}

// brokerOrNil starts mosquitto on loopback when it is installed.
func brokerOrNil(t *testing.T) *testutil.Broker {
	if _, err := os.Stat(testutil.MosquittoBinary); err != nil {
		return nil
	}
	return testutil.Mosquitto(t, nil)
}
