package shellparse

import (
	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// Code that build tools, package managers and version control carry in
// their arguments and environment is the program catalogue's knowledge:
// each such program is a record of argspec's buildTools (the class
// argspec.BuildTool), whose readers report what they find to a
// CarrySink. The walker looks the program up (programCode, carriedEnv)
// and implements the sink: it emits the parts, walks the shell code and
// the commands the program runs, and answers where the command runs.

// opaquePart reports code the program runs that the guard cannot read.
func (w *walker) opaquePart(cmd *Cmd, reason string) {
	w.emit(&Cmd{Argv: cmd.Argv, Assigns: cmd.Assigns, Opaque: reason, CodeArg: -1})
}

// carriedArgv judges a command the program runs directly, as a part of
// its own: npm exec's, go test -exec's. wrapper marks a program that only
// runs it (npm exec), whose own argv then says nothing about paths.
func (w *walker) carriedArgv(sc *scope, cmd *Cmd, argv []word.Word, what string, wrapper bool) {
	if len(argv) == 0 {
		return
	}
	if wrapper {
		cmd.Wrapper = true
	}
	w.via = append(w.via, Step{Kind: what, Argv: word.Strings(cmd.Argv)})
	w.run(sc, argv, cmd.Assigns, nil, cmd.Stdin, true, false)
	w.via = w.via[:len(w.via)-1]
}

// carriedEnv judges a variable that build tools and version control read
// as a program, as flags, or as a place to load code or configuration
// from, wherever the text sets it (argspec.CarriedEnv).
func (w *walker) carriedEnv(sc *scope, a Assign) bool {
	if len(argspec.EnvEffects(a.Name, a.Value)) > 0 {
		// A place a tool writes: reported wherever it is set, as a part
		// whose effects the policy judges (GOCACHE=/etc; go build).
		w.emit(&Cmd{Assigns: []Assign{a}, CodeArg: -1})
	}
	return argspec.CarriedEnv(&carrySink{w: w, sc: sc, env: a}, a.Name, a.Value)
}

// carrySink is what argspec's readers of carried code report to, for one
// command (or one assignment) in scope sc.
type carrySink struct {
	w   *walker
	sc  *scope
	cmd *Cmd
	// env is the assignment a variable's sink reports for, as a command
	// made on first use: almost every variable a script sets carries
	// nothing, and a command made for each is 270 bytes more to allocate.
	env Assign
}

func (k *carrySink) command() *Cmd {
	if k.cmd == nil {
		k.cmd = &Cmd{Assigns: []Assign{k.env}, CodeArg: -1}
	}
	return k.cmd
}

func (k *carrySink) Opaque(reason string) { k.w.opaquePart(k.command(), reason) }

func (k *carrySink) Shell(src, what string, how argspec.ShellRun) {
	sc := k.sc
	if how.Elsewhere {
		sc = sc.clone()
		sc.cwd = Cwd{Unknown: true}
	}
	params := how.Params
	if params == nil {
		params = []string{"sh"}
	}
	child := k.w.childScope(sc, params, how.ParamsUnknown)
	layer := Step{Kind: what, Argv: word.Strings(k.command().Argv)}
	if how.Caller {
		k.w.code(child, src, layer)
		return
	}
	k.w.codeFor(child, "sh", src, layer)
}

func (k *carrySink) Argv(argv []word.Word, what string, wrapper bool) {
	k.w.carriedArgv(k.sc, k.command(), argv, what, wrapper)
}

func (k *carrySink) Wrapper() { k.command().Wrapper = true }

func (k *carrySink) Setenv(name string, v word.Word) {
	k.w.checkAssigns(k.sc, []Assign{{Name: name, Value: v}}, false)
}

func (k *carrySink) Assigned(name string, v word.Word) {
	k.w.emit(&Cmd{Assigns: []Assign{{Name: name, Value: v}}, CodeArg: -1})
}

func (k *carrySink) Assigns(f func(name string, v word.Word)) {
	for _, a := range k.command().Assigns {
		f(a.Name, a.Value)
	}
}

func (k *carrySink) JudgedWhereSet(name string) bool {
	return name == "PATH" || codeVars(name) != "" || hiddenCodeVars(name) != ""
}

func (k *carrySink) Cwd() ([]string, bool) { return k.sc.cwd.Dirs, k.sc.cwd.Unknown }

func (k *carrySink) UntrustedDir(v word.Word) (string, bool) { return k.w.untrustedPath(k.sc, v) }

func (k *carrySink) Getenv(name string) string { return k.w.getenv(name) }

func (k *carrySink) Glob(pattern string) ([]string, bool) {
	if k.w.opts.Glob == nil {
		return nil, false
	}
	return k.w.opts.Glob(pattern, GlobMode{})
}
