package difftest

// The guard under test is built by TestMain with `go build`, which the go
// command's test cache cannot see. Importing the packages it is made of
// makes a change to them invalidate cached results of this test.
import (
	_ "github.com/guard-exec/guard-exec/audit"
	_ "github.com/guard-exec/guard-exec/bashcli"
	_ "github.com/guard-exec/guard-exec/install"
	_ "github.com/guard-exec/guard-exec/judge"
	_ "github.com/guard-exec/guard-exec/prompt"
	_ "github.com/guard-exec/guard-exec/state"
)
