package state

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

func TestMarkGuarded(t *testing.T) {
	dir := t.TempDir()
	if err := MarkGuarded(dir, os.Getpid()); err != nil {
		t.Fatal(err)
	}
	gd := guardedDir(dir)
	id := onlyMark(t, gd)
	mark, err := os.Stat(filepath.Join(gd, id))
	if err != nil {
		t.Fatalf("no mark %s: %v", id, err)
	}
	target, err := os.Stat(filepath.Join(gd, markTarget))
	if err != nil || !os.SameFile(mark, target) {
		t.Errorf("the mark is not a link to %s (%v)", markTarget, err)
	}

	// A child of this process is under a guard; a process elsewhere is not.
	if out, err := helper(t, dir); err != nil || string(out) != "true" {
		t.Errorf("child of a marked process: UnderGuard = %s (%v), want true", out, err)
	}
	if UnderGuard(t.TempDir()) {
		t.Error("UnderGuard with no marks = true")
	}

	// The sweep drops marks of processes that are gone (or started after
	// the mark: the id was reused) and other names, and keeps the live
	// one and the target.
	stale := []string{"999999999-5", strconv.Itoa(os.Getpid()) + "-1", "junk"}
	for _, s := range stale {
		if err := os.Link(filepath.Join(gd, markTarget), filepath.Join(gd, s)); err != nil {
			t.Fatal(err)
		}
	}
	sweepGuarded(gd)
	for _, s := range stale {
		if _, err := os.Lstat(filepath.Join(gd, s)); err == nil {
			t.Errorf("stale mark %s survived the sweep", s)
		}
	}
	for _, s := range []string{id, markTarget} {
		if _, err := os.Lstat(filepath.Join(gd, s)); err != nil {
			t.Errorf("the sweep removed %s", s)
		}
	}
}

// TestMarkGuardedWithoutTarget: a mark still lands when the target cannot
// be linked (here: it is a directory), as a file of its own.
func TestMarkGuardedWithoutTarget(t *testing.T) {
	dir := t.TempDir()
	gd := guardedDir(dir)
	if err := os.MkdirAll(filepath.Join(gd, markTarget), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := MarkGuarded(dir, os.Getpid()); err != nil {
		t.Fatal(err)
	}
	id := onlyMark(t, gd)
	if fi, err := os.Stat(filepath.Join(gd, id)); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("no mark file: %v", err)
	}
}

// onlyMark returns the name of the one mark in gd.
func onlyMark(t *testing.T, gd string) string {
	t.Helper()
	marks := readMarks(gd)
	if len(marks[os.Getpid()]) != 1 || len(marks) != 1 {
		t.Fatalf("marks %v, want one of pid %d", marks, os.Getpid())
	}
	return strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(marks[os.Getpid()][0], 10)
}

// TestMarkedBy: a mark belongs to the process that started at or before
// it, not to one that reused the id later.
func TestMarkedBy(t *testing.T) {
	const tick = 1e9 / ticksPerSecond
	mark := []int64{500*tick + 3}
	for _, c := range []struct {
		start uint64
		want  bool
	}{{400, true}, {500, true}, {501, false}, {9000, false}} {
		if got := markedBy(mark, c.start); got != c.want {
			t.Errorf("mark at tick 500: process started at tick %d marked = %v, want %v", c.start, got, c.want)
		}
	}
	if markedBy(nil, 1) {
		t.Error("no marks, yet marked")
	}
}

// TestUnderGuardIgnoresOthers: marks of other processes and of an
// earlier holder of a parent's id do not count.
func TestUnderGuardIgnoresOthers(t *testing.T) {
	dir := t.TempDir()
	gd := guardedDir(dir)
	os.MkdirAll(gd, 0o700)
	for _, name := range []string{"999999999-14294967295", strconv.Itoa(os.Getpid()) + "-1"} {
		os.WriteFile(filepath.Join(gd, name), nil, 0o600)
	}
	if out, err := helper(t, dir); err != nil || string(out) != "false" {
		t.Errorf("UnderGuard = %s (%v), want false", out, err)
	}
}

func helper(t *testing.T, dir string) ([]byte, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestUnderGuardHelper$")
	cmd.Env = append(os.Environ(), "STATE_TEST_UNDER_GUARD="+dir)
	return cmd.Output()
}

func TestUnderGuardHelper(t *testing.T) {
	dir := os.Getenv("STATE_TEST_UNDER_GUARD")
	if dir == "" {
		t.Skip("helper process for TestMarkGuarded")
	}
	os.Stdout.WriteString(strconv.FormatBool(UnderGuard(dir)))
	os.Exit(0)
}
