// Package shellparse turns bash text into the commands that would run.
//
// [Parse] reads a program with mvdan.cc/sh/v3 in the bash dialect and walks
// it in the order bash would execute it, returning every command that could
// run: in lists, pipelines, background jobs, subshells, groups and every
// compound command; in command and process substitutions wherever they
// appear (arguments, assignments, redirection targets, ${…} operands,
// arithmetic, [[ ]], case words, for lists, unquoted heredoc bodies); in
// functions, at the point they are called; in code given as text to eval,
// trap, alias, sh -c and its relatives, and in literal text fed to a shell
// on its standard input; and behind wrappers (env, sudo, timeout, xargs,
// find -exec, …; see wrappers.go), each layer reported.
//
// Words are resolved statically the way bash would (quote removal, $'…',
// escapes, brace expansion, tilde, field splitting of known values, literal
// assignments made earlier in the same text, HOME/PWD/TMPDIR from the real
// environment); what only the running shell could know becomes a hole in a
// [word.Word]. The working directory is followed through cd and pushd.
//
// Code the guard cannot see (a script file, code read from a pipe, a
// dynamic eval, an interpreter's inline program, data that bash would
// evaluate as code) is reported as a [Cmd] whose Opaque field says what is
// hidden; it is never silently dropped.
//
// Parse refuses input it cannot read reliably: a syntax error, input larger
// than the documented limit, and the constructs where mvdan/sh and bash are
// known to disagree (the D1–D5 table of docs/bash-facts.md). It never returns
// a partial reading together with an error.
//
// A long text is parsed on another goroutine while it is walked (see
// stream.go); the result is the same as parsing it whole first. A caller
// may take the commands as they are settled, after each top-level
// statement (Options.Committed), to judge them while the walk goes on.
// Parse is safe for concurrent use.
package shellparse
