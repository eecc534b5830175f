package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/install"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/pycode"
	"github.com/guard-exec/guard-exec/shellparse"
)

// pycodeVar marks the environment of the interpreter the Python analysis
// starts. A guard that finds it (a version manager's shim is a bash
// script, and bash may be this guard) does not analyse Python again, so
// analyses never start one another.
const pycodeVar = "GUARD_EXEC_PYCODE"

// pythonAnalyser reads the code of python commands with the interpreter
// found on the guard's PATH. It refuses interpreters in the project and
// the temporary directories: the code judged could have put them there.
// Inside an analysis it returns nil: Python code stays opaque.
func pythonAnalyser(e *env, pol *policy.Policy) shellparse.PythonAnalyser {
	if e.get(pycodeVar) != "" {
		return nil // an untyped nil: no analyser at all
	}
	a := &pycode.Analyser{Getenv: e.get, Environ: sync.OnceValue(func() []string { return analysisEnviron(e) })}
	if d := e.stateDir(); d != "" {
		// Under the state directory, which no judged command may write.
		a.CacheDir = filepath.Join(d, "pycode")
	}
	if pol != nil && pol.Env != nil {
		a.Untrusted = append([]string{pol.Env.Project}, pol.Env.Temp...)
	}
	return a
}

// analysisEnviron is the guard's environment without the PATH
// directories whose bash or sh is this guard (guard-exec run puts one
// first), so that a shim's #!/usr/bin/env bash runs the real bash.
func analysisEnviron(e *env) []string {
	self, err := os.Executable()
	if err == nil {
		if r, err := filepath.EvalSymlinks(self); err == nil {
			self = r
		}
	}
	var dirs []string
	for _, d := range filepath.SplitList(e.get("PATH")) {
		guard := false
		for _, sh := range install.ShimNames {
			if r, err := filepath.EvalSymlinks(filepath.Join(d, sh)); err == nil && self != "" && r == self {
				guard = true
			}
		}
		if !guard {
			dirs = append(dirs, d)
		}
	}
	out := make([]string, 0, len(e.list)+1)
	for _, kv := range e.list {
		if strings.HasPrefix(kv, "PATH=") || strings.HasPrefix(kv, pycodeVar+"=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+strings.Join(dirs, string(os.PathListSeparator)), pycodeVar+"=1")
}
