package workspace

import (
	"reflect"
	"testing"
	"time"
)

func TestParseCheckpoints(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []CheckpointEntry
	}{
		{"empty", "", nil},
		{"blank lines", "\n \n", nil},
		{"one line", "12:00:00 writing the parser\n", []CheckpointEntry{{"12:00:00", "writing the parser"}}},
		{"no trailing newline", "12:00:00 a", []CheckpointEntry{{"12:00:00", "a"}}},
		{"two lines", "12:00:00 a\n12:05:00 b\n", []CheckpointEntry{{"12:00:00", "a"}, {"12:05:00", "b"}}},
		{"tab separator", "12:00:00\ta\n", []CheckpointEntry{{"12:00:00", "a"}}},
		{"CRLF", "12:00:00 a\r\n12:05:00 b\r\n", []CheckpointEntry{{"12:00:00", "a"}, {"12:05:00", "b"}}},
		{"clock without message", "12:00:00 a\n12:05:00\n", []CheckpointEntry{{"12:00:00", "a"}, {"12:05:00", ""}}},
		{"clock without message only", "12:05:00 \n", []CheckpointEntry{{"12:05:00", ""}}},
		{"legacy free text", "working on the parser\nstill working\n", []CheckpointEntry{{"", "working on the parser still working"}}},
		{"legacy japanese", "パーサーを書いている", []CheckpointEntry{{"", "パーサーを書いている"}}},
		{"legacy then new", "old text\n12:00:00 new\n", []CheckpointEntry{{"", "old text"}, {"12:00:00", "new"}}},
		{"continuation line", "12:00:00 a\nmore of a\n12:05:00 b\n", []CheckpointEntry{{"12:00:00", "a more of a"}, {"12:05:00", "b"}}},
		{"not a clock", "1:00:00 a\n", []CheckpointEntry{{"", "1:00:00 a"}}},
		{"letters in clock", "ab:cd:ef a\n", []CheckpointEntry{{"", "ab:cd:ef a"}}},
		{"no separator after clock", "12:00:00a\n", []CheckpointEntry{{"", "12:00:00a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseCheckpoints([]byte(tt.in))
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseCheckpoints(%q) = %#v, want %#v", tt.in, got, tt.want)
			}
		})
	}
}

func TestLastCheckpointMessage(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"new", "12:00:00 a\n12:05:00 b\n", "b"},
		{"legacy", "just text", "just text"},
		{"legacy then new", "old\n12:00:00 new", "new"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LastCheckpointMessage([]byte(tt.in)); got != tt.want {
				t.Fatalf("LastCheckpointMessage(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestAppendCheckpoint(t *testing.T) {
	at := time.Date(2025, 1, 1, 9, 5, 7, 0, time.UTC)
	tests := []struct {
		name, existing, msg, want, last string
	}{
		{"first", "", "a", "09:05:07 a\n", "a"},
		{"second", "09:00:00 a\n", "b", "09:00:00 a\n09:05:07 b\n", "b"},
		{"existing without newline", "09:00:00 a", "b", "09:00:00 a\n09:05:07 b\n", "b"},
		{"legacy kept", "free text\r\nmore", "b", "free text\r\nmore\n09:05:07 b\n", "b"},
		{"message forging a line", "", "x\n10:00:00 forged", "09:05:07 x 10:00:00 forged\n", "x 10:00:00 forged"},
		{"empty message", "09:00:00 a\n", "\n", "09:00:00 a\n09:05:07 \n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(AppendCheckpoint([]byte(tt.existing), at, tt.msg))
			if got != tt.want {
				t.Fatalf("AppendCheckpoint(%q, %v, %q) = %q, want %q", tt.existing, at, tt.msg, got, tt.want)
			}
			if last := LastCheckpointMessage([]byte(got)); last != tt.last {
				t.Fatalf("LastCheckpointMessage(%q) = %q, want %q", got, last, tt.last)
			}
		})
	}
}
