package argspec

import (
	"slices"
	"strings"
	"sync"
)

// Class says what kind of program a name is, for every layer that treats
// kinds alike: the walker (which programs run a command or code of their
// own), the built-in rules (what is allowed by default) and the remember
// logic (what an approval may be widened to). A program may be of several
// classes (env is read-only and a wrapper). A name of no class keeps the
// conservative treatment: no rule, so a question.
type Class uint16

const (
	// ReadOnly programs only read or print. Options that make one write
	// or run code are covered by more specific rules, or by path effects
	// (sort -o, sed -i).
	ReadOnly Class = 1 << iota
	// Writer programs change files; where they write is a path effect.
	Writer
	// Wrapper programs run their operand as a command (env, nice, sudo,
	// xargs, ssh): the walker reads it with Wrapped.
	Wrapper
	// Carrier wrappers do nothing else worth asking about: the built-in
	// rules allow them, and the command they run is judged on its own.
	// sudo, su, chroot and ssh are wrappers but not carriers.
	Carrier
	// Shell programs read bash's grammar (bash, sh, dash, zsh, ksh, …):
	// the walker reads their code.
	Shell
	// ForeignShell programs are shells of another language (fish, csh,
	// pwsh, …): their code is not read, so it is always a question.
	ForeignShell
	// Interpreter programs run code of another language (python, node,
	// perl, awk, …); Interpreters says which options carry it.
	Interpreter
	// Exact programs run whatever their arguments say, so an approval of
	// one is remembered for the exact argv only. Wrappers, shells and
	// interpreters are exact too (RememberExactly).
	Exact
	// BuildTool programs (build tools, package managers, test runners,
	// version control) run the project's own code, and code their argv or
	// environment adds is read by their record of buildTools (carried.go):
	// the walker reads it with ReadCarried.
	BuildTool
)

// ClassOf returns the classes of a program by its base name.
func ClassOf(prog string) Class { return classOf(prog, ^Class(0)) }

// Is reports whether prog is of any of the classes in c. It looks only at
// the lists of those classes: the walker asks it of every command.
func Is(prog string, c Class) bool { return classOf(prog, c) != 0 }

// classOf returns prog's classes among those in want.
func classOf(prog string, want Class) Class {
	var c Class
	for _, l := range classLists {
		if l.class&want != 0 && slices.Contains(l.names, prog) {
			c |= l.class
		}
	}
	if want&(Wrapper|Carrier) != 0 {
		if _, ok := wrappers()[prog]; ok {
			c |= Wrapper
			if !slices.Contains(notCarriers, prog) {
				c |= Carrier
			}
		}
	}
	if want&Shell != 0 && ShellGrammars(prog) != nil {
		c |= Shell
	}
	if want&Interpreter != 0 {
		if _, _, ok := InterpreterOf(prog); ok {
			c |= Interpreter
		}
	}
	if want&BuildTool != 0 && buildToolOf(prog) != nil {
		c |= BuildTool
	}
	return c & want
}

// RememberExactly reports whether an approval of prog must be remembered
// for the exact argv only: it runs whatever its arguments say.
func RememberExactly(prog string) bool {
	return Is(prog, Exact|Wrapper|Shell|ForeignShell|Interpreter)
}

// Names lists the programs of class c from the lists below (not the
// python versions, which are recognised by IsPython).
func Names(c Class) []string {
	var out []string
	for _, l := range classLists {
		if l.class&c != 0 {
			out = append(out, l.names...)
		}
	}
	if c&(Wrapper|Carrier) != 0 {
		for p := range wrappers() {
			if c&Wrapper != 0 || !slices.Contains(notCarriers, p) {
				out = append(out, p)
			}
		}
	}
	if c&Shell != 0 {
		for _, sh := range shells {
			out = append(out, sh.name)
		}
	}
	if c&Interpreter != 0 {
		for _, in := range interpreters {
			out = append(out, in.name)
		}
	}
	if c&BuildTool != 0 {
		for _, r := range buildTools {
			out = append(out, r.names...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// classLists are the programs of each class that no table of their own
// (wrappers, interpreters) describes. The lists are searched, not
// indexed: a guard process asks about a handful of programs, and building
// a map of them all costs more than all its lookups.
var classLists = [...]struct {
	class Class
	names []string
}{
	{ReadOnly, []string{
		"ls", "dir", "vdir", "cat", "tac", "head", "tail", "less", "more", "wc", "nl", "od", "xxd", "hexdump",
		"strings", "file", "stat", "du", "df", "tree", "realpath", "readlink", "basename", "dirname", "pwd",
		"grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "cut", "tr", "paste", "join", "comm", "diff",
		"cmp", "sort", "uniq", "rev", "fold", "fmt", "column", "expand", "unexpand", "look", "tsort",
		"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum",
		"shasum", "base64", "base32", "jq", "yq", "bat", "batcat", "zcat", "bzcat", "xzcat", "zless",
		"echo", "printf", "true", "false", ":", "test", "[", "sleep", "date", "cal", "whoami", "id",
		"groups", "who", "w", "last", "uname", "arch", "nproc", "uptime", "free", "ps", "pgrep", "lscpu",
		"lsblk", "findmnt", "lsof", "ss", "netstat", "tty", "locale", "printenv", "env", "getconf", "logname",
		"which", "whereis", "type", "command", "builtin", "hash", "help", "man", "info", "apropos", "seq",
		"expr", "factor", "numfmt", "yes", "find", "fd", "fdfind", "namei", "lsattr", "getfacl",
		"awk", "gawk", "mawk", "nawk", "sed", "xargs", "tput", "clear", "json.tool", "py_compile", "json_pp",
		"tokei", "cloc", "watch",
		// Shell builtins that change only the shell itself; what they
		// run is judged separately (eval, trap, alias values).
		"cd", "pushd", "popd", "dirs", "export", "declare", "local", "readonly", "typeset", "set", "shopt",
		"unset", "unalias", "alias", "read", "mapfile", "readarray", "getopts", "shift", "exit", "return",
		"break", "continue", "let", "eval", "trap", "wait", "jobs", "fg", "bg", "disown", "umask", "times",
		"history", "caller", "compgen", "complete", "enable", "logout",
	}},
	{Writer, []string{
		"touch", "mkdir", "cp", "mv", "ln", "tee", "truncate", "install", "rmdir", "rm", "chmod", "chown",
		"chgrp", "dd", "tar", "unzip", "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd",
		"zip",
		// Formatters that run no project code (prettier loads JavaScript
		// configuration, so it is not here): they rewrite source files.
		"gofmt", "goimports", "shfmt", "clang-format", "black", "rustfmt",
	}},
	{ForeignShell, []string{"fish", "csh", "tcsh", "pwsh", "powershell", "nu", "xonsh", "elvish", "rc"}},
	// Builtins and programs that run their arguments some other way.
	{Exact, []string{"eval", "source", ".", "find", "npx"}},
}

// Grammar is a shell language the walker reads.
type Grammar uint8

const (
	GrammarBash Grammar = iota
	GrammarPOSIX
	GrammarKorn // mksh's, which ksh93 mostly shares
	GrammarZsh
)

// shells are the shells whose code the walker reads, each with the ways
// it may read that code: a name that may be bash in disguise (sh on many
// systems, ksh, zsh where the walker reads a bash-like subset) is read
// both ways, and a command either reading finds is reported.
var shells = [...]struct {
	name     string
	grammars []Grammar
}{
	{"bash", []Grammar{GrammarBash}},
	{"rbash", []Grammar{GrammarBash}},
	{"sh", []Grammar{GrammarPOSIX, GrammarBash}},
	{"dash", []Grammar{GrammarPOSIX}},
	{"ash", []Grammar{GrammarPOSIX}},
	{"posh", []Grammar{GrammarPOSIX}},
	{"yash", []Grammar{GrammarPOSIX, GrammarBash}},
	{"ksh", []Grammar{GrammarKorn, GrammarBash}},
	{"ksh93", []Grammar{GrammarKorn, GrammarBash}},
	{"mksh", []Grammar{GrammarKorn, GrammarBash}},
	{"zsh", []Grammar{GrammarZsh, GrammarBash}},
}

// ShellGrammars returns the grammars the shell prog may read its code
// with, or nil when prog is no shell whose code the walker reads.
func ShellGrammars(prog string) []Grammar {
	for _, sh := range shells {
		if sh.name == prog {
			return sh.grammars
		}
	}
	return nil
}

// notCarriers are wrappers that change who or where the command runs:
// they are never allowed just for running another command.
var notCarriers = []string{"sudo", "doas", "su", "runuser", "chroot", "ssh"}

// Interp describes an interpreter's command line: which options carry
// inline code, which take a value, and whether -m runs a module.
type Interp struct {
	Code   string   // short options whose value is a program ("c", "eE")
	Long   []string // long options whose value is a program
	Valued string   // other short options that take a value
	Module bool     // -m MODULE runs MODULE like a program
}

var interpreters = [...]struct {
	name string
	Interp
}{
	{"python", Interp{Code: "c", Valued: "WXQ", Module: true}},
	{"perl", Interp{Code: "eE"}},
	{"ruby", Interp{Code: "e", Valued: "IrCEFx"}},
	{"node", Interp{Code: "ep", Long: []string{"--eval", "--print"}, Valued: "r"}},
	{"nodejs", Interp{Code: "ep", Long: []string{"--eval", "--print"}, Valued: "r"}},
	{"bun", Interp{Code: "ep", Long: []string{"--eval", "--print"}}},
	{"deno", Interp{Long: []string{"eval"}}},
	{"php", Interp{Code: "rBRE", Valued: "cdfzt"}},
	{"lua", Interp{Code: "e", Valued: "l"}},
	{"luajit", Interp{Code: "e", Valued: "lj"}},
	{"Rscript", Interp{Code: "e", Long: []string{"--expr"}}},
	{"R", Interp{Code: "e"}},
	{"julia", Interp{Code: "eE", Long: []string{"--eval", "--print"}}},
	{"tclsh", Interp{}},
	{"wish", Interp{}},
	{"osascript", Interp{Code: "e", Valued: "ls"}},
	{"pwsh", Interp{Code: "c", Long: []string{"-Command"}}},
	{"awk", Interp{}},
	{"gawk", Interp{}},
	{"mawk", Interp{}},
	{"nawk", Interp{}},
	{"groovy", Interp{Code: "e"}},
	{"scala", Interp{Code: "e"}},
	{"kotlin", Interp{}},
	{"ts-node", Interp{Code: "ep", Long: []string{"--eval", "--print"}}},
	{"tsx", Interp{Code: "e", Long: []string{"--eval"}}},
}

// InterpreterOf returns how the interpreter prog reads its command line,
// and the name its record is kept under ("python" for python3.12 and
// pypy3, "perl" for perl5.36).
func InterpreterOf(prog string) (in Interp, key string, ok bool) {
	key = prog
	switch {
	case IsPython(prog):
		key = "python"
	case strings.HasPrefix(prog, "perl5"):
		key = "perl"
	}
	if in, ok := interpreterIndex()[key]; ok {
		return in, key, true
	}
	return Interp{}, "", false
}

// interpreterIndex is the interpreters by name, made on first use: the
// walker asks about every command.
var interpreterIndex = sync.OnceValue(func() map[string]Interp {
	m := make(map[string]Interp, len(interpreters))
	for _, e := range interpreters {
		m[e.name] = e.Interp
	}
	return m
})

// IsPython reports whether prog names a Python interpreter: python,
// python3, python3.12, pypy, pypy3.
func IsPython(prog string) bool {
	rest, ok := strings.CutPrefix(prog, "python")
	if !ok {
		if rest, ok = strings.CutPrefix(prog, "pypy"); !ok {
			return false
		}
	}
	return strings.Trim(rest, "0123456789.") == ""
}
