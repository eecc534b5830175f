// Package argspec knows how programs read their arguments.
//
// A [Spec] describes a program's options in a compact notation (see
// [Parse]); [Normalize] reads an argv the way that program would: short
// option clusters (-rf = -fr = -r -f), long options and their unambiguous
// abbreviations (--recur), --opt=value = --opt value, options after
// operands where the program permutes them (GNU rm ~ -rf), -- ending
// options, and global options before a subcommand (git -C dir -c k=v reset
// --hard). Every option is reported under one canonical name, so a rule
// written once matches every spelling.
//
// Words that are not known until run time are kept as [word.Word]s. A
// dynamic word that could begin with '-' where an option may stand makes
// the reading open ([Cmd.Open]): it could be any option. An unquoted
// expansion that may split into several words makes the rest of the argv
// open as well. Callers must treat open readings as "could be anything" for
// deny and ask, and never as satisfying allow.
//
// [Effects] reports which paths a normalised command reads or writes, from a
// catalogue of common programs (rm, cp, mv, tee, sed -i, tar -x, dd of=,
// git checkout --, find -delete, …). A program without an entry has no
// known effects; its operands are reported as possible paths of unknown
// access so path rules can still ask about them.
//
// Some programs carry a language of their own, read here as the program
// reads it: [ReadSed] follows GNU sed 4.9's compiler, [ReadAwk] and
// [AwkProgram] the awk language as gawk, mawk and the one true awk lex it.
// They report every command the script hands to /bin/sh and every file it
// writes or reads, literal or "built at run time", and say when a script
// cannot be read with certainty. A differential against the real programs
// with recording stubs (scriptdiff_test.go, FuzzSedScript, FuzzAwkProgram)
// checks that nothing they run or create goes unreported.
//
// Build tools, package managers, test runners and version control (the
// class [BuildTool]) run the project's own code, and their argv and
// environment can add code of their own: git rebase --exec, npm exec,
// make's variables, go -toolexec, cargo --config, pytest -p, GOFLAGS,
// npm_config_*. Each such program is one record of the buildTools table
// (carried.go; an ecosystem's readers in carried_NAME.go), and that table
// is the class: no other list of them exists. The contract with the
// walker: [ReadCarried] reads a command's argv and [CarriedEnv] a
// variable the text sets, wherever it sets it; both report to a
// [CarrySink], which the walker implements in the scope the command runs
// in. A reader never judges: it names shell code to walk (Shell), a
// command the program runs as a part of its own (Argv), a variable the
// program sets for what it runs (Setenv), or code it cannot read
// (Opaque, which asks), and it asks the sink only where the command runs,
// which directories the text could have filled, and what the inherited
// environment and file system hold. What a reader reports is a part
// judged like any command, whatever rule allows the program itself.
package argspec
