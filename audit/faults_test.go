package audit

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s blocks", what)
	}
}

func TestFIFOLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	l := &Log{Path: path}
	var err error
	within(t, "Append to a FIFO", func() { err = l.Append(rec("ls")) })
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Append to a FIFO = %v, want an error (the record would be lost)", err)
	}
	within(t, "Read of a FIFO", func() { err = Read(path, func(Record) error { return nil }) })
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Read of a FIFO = %v, want an error", err)
	}
}

// A log of any size is read in bounded memory: a sparse 2 GiB file (NUL
// bytes, no line end) is one line, skipped as corrupt, and records around
// an over-long line are read.
func TestReadBoundedMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := &Log{Path: path, MaxBytes: -1}
	l.Append(rec("before"))
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(strings.Repeat("x", MaxLineBytes+100) + "\n")
	fi, _ := f.Stat()
	f.Truncate(fi.Size() + 2<<30) // a hole: NUL bytes
	f.Close()
	f, _ = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("\n")
	f.Close()
	l.Append(rec("after"))
	var got []string
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	err := Read(path, func(r Record) error { got = append(got, r.Command); return nil })
	runtime.ReadMemStats(&b)
	var ce *CorruptError
	if strings.Join(got, ",") != "before,after" || !errors.As(err, &ce) || ce.Skipped != 2 {
		t.Errorf("got %v, %v; want before,after and 2 lines skipped", got, err)
	}
	if n := b.TotalAlloc - a.TotalAlloc; n > 4*MaxLineBytes {
		t.Errorf("reading allocated %d MiB", n>>20)
	}
}
