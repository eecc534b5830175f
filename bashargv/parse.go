// Package bashargv reads a bash command line as GNU bash 5.2 does, so that
// guard-exec can tell what a bash it stands in for, or one a command
// starts, would run.
//
// Contract:
//
//   - ParseArgv/Parse read bash's arguments exactly as bash does (shell.c:
//     parse_long_options, parse_shell_options, the -c/operand binding and
//     the interactive test) and report what bash would run: a -c string, a
//     script file, a script on stdin, an interactive session, or nothing
//     (--help, --version). Invocations bash rejects come back as a
//     *UsageError carrying bash's exit status and message; bash executes
//     nothing in those cases. The differential test runs /bin/bash on the
//     same arguments to prove the match.
//   - IsShellName names the programs that are bash when the guard stands in.
//
// The package is pure: no processes, signals or files. Starting the real
// shell is package bashcli's.
package bashargv

import (
	"fmt"
	"strings"
)

// Mode says where bash takes the commands it runs.
type Mode int

const (
	// ModeCommand: -c STRING.
	ModeCommand Mode = iota + 1
	// ModeFile: a script file operand.
	ModeFile
	// ModeStdin: a script read from stdin by a non-interactive shell
	// (-s, -, or no operand while stdin is not a terminal).
	ModeStdin
	// ModeInteractive: an interactive shell reading commands from stdin
	// (no operand or -s with a terminal, or -i without -c or a file).
	ModeInteractive
	// ModeNoScript: bash prints something (--help, --version) and exits 0;
	// nothing runs.
	ModeNoScript
)

func (m Mode) String() string {
	switch m {
	case ModeCommand:
		return "command"
	case ModeFile:
		return "file"
	case ModeStdin:
		return "stdin"
	case ModeInteractive:
		return "interactive"
	case ModeNoScript:
		return "noscript"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Invocation is what a bash command line asks for.
type Invocation struct {
	Mode    Mode
	Command string // the -c string (ModeCommand)
	File    string // the script path (ModeFile)
	// FileIndex is the index, in the argv given to ParseArgv (argv[0]
	// included), of the script operand (ModeFile).
	FileIndex int
	Name      string   // $0: the operand after the -c string, the script file, else argv[0]
	Args      []string // $1 …

	// Login: -l, +l, --login, or argv[0] starting with '-': bash reads
	// /etc/profile and ~/.bash_profile (or ~/.bash_login, ~/.profile).
	Login bool
	// Interactive: -i, or no -c and (no operand or -s) with stdin and
	// stderr on a terminal. Bash then reads /etc/bash.bashrc and ~/.bashrc
	// (or RCFile) unless NoRC. It can be true with ModeCommand (-ic) and
	// ModeFile (-i FILE) too.
	Interactive bool
	// Restricted: -r, --restricted, or argv[0] named rbash.
	Restricted bool
	// Posix: --posix, -o posix, or argv[0] named sh (which also makes bash
	// read only $ENV at startup). POSIXLY_CORRECT in the environment also
	// turns it on; Parse does not see the environment.
	Posix     bool
	NoProfile bool   // --noprofile
	NoRC      bool   // --norc
	RCFile    string // --rcfile F / --init-file F (last one wins)

	// SetOn and SetOff list the set -o options the command line turns on
	// or off (-e, +e, -o pipefail, +o xtrace, --verbose, --posix …) by
	// their long names, in order of first mention, each with its final
	// state. -i and -r are reported as Interactive and Restricted instead.
	SetOn, SetOff []string
	// ShoptOn and ShoptOff list the -O/+O names the same way. Bash accepts
	// login_shell and restricted_shell here but ignores them.
	ShoptOn, ShoptOff []string

	CFlag       bool // -c (or +c) was given; also shown as 'c' in $-
	SFlag       bool // -s (or +s) was given; also shown as 's' in $-
	Debugger    bool // --debugger: bash sources its debugger start file, if installed
	NoEditing   bool // --noediting
	DumpStrings bool // -D, --dump-strings, --dump-po-strings: bash prints $"…" strings and executes nothing, startup files included
	PrettyPrint bool // --pretty-print: a non-interactive shell prints a file or stdin script instead of running it; $BASH_ENV and -c strings still run
	// ListsOptions: -o, +o, -O or +O came last with no name, so bash
	// prints the option settings on stdout before going on.
	ListsOptions bool
	Help         bool // --help (ModeNoScript)
	Version      bool // --version (ModeNoScript)
}

// UsageError is an invocation bash itself rejects. Bash prints Message on
// stderr and exits with Status before running anything.
type UsageError struct {
	Status  int
	Message string // bash's text, with its "bash: " style prefix and trailing newline
}

func (e *UsageError) Error() string { return strings.TrimRight(e.Message, "\n") }

// Bash's exit status for usage errors (EX_BADUSAGE).
const exBadUsage = 2

type longOpt struct {
	name   string
	hasArg bool
}

// longOpts is bash 5.2's long_args table, in its order (the usage text
// lists them in this order too).
var longOpts = []longOpt{
	{"debug", false}, {"debugger", false}, {"dump-po-strings", false},
	{"dump-strings", false}, {"help", false}, {"init-file", true},
	{"login", false}, {"noediting", false}, {"noprofile", false},
	{"norc", false}, {"posix", false}, {"pretty-print", false},
	{"rcfile", true}, {"restricted", false}, {"verbose", false},
	{"version", false},
}

// flagNames maps bash's single-letter set flags to their set -o names
// ("" for the flags that have none: -i and -r).
var flagNames = map[byte]string{
	'a': "allexport", 'b': "notify", 'e': "errexit", 'f': "noglob",
	'h': "hashall", 'i': "", 'k': "keyword", 'm': "monitor", 'n': "noexec",
	'p': "privileged", 'r': "", 't': "onecmd", 'u': "nounset",
	'v': "verbose", 'x': "xtrace", 'B': "braceexpand", 'C': "noclobber",
	'E': "errtrace", 'H': "histexpand", 'P': "physical", 'T': "functrace",
}

// SetOptionNames are the names bash 5.2 accepts after -o/+o.
var SetOptionNames = []string{
	"allexport", "braceexpand", "emacs", "errexit", "errtrace", "functrace",
	"hashall", "histexpand", "history", "ignoreeof", "interactive-comments",
	"keyword", "monitor", "noclobber", "noexec", "noglob", "nolog", "notify",
	"nounset", "onecmd", "physical", "pipefail", "posix", "privileged",
	"verbose", "vi", "xtrace",
}

// ShoptNames are the names bash 5.2 accepts after -O/+O.
var ShoptNames = []string{
	"autocd", "assoc_expand_once", "cdable_vars", "cdspell", "checkhash",
	"checkjobs", "checkwinsize", "cmdhist", "compat31", "compat32",
	"compat40", "compat41", "compat42", "compat43", "compat44",
	"complete_fullquote", "direxpand", "dirspell", "dotglob", "execfail",
	"expand_aliases", "extdebug", "extglob", "extquote", "failglob",
	"force_fignore", "globasciiranges", "globskipdots", "globstar",
	"gnu_errfmt", "histappend", "histreedit", "histverify", "hostcomplete",
	"huponexit", "inherit_errexit", "interactive_comments", "lastpipe",
	"lithist", "localvar_inherit", "localvar_unset", "login_shell",
	"mailwarn", "no_empty_cmd_completion", "nocaseglob", "nocasematch",
	"noexpand_translation", "nullglob", "patsub_replacement", "progcomp",
	"progcomp_alias", "promptvars", "restricted_shell", "shift_verbose",
	"sourcepath", "varredir_close", "xpg_echo",
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// toggles records option states in order of first mention.
type toggles struct {
	order []string
	on    map[string]bool
}

func (t *toggles) set(name string, on bool) {
	if t.on == nil {
		t.on = map[string]bool{}
	}
	if _, seen := t.on[name]; !seen {
		t.order = append(t.order, name)
	}
	t.on[name] = on
}

func (t *toggles) split() (on, off []string) {
	for _, n := range t.order {
		if t.on[n] {
			on = append(on, n)
		} else {
			off = append(off, n)
		}
	}
	return on, off
}

// Parse parses bash's arguments (without argv[0]) as if argv[0] were
// "bash". stdinIsTerminal decides between ModeStdin and ModeInteractive
// when there is no operand; bash requires both stdin and stderr to be
// terminals, so pass isatty(0) && isatty(2).
func Parse(args []string, stdinIsTerminal bool) (*Invocation, error) {
	return ParseArgv(append([]string{"bash"}, args...), stdinIsTerminal)
}

// IsShellName reports whether base, argv[0]'s base name without a login
// dash, is a name bash answers to: bash, sh (posix mode) or rbash
// (restricted). The guard installed under one of them is only a shell.
func IsShellName(base string) bool { return base == "bash" || base == "sh" || base == "rbash" }

// ParseArgv is Parse with argv[0] included: a leading '-' makes a login
// shell, a base name "sh" turns on posix mode, "rbash" a restricted
// shell, and argv[0] is $0 when no operand names it. Error messages use
// argv[0] as bash does.
func ParseArgv(argv []string, stdinIsTerminal bool) (*Invocation, error) {
	argv0 := ""
	if len(argv) > 0 {
		argv0, argv = argv[0], argv[1:]
	}
	// set_shell_name: $0 is argv[0] as given; shell_name falls back to
	// "bash" for an empty or "-" argv[0].
	shellName := argv0
	if shellName == "" || shellName == "-" {
		shellName = "bash"
	}
	base := basePathname(argv0)
	if strings.HasPrefix(argv0, "-") {
		base = strings.TrimPrefix(base, "-")
	}

	inv := &Invocation{Name: argv0, Login: strings.HasPrefix(argv0, "-")}
	var sets, shopts toggles
	forcedInteractive, restricted := false, false
	// reportError is bash's report_error: once -e is on, it exits 1 at once,
	// before the usage text.
	reportError := func(msg string, withUsage bool) error {
		if sets.on["errexit"] {
			return &UsageError{Status: 1, Message: argv0 + ": " + msg + "\n"}
		}
		if withUsage {
			msg += "\n" + shellUsage(shellName)
		} else {
			msg += "\n"
		}
		return &UsageError{Status: exBadUsage, Message: argv0 + ": " + msg}
	}

	// Long options come first; a single dash works too (-login). The
	// first word that is not one ends them.
	i := 0
	for ; i < len(argv) && strings.HasPrefix(argv[i], "-"); i++ {
		arg, long := argv[i], false
		if strings.HasPrefix(arg, "--") && len(arg) > 2 {
			arg, long = arg[1:], true
		}
		var opt *longOpt
		for k := range longOpts {
			if longOpts[k].name == arg[1:] {
				opt = &longOpts[k]
				break
			}
		}
		if opt == nil {
			if long {
				return nil, reportError(argv[i]+": invalid option", true)
			}
			break
		}
		value := ""
		if opt.hasArg {
			if i+1 >= len(argv) {
				return nil, reportError(opt.name+": option requires an argument", false)
			}
			i++
			value = argv[i]
		}
		switch opt.name {
		case "debugger":
			inv.Debugger = true
		case "dump-po-strings", "dump-strings":
			inv.DumpStrings = true
		case "help":
			inv.Help = true
		case "init-file", "rcfile":
			inv.RCFile = value
		case "login":
			inv.Login = true
		case "noediting":
			inv.NoEditing = true
		case "noprofile":
			inv.NoProfile = true
		case "norc":
			inv.NoRC = true
		case "posix":
			sets.set("posix", true)
		case "pretty-print":
			inv.PrettyPrint = true
		case "restricted":
			restricted = true
		case "verbose":
			sets.set("verbose", true)
		case "version":
			inv.Version = true
		}
	}
	if inv.Help || inv.Version {
		// Bash prints and exits before looking at short options.
		inv.Mode = ModeNoScript
		inv.SetOn, inv.SetOff = sets.split()
		return inv, nil
	}

	// Short options: clusters of -x/+x; o and O take the next word.
	for i < len(argv) && (strings.HasPrefix(argv[i], "-") || strings.HasPrefix(argv[i], "+")) {
		arg := argv[i]
		next := i + 1
		if arg == "-" || arg == "--" {
			i = next
			break
		}
		onOff := arg[0]
		for k := 1; k < len(arg); k++ {
			c := arg[k]
			switch c {
			case 'c':
				inv.CFlag = true
			case 'l':
				inv.Login = true
			case 's':
				inv.SFlag = true
			case 'D':
				inv.DumpStrings = true
			case 'o', 'O':
				if next >= len(argv) {
					inv.ListsOptions = true
					continue
				}
				name := argv[next]
				next++
				if c == 'O' {
					shopts.set(name, onOff == '-') // validated after -c, as bash does
					continue
				}
				if !contains(SetOptionNames, name) {
					return nil, &UsageError{Status: exBadUsage, Message: argv0 + ": line 0: " + shellName + ": " + name + ": invalid option name\n"}
				}
				sets.set(name, onOff == '-')
			default:
				long, known := flagNames[c]
				// A restricted shell refuses +r, even during startup.
				if !known || (c == 'r' && onOff == '+' && restricted) {
					return nil, reportError(string([]byte{onOff, c})+": invalid option", true)
				}
				switch c {
				case 'i':
					forcedInteractive = onOff == '-'
				case 'r':
					restricted = onOff == '-'
				default:
					sets.set(long, onOff == '-')
				}
			}
		}
		i = next
	}

	operands := argv[i:]
	if inv.CFlag {
		if len(operands) == 0 {
			return nil, reportError("-c: option requires an argument", false)
		}
		inv.Command, operands = operands[0], operands[1:]
	}
	inv.Interactive = forcedInteractive ||
		(!inv.CFlag && (len(operands) == 0 || inv.SFlag) && stdinIsTerminal)
	for _, name := range shopts.order {
		if !contains(ShoptNames, name) {
			prefix := argv0 + ": line 0: "
			if inv.Interactive {
				prefix = basePathname(shellName) + ": "
			}
			return nil, &UsageError{Status: exBadUsage, Message: prefix + name + ": invalid shell option name\n"}
		}
	}

	switch {
	case inv.CFlag:
		inv.Mode = ModeCommand
		if len(operands) > 0 {
			inv.Name, operands = operands[0], operands[1:]
		}
	case len(operands) > 0 && !inv.SFlag:
		inv.Mode = ModeFile
		inv.FileIndex = 1 + len(argv) - len(operands) // argv[0] was taken off
		inv.File, inv.Name, operands = operands[0], operands[0], operands[1:]
	case inv.Interactive:
		inv.Mode = ModeInteractive
	default:
		inv.Mode = ModeStdin
	}
	inv.Args = append([]string{}, operands...)
	inv.SetOn, inv.SetOff = sets.split()
	inv.ShoptOn, inv.ShoptOff = shopts.split()
	inv.Posix = sets.on["posix"] || base == "sh"
	inv.Restricted = restricted || strings.TrimPrefix(basePathname(shellName), "-") == "rbash"
	return inv, nil
}

// basePathname is bash's base_pathname: what follows the last slash.
func basePathname(s string) string {
	if s == "/" {
		return s
	}
	return s[strings.LastIndexByte(s, '/')+1:]
}

// shellUsage is bash's show_shell_usage(stderr, 0) text.
func shellUsage(shellName string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage:\t%s [GNU long option] [option] ...\n\t%s [GNU long option] [option] script-file ...\n", shellName, shellName)
	b.WriteString("GNU long options:\n")
	for _, o := range longOpts {
		fmt.Fprintf(&b, "\t--%s\n", o.name)
	}
	b.WriteString("Shell options:\n\t-ilrsD or -c command or -O shopt_option\t\t(invocation only)\n")
	b.WriteString("\t-abefhkmnptuvxBCEHPT or -o option\n")
	return b.String()
}
