package shellparse

import (
	"testing"

	"github.com/guard-exec/guard-exec/argspec"
)

// TestClassesAsArgspec: the walk's cached classes answer what argspec.Is
// answers, for every class and names of each kind, asked in any order.
func TestClassesAsArgspec(t *testing.T) {
	names := []string{"ls", "cat", "env", "nice", "sudo", "xargs", "ssh", "bash", "sh", "dash", "zsh", "fish", "pwsh",
		"python3", "node", "perl", "awk", "make", "npm", "go", "git", "cargo", "find", "tar", "rsync", "exec", "eval",
		"command", "builtin", "time", "timeout", "nohup", "watch", "docker", "kubectl", "nosuchprogram", ""}
	w := newWalker(Options{})
	for round := 0; round < 2; round++ {
		for _, n := range names {
			for c := argspec.Class(1); c != 0 && c <= argspec.BuildTool<<1; c <<= 1 {
				for _, want := range []argspec.Class{c, c | argspec.ForeignShell, c | argspec.Wrapper} {
					if got, is := w.is(n, want), argspec.Is(n, want); got != is {
						t.Errorf("%q, classes %b: %v, argspec says %v", n, want, got, is)
					}
				}
			}
		}
	}
}
