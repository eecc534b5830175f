package main

import (
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/pycode"
)

// pythonAnalyser reads the code of python commands with the interpreter
// found on the guard's PATH. It refuses interpreters in the project and
// the temporary directories: the code judged could have put them there.
func pythonAnalyser(e *env, pol *policy.Policy) *pycode.Analyser {
	a := &pycode.Analyser{Getenv: e.get, Environ: e.list}
	if pol != nil && pol.Env != nil {
		a.Untrusted = append([]string{pol.Env.Project}, pol.Env.Temp...)
	}
	return a
}
