package state

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

// within fails the test instead of hanging when fn blocks: a FIFO read the
// old way waits for a writer forever.
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

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// special replaces path with a FIFO, a link to /dev/zero, or a sparse
// file of 2 GiB of NUL bytes (no line ends).
func special(t *testing.T, path, kind string) {
	t.Helper()
	os.Remove(path)
	os.MkdirAll(filepath.Dir(path), 0o700)
	var err error
	switch kind {
	case "fifo":
		err = unix.Mkfifo(path, 0o600)
	case "zero":
		err = os.Symlink("/dev/zero", path)
	case "sparse":
		if err = os.WriteFile(path, nil, 0o600); err == nil {
			err = os.Truncate(path, 2<<30)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestApprovalsFromSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sessions", "s1.jsonl")
	for _, kind := range []string{"fifo", "zero", "sparse"} {
		special(t, path, kind)
		var got []Approval
		var err error
		n := allocated(func() { within(t, "Approvals from a "+kind, func() { got, err = Approvals(dir, "s1") }) })
		if len(got) != 0 || err == nil {
			t.Errorf("%s: %v, %v; want no approvals and an error", kind, got, err)
		}
		if n > 4*maxSessionBytes {
			t.Errorf("%s: reading allocated %d bytes", kind, n)
		}
		// Appending to it is refused, not lost in a pipe.
		if kind != "sparse" {
			var aerr error
			within(t, "AppendApproval to a "+kind, func() { aerr = AppendApproval(dir, "s1", Approval{Rule: "r"}) })
			if aerr == nil || !strings.Contains(aerr.Error(), "not a regular file") {
				t.Errorf("%s: AppendApproval = %v, want a refusal", kind, aerr)
			}
		}
	}
}

func TestApprovalsOfALargeFileReadItsEnd(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sessions", "s1.jsonl")
	special(t, path, "sparse")
	if err := AppendApproval(dir, "s1", Approval{Rule: "old"}); err != nil {
		t.Fatal(err)
	}
	// Grow it so that the first approval falls outside the part read.
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(strings.Repeat("\n", maxSessionBytes))
	f.Close()
	if err := AppendApproval(dir, "s1", Approval{Rule: "new"}); err != nil {
		t.Fatal(err)
	}
	var got []Approval
	var err error
	n := allocated(func() { got, err = Approvals(dir, "s1") })
	var tl *TooLargeError
	if len(got) != 1 || got[0].Rule != "new" || !errors.As(err, &tl) || tl.Size < 2<<30 {
		t.Fatalf("got %+v, %v; want the newest approval and a *TooLargeError", got, err)
	}
	if n > 4*maxSessionBytes {
		t.Errorf("reading allocated %d bytes", n)
	}
	// A line cut by the start of the part read is dropped, not read as a
	// shorter line that might parse.
	os.WriteFile(path, []byte(`{"rule":"cut","time":"2026-01-01T00:00:00Z","command":"`+strings.Repeat("x", maxSessionBytes)+`"}`+"\n"), 0o600)
	if got, err := Approvals(dir, "s1"); len(got) != 0 || !errors.As(err, &tl) {
		t.Errorf("cut line: %+v, %v", got, err)
	}
}

func TestFirstReport(t *testing.T) {
	dir := t.TempDir()
	if err := AppendApproval(dir, "s1", Approval{Rule: "r"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sessions", "s1.jsonl")
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("not json\n")
	f.Close()
	var said []bool
	for range 3 {
		_, err := Approvals(dir, "s1")
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("err = %v", err)
		}
		said = append(said, FirstReport(dir, "s1", err))
	}
	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("more garbage\n")
	f.Close()
	_, err := Approvals(dir, "s1")
	said = append(said, FirstReport(dir, "s1", err), FirstReport(dir, "s2", err), FirstReport(dir, "s1", nil))
	if want := []bool{true, false, false, true, true, false}; !equalBools(said, want) {
		t.Errorf("reported %v, want %v (once, again when it changes, once per session)", said, want)
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestTrustFromSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "p.toml")
	for _, kind := range []string{"fifo", "zero", "sparse"} {
		special(t, trustPath(dir), kind)
		var ok bool
		var err error
		n := allocated(func() { within(t, "IsTrusted from a "+kind, func() { ok, err = IsTrusted(dir, proj, []byte("x")) }) })
		if ok || !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, %v; want untrusted and ErrCorrupt", kind, ok, err)
		}
		if n > 2*maxTrustBytes {
			t.Errorf("%s: reading allocated %d bytes", kind, n)
		}
		// Trusting again replaces a file too large, as it does a corrupt
		// one, and refuses to replace anything but a file. (A link to
		// /dev/zero is never written to here: a failure would replace
		// the device.)
		if kind == "zero" {
			continue
		}
		within(t, "Trust over a "+kind, func() { err = Trust(dir, proj, []byte("x")) })
		if kind == "fifo" {
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("Trust over a FIFO = %v, want a refusal", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := IsTrusted(dir, proj, []byte("x")); !ok || err != nil {
			t.Errorf("%s: after trust: %v, %v", kind, ok, err)
		}
	}
}
