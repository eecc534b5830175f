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
	id, err := procID("/proc", os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	gd := guardedDir(dir)
	mark, err := os.Stat(filepath.Join(gd, id))
	if err != nil {
		t.Fatalf("no mark %s: %v", id, err)
	}
	target, err := os.Stat(filepath.Join(gd, markTarget))
	if err != nil || !os.SameFile(mark, target) {
		t.Errorf("the mark is not a link to %s (%v)", markTarget, err)
	}
	// Marking again is not an error.
	if err := MarkGuarded(dir, os.Getpid()); err != nil {
		t.Errorf("second mark: %v", err)
	}

	// A child of this process is under a guard; a process elsewhere is not.
	if out, err := helper(t, dir); err != nil || string(out) != "true" {
		t.Errorf("child of a marked process: UnderGuard = %s (%v), want true", out, err)
	}
	if UnderGuard(t.TempDir()) {
		t.Error("UnderGuard with no marks = true")
	}

	// The sweep drops marks of processes that are gone (or started at
	// another time) and keeps the live one and the target.
	stale := []string{"999999999-5", strconv.Itoa(os.Getpid()) + "-1"}
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
	id, _ := procID("/proc", os.Getpid())
	if fi, err := os.Stat(filepath.Join(gd, id)); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("no mark file: %v", err)
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
