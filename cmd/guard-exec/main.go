// The runtime starts a goroutine that follows changes of the container's
// CPU limit to update GOMAXPROCS, once a second: a guard process lives a
// few milliseconds, and starting it cost about 1% of a hook's answer.
//
//go:debug updatemaxprocs=0

// Command guard-exec stands in for bash: it judges every command a program
// would run against allow/ask/deny rules, and only then replaces itself
// with the real shell, running the exact original arguments.
//
// See README.md for usage, the configuration format and exit statuses
// (defined in exit.go).
package main

import (
	"fmt"
	"os"

	"github.com/guard-exec/guard-exec/bashcli"
)

func main() {
	collectGarbage() // only past a limit (gc.go)
	code, ex := run(os.Args, os.Stdin, os.Stdout, os.Stderr, os.Environ())
	if ex != nil {
		err := bashcli.Exec(ex.path, ex.argv, ex.env)
		fmt.Fprintf(os.Stderr, "guard-exec: error: cannot start the shell %s: %v\n", ex.path, err)
		fmt.Fprintf(os.Stderr, "guard-exec: hint: set shell = \"/abs/path\" in the config or GUARD_EXEC_SHELL to a working bash\n")
		os.Exit(ExitCannotRun)
	}
	os.Exit(code)
}
