package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The analysis never starts the guard again: the directory whose bash is
// the guard is left off the interpreter's PATH, and a guard inside an
// analysis does not analyse.
func TestPythonAnalysisEnviron(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	link := t.TempDir()
	if err := os.Symlink(self, filepath.Join(link, "bash")); err != nil {
		t.Fatal(err)
	}
	e := newEnv(nil, nil, nil, nil, []string{"PATH=" + link + ":/usr/bin", "HOME=/h"})
	var path, mark string
	for _, kv := range analysisEnviron(e) {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
		if v, ok := strings.CutPrefix(kv, pycodeVar+"="); ok {
			mark = v
		}
	}
	if path != "/usr/bin" || mark != "1" {
		t.Errorf("PATH=%q %s=%q, want /usr/bin and 1", path, pycodeVar, mark)
	}
	if pythonAnalyser(e, nil) == nil {
		t.Error("no analyser outside an analysis")
	}
	inner := newEnv(nil, nil, nil, nil, []string{"PATH=/usr/bin", pycodeVar + "=1"})
	if a := pythonAnalyser(inner, nil); a != nil {
		t.Errorf("an analyser inside an analysis: %v", a)
	}
}
