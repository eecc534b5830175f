package shellparse

import (
	"fmt"
	"strings"

	"github.com/guard-exec/guard-exec/pycode"
	"github.com/guard-exec/guard-exec/word"
)

// Limits past which the input is not judged part by part. The guard then
// answers ask: a program this large is read by a person, not a pattern.
const (
	MaxBytes = 4 << 20 // total text examined, including code found in strings
	MaxParts = 100000  // commands reported
	MaxDepth = 64      // nesting of code in strings (eval in bash -c in …)
	maxSteps = 2000000 // walk steps, bounding function call fan-out
)

// Options tell Parse about the world the code will run in.
type Options struct {
	Cwd    string              // working directory at the start (absolute)
	Getenv func(string) string // the real environment, for HOME, TMPDIR and exported names
	// Params are $0, $1, … when known (bash -c 'code' name args).
	Params []string
	// ParamsUnknown: the positional parameters are not known ($1 is a hole).
	ParamsUnknown bool
	// Traced: the shell starts with xtrace on (bash -x): it prints every
	// command with its words expanded (Cmd.Traced).
	Traced bool
	// SetOn are the set -o options the shell starts with (bash -a, -k,
	// -o NAME; posix for --posix), as SHELLOPTS in the environment gives
	// them too: allexport, keyword, posix and physical change what the
	// text does. (bash turns history off in a shell that is not
	// interactive after reading them: only set in the text turns it on.)
	SetOn []string
	// Glob lists the paths an absolute pattern matches now (FileGlobber
	// reads the file system); nil disables file-system expansion.
	Glob Globber
	// Name is shown in positions ("script.sh:3"); "" for -c strings.
	Name string
	// Committed, when set, is called after each top-level statement with
	// the commands reported so far (a prefix of the final Result.Cmds).
	// Those commands never change afterwards, so a caller may judge them
	// on another goroutine while the walk goes on. It runs on the walking
	// goroutine. If Parse returns an error, the commands mean nothing.
	Committed func(cmds []*Cmd)
	// Release, with Committed: each command is handed to Committed once
	// (cmds are then those reported since the call before) and is the
	// caller's from then on. The walk keeps none of them: Result.Cmds
	// holds nil in their places. A caller that needs only some of a long
	// script's commands until the end can then let the rest go.
	Release bool
	// ReadScript, when set, reads a shell script a command runs (./x.sh,
	// bash x.sh, source x.sh), whose commands are then judged as the
	// command's own; nil leaves every script opaque. It must read only a
	// regular file, and fail with an error matching fs.ErrNotExist when
	// nothing is there and ErrDirectory for a directory ([ReadScriptFile]
	// does all that on the real file system). Only commands that run a
	// script call it.
	ReadScript func(path string) ([]byte, error)
	// AllowedOpaque, when set, is asked before a script is read: true
	// means the command, reported as it would be without reading the
	// script (opaque), is allowed as it is (a rule names the script), and
	// the script is not read. Without it every script that can be read is.
	AllowedOpaque func(c *Cmd) bool
	// Local are the directories (absolute: the project, the temporary
	// ones) whose program files are whatever they hold, not the programs
	// the catalogue knows by their names (cp /bin/bash ./ls; ./ls -c
	// CODE). The working directory always is. Such a program is judged by
	// its content when it is a shell or Python script; otherwise it asks,
	// unless AllowedLocal says a rule of the person's allows it as it is.
	Local        []string
	AllowedLocal func(c *Cmd) bool
	// ScriptRead, when set, is told of every file whose content, or
	// absence, a part was judged by (each script read and walked, each
	// file and module name Python code was read with) and of the command
	// that runs it (reported already). A caller may check that nothing
	// else in the text writes the file before it runs. It runs on the
	// walking goroutine.
	ScriptRead func(r FileRead, carrier *Cmd)
	// Python, when set, reads the code python commands run (python -c,
	// scripts, code on standard input, -m of a project module); it runs
	// the interpreter, so only commands that run Python pay for it.
	Python PythonAnalyser
}

// A FileRead is a file a part was judged by, as it was when the command
// was judged.
type FileRead struct {
	Path string // absolute
	// Stem: Path is a directory joined with a Python module's name, looked
	// up there: every path that extends it (NAME.py, NAME.*.so, NAME/…)
	// counts as well, there or not.
	Stem bool
	// Modules, with Path a directory python searches before the standard
	// library: the modules whose place a file written there would take
	// (NAME.py, NAME/__init__.py, NAME.*.so); AnyModule: any name.
	Modules   map[string]bool
	AnyModule bool
	What      string // what the part does with it, for messages: "runs the script /p/x.sh"
	// Written, when set, is the text's own write whose content was judged:
	// the file did not exist, and an earlier command writes it (cat > F
	// <<'EOF'). That write changes nothing judged; any other does.
	Written *Written
}

// Written is a file a command writes whose content is known here.
type Written struct {
	Path string // absolute
	Text string
}

// TempDirs are the directories anyone may write to, whatever TMPDIR says:
// programs and repositories there are what the text may have made.
func TempDirs() []string { return []string{"/tmp", "/var/tmp", "/dev/shm"} }

// Pos is a position in the top-level text.
type Pos struct {
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Step is one step on the way from the text to a command: a wrapper
// program, code in a string, a substitution, a function.
type Step struct {
	Kind string   // "wrapper", "eval", "shell -c", "stdin", "trap", "alias", "function", "$(…)", "<(…)", "find -exec", "xargs", …
	Argv []string // the carrier's words as written, when it is a command
	// Static: every word of Argv is the text the command gets (no
	// expansion, no glob), so what it says can be read from Argv.
	Static bool
	// Cwd, for a find that runs the command (-exec, -execdir), is where
	// that find runs, which is where its starting points are; nil: the
	// command's own working directory.
	Cwd *Cwd
	// Split: the command gets find's output split at blanks and quotes
	// (xargs without -0 or -d; $(find …) unquoted), so a file name with a
	// blank in it gives other paths.
	Split bool
}

func (l Step) String() string {
	if len(l.Argv) > 0 {
		return l.Kind + ": " + strings.Join(l.Argv, " ")
	}
	return l.Kind
}

// Redir is a redirection attached to a command.
type Redir struct {
	Op     string    // ">", ">>", "<", "<>", "&>", "&>>", ">|", ">&", "<&", "<<", "<<<"
	Fd     string    // explicit fd number, if any
	Target word.Word // file or fd; empty for heredocs
	// Secret: a heredoc's or here-string's text, on whichever descriptor,
	// may hold a secret variable's value (word.Seg.Secret).
	Secret bool
}

// Writes reports whether the redirection opens Target for writing.
func (r Redir) Writes() bool {
	switch r.Op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	case ">&":
		return !isFd(r.Target)
	}
	return false
}

// Reads reports whether the redirection opens Target for reading.
func (r Redir) Reads() bool {
	switch r.Op {
	case "<", "<>":
		return true
	case "<&":
		return !isFd(r.Target)
	}
	return false
}

func isFd(w word.Word) bool {
	s, ok := w.Static()
	if !ok {
		return false
	}
	s = strings.TrimSuffix(s, "-")
	if s == "" {
		return true
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Cwd is the set of directories a command may run in.
type Cwd struct {
	Dirs    []string // absolute, cleaned; more than one when a cd may have failed
	Unknown bool     // after a cd whose target is not known here
	// Data: the unknown directory comes from data the command reads or
	// makes at run time (word.Seg.Data): it may be anywhere.
	Data bool
	// Written, with Unknown: the directories as the text wrote them, when
	// cds made them ("$D/.ssh" after cd "$D"/.ssh, or cd "$D"; cd .ssh;
	// "$D" too, if the second cd failed), so that what follows their
	// unknown part still tells where a relative path is (cat * there
	// reads $D/.ssh/*).
	Written []string
}

// Assign is a variable assignment in front of (or instead of) a command.
type Assign struct {
	Name  string
	Value word.Word
	// elems are the words of NAME=(…) when none has a [subscript].
	elems []word.Word
	// appended: NAME+=VALUE, which adds Value to what NAME holds.
	appended bool
}

// Cmd is one command that would run.
type Cmd struct {
	Argv    []word.Word
	Assigns []Assign
	// Exported are the variables the text may put in the program's
	// environment besides Assigns (export N=v, declare -x, set -a, N=v
	// before the function call it is in, a name the environment holds
	// already), anywhere in the text, of those the catalogue does not
	// judge where they are set (argspec.EnvNeedsReview); past a few, an
	// entry with no name stands for the rest. Shared between commands:
	// never changed.
	Exported []Assign
	Redirs   []Redir
	Cwd      Cwd
	Pos      Pos
	Via      []Step // outermost first
	// Wrapper is set for a program whose inner command is reported as its
	// own Cmd (sudo, env, xargs, bash -c …).
	Wrapper bool
	// DotGlob: a glob in it may match names that start with '.' (shopt
	// -s dotglob or GLOBIGNORE somewhere in the text, or GLOBIGNORE in
	// the environment): ~/* may be ~/.ssh.
	DotGlob bool
	// Opaque, when set, says what code this command runs that the guard
	// cannot see; CodeArg is the index in Argv of the word that names the
	// code (script or inline program), or -1 (stdin, environment, …).
	// A Wrapper with CodeArg set and no Opaque runs a script that was read
	// (0: the program itself); its commands are reported on their own.
	Opaque  string
	CodeArg int
	// Special marks constructs judged by built-in rules: "fork-bomb",
	// "guard-env" (changing GUARD_EXEC_* for an enclosing guard),
	// "secret-shown" (bash itself prints a secret variable's value: Stdin
	// says where).
	Special string
	// Reopened: the fds 1 and 2 (bits 1 and 2) that this command, or an
	// exec before it, put on a file opened for reading, closed, or copied
	// from another descriptor. /dev/stdout then names that file (or the
	// next one a program opens), not the output the guard was given:
	// echo x 1<victim >/dev/stdout truncates victim.
	Reopened uint8
	// Traced: xtrace may be on when it runs (set -x anywhere in the text,
	// bash -x, SHELLOPTS): bash prints it, assignments and expanded words
	// included, to standard error.
	Traced bool
	// Stdin describes literal text fed to the command, when known.
	Stdin *Input
	// Func names the shell function this part was called from.
	Func string
	// Local marks the part that asks for a program file of the project
	// or a temporary directory (Options.Local): a person may approve the
	// exact command.
	Local bool
	// Writes, when set, is the file this command writes with a content
	// known here (cat > F <<'EOF'); a later part that runs F is judged by
	// that content when F does not exist yet.
	Writes *Written
}

// Input is what a command reads on its standard input.
type Input struct {
	Text  string // the literal text
	Known bool   // Text is exactly what the command reads
	Desc  string // where it comes from, for messages
	// Secret: the text may hold a secret variable's value (word.Seg.Secret):
	// a here-string or heredoc that expands $TOKEN.
	Secret bool
	// Found, when the text is not known, is the argv of the find whose
	// output it is: paths below its starting points, as far as file
	// names without blanks go.
	Found []string
}

// Name returns the static program name, or "".
func (c *Cmd) Name() string {
	if len(c.Argv) == 0 {
		return ""
	}
	s, _ := c.Argv[0].Static()
	return s
}

// String renders the command as it would run.
func (c *Cmd) String() string {
	if c.Special == "secret-shown" && c.Stdin != nil {
		return c.Stdin.Desc
	}
	var parts []string
	for _, a := range c.Assigns {
		parts = append(parts, a.Name+"="+a.Value.String())
	}
	for _, w := range c.Argv {
		s := w.String()
		if s == "" || strings.ContainsAny(s, " \t\n'\"") {
			s = word.ShellQuote(s)
		}
		parts = append(parts, s)
	}
	for _, r := range c.Redirs {
		if r.Op == "<<" || r.Op == "<<<" {
			parts = append(parts, r.Op+"…")
			continue
		}
		parts = append(parts, r.Fd+r.Op+r.Target.String())
	}
	return strings.Join(parts, " ")
}

// Result is the reading of a program.
type Result struct {
	Cmds []*Cmd
	// Funcs names every shell function the text defines, anywhere (in
	// code strings and in bodies never called too), in order, with
	// repeats: a definition changes the shell even when nothing calls it.
	Funcs []string
	// Rewalked is set when the text was walked a second time (may.go):
	// commands handed to Options.Committed during the first walk are void.
	Rewalked bool
}

// ParseError means the text could not be read reliably. Nothing of it may
// be judged as allowed.
type ParseError struct {
	Pos    Pos
	Reason string
	// Differential is set when bash would read the text differently from
	// the parser (the text is valid bash).
	Differential bool
	TooLarge     bool
}

func (e *ParseError) Error() string {
	if e.Pos.Line > 0 {
		return fmt.Sprintf("%s: %s", e.Pos, e.Reason)
	}
	return e.Reason
}

// PythonAnalyser reads Python code for the walker (pycode.Analyser); a
// test fakes it. Without one, Python code stays opaque.
type PythonAnalyser interface {
	Analyse(pycode.Source) *pycode.Result
	// Shebang returns the interpreter a script's #! line names.
	Shebang(path string) (string, bool)
}
