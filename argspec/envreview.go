package argspec

import (
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// Programs read variables as options (MANROFFOPT=-U man, UNZIP=-d DIR),
// as files to load or print (MAGIC=F file, GROFF_BIN_PATH), as places
// to write (LD_DEBUG_OUTPUT, SSLKEYLOGFILE) and as toolchains to fetch
// and run (GOTOOLCHAIN=go1.99 go version). A program the catalogue
// allows was reviewed for its arguments, not for every variable it, its
// libraries and its loader read: a variable the command line sets for it
// (X=v prog, env X=v prog) is reviewed when the catalogue judges it
// (EnvEffects, CarriedEnv, the walker's code variables) or it is one of
// inertEnv, which no program reads as anything but a preference.

// inertEnv reports the variables read only as a preference: locale,
// time zone, terminal and colour, CI markers. A time zone that names a
// file (TZ=:/path) is read as a zone, never printed; a locale with a /
// is a path glibc loads a locale or message catalogue from, whose
// messages are printf formats.
func inertEnv(name string, v word.Word) bool {
	if localeVar(name) {
		s, ok := v.Static()
		return ok && !strings.Contains(s, "/")
	}
	switch name {
	case "TZ", "TERM", "COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE",
		"COLORTERM", "CI", "DEBIAN_FRONTEND", "POSIXLY_CORRECT", "GREP_COLOR", "GREP_COLORS", "LS_COLORS",
		"QUOTING_STYLE", "TIME_STYLE", "BLOCK_SIZE", "DF_BLOCK_SIZE", "DU_BLOCK_SIZE", "LS_BLOCK_SIZE",
		"PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONHASHSEED",
		"NODE_ENV", "RUST_BACKTRACE", "RUST_LOG", "GIT_TERMINAL_PROMPT",
		// less's character set and how it shows characters (less(1),
		// ENVIRONMENT); LESSSECURE only turns features off.
		"LESSCHARSET", "LESSCHARDEF", "LESSUTFCHARDEF", "LESSBINFMT", "LESSUTFBINFMT", "LESSANSIENDCHARS",
		"LESSANSIMIDCHARS", "LESSSEPARATOR", "LESSSECURE":
		return true
	}
	return strings.HasPrefix(name, "LESS_TERMCAP_")
}

// localeVar reports the variables glibc takes a locale's name from:
// every program reads them.
func localeVar(name string) bool {
	return name == "LANG" || name == "LANGUAGE" || strings.HasPrefix(name, "LC_")
}

// shellVarName reports a name in lower case, which programs do not read
// from the environment by convention, except the proxies curl, wget, pip
// and git take from http_proxy, no_proxy and the like.
func shellVarName(n string) bool {
	if strings.HasSuffix(n, "_proxy") || strings.HasPrefix(n, "npm_config_") || strings.HasPrefix(n, "yarn_") {
		return false
	}
	return strings.ToLower(n) == n
}

// envClean are programs whose every variable is reviewed: GNU
// coreutils' and grep's readers, which read the locale, TZ,
// POSIXLY_CORRECT, their own display preferences (LS_COLORS,
// BLOCK_SIZE, GREP_COLORS, TIME_STYLE, TABSIZE) and glibc's, which the
// walker judges wherever they are set; a variable of another name is
// nothing to them (FOO=1 ls). Programs that start others (env, xargs,
// find, timeout) pass it on, and those are judged with it; cp, mv, ln
// and install read backup-suffix variables and are not listed.
func envClean(prog string) bool {
	switch prog {
	case "ls", "dir", "vdir", "cat", "tac", "head", "tail", "wc", "cut", "paste", "sort", "uniq", "tr", "nl", "od",
		"base64", "base32", "basename", "dirname", "realpath", "readlink", "stat", "du", "df", "date", "pwd", "seq",
		"sleep", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum",
		"comm", "join", "fold", "fmt", "expand", "unexpand", "whoami", "id", "uname", "hostname", "expr", "printenv",
		"grep", "egrep", "fgrep", "touch", "mkdir", "rmdir", "rm", "tee", "shuf", "tsort", "numfmt", "pr",
		"split", "csplit", "truncate", "nproc", "arch", "groups", "logname", "users", "who", "tty", "yes", "factor":
		return true
	}
	return false
}

// quietBuiltins are the shell's builtins that run nothing and read no
// variable the text sets for them as anything but a shell variable
// (export X=v: the walker judges a variable wherever it is set, and the
// programs that get it as theirs).
func quietBuiltins(name string) bool {
	switch name {
	case "echo", "printf", "true", "false", ":", "test", "[", "pwd", "type", "set", "shopt", "unset", "local",
		"declare", "typeset", "readonly", "read", "wait", "jobs", "shift", "return", "break", "continue", "exit",
		"export":
		return true
	}
	return false
}

// UnreviewedEnv is the variables (names[i]=values[i]), set by the
// command line for prog, that nothing in the catalogue judges (reviewed
// says which the walker judges itself: the variables run as code, PATH).
func UnreviewedEnv(prog string, names []string, values []word.Word, reviewed func(string) bool) []string {
	if quietBuiltins(prog) {
		return nil
	}
	var out []string
	for i, n := range names {
		if n == "" {
			// Variables not listed (shellparse's Cmd.Exported), a locale
			// among them perhaps.
			out = append(out, "other variables")
			continue
		}
		if envClean(prog) && !localeVar(n) {
			continue
		}
		if EnvNeedsReview(n, values[i], reviewed) {
			out = append(out, n)
		}
	}
	return out
}

// EnvNeedsReview reports whether a variable set to v may be read by a
// program as something nothing in the catalogue judges: not a
// preference, not the script's own (lower-case) name, not a secret's
// name, and not a variable the catalogue or the walker (reviewed)
// judges wherever it is set. Whether the program reads it is
// UnreviewedEnv's to say.
func EnvNeedsReview(n string, v word.Word, reviewed func(string) bool) bool {
	if shellVarName(n) || SecretName(n) {
		// A lower-case name is the script's own variable (f=$(…)
		// cat "$f"), and a secret's name a credential the program
		// sends where it belongs (GH_TOKEN=$GITHUB_TOKEN gh).
		return false
	}
	return !inertEnv(n, v) && !reviewed(n) && len(EnvEffects(n, probeValue)) == 0 && !CarriedEnv(probeSink{}, n, probeValue)
}

// probeValue is a value known only at run time: every variable the
// catalogue knows has an effect for it.
var probeValue = word.Unknown("(a value)")

// probeSink takes what CarriedEnv reports and discards it: only whether
// the variable is one the catalogue reads is wanted.
type probeSink struct{}

func (probeSink) Opaque(string)                         {}
func (probeSink) Shell(string, string, ShellRun)        {}
func (probeSink) Argv([]word.Word, string, bool)        {}
func (probeSink) Wrapper()                              {}
func (probeSink) Setenv(string, word.Word)              {}
func (probeSink) Assigned(string, word.Word)            {}
func (probeSink) Assigns(func(string, word.Word))       {}
func (probeSink) JudgedWhereSet(string) bool            { return false }
func (probeSink) Cwd() ([]string, bool)                 { return nil, true }
func (probeSink) UntrustedDir(word.Word) (string, bool) { return "", true }
func (probeSink) Getenv(string) string                  { return "" }
func (probeSink) Glob(string) ([]string, bool)          { return nil, false }
