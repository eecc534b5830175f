package shellparse

import (
	"errors"
	"fmt"
	"github.com/guard-exec/guard-exec/internal/physpath"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/syntax"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// Limits of the script files read to judge one command. Past them the
// script is opaque: the command asks.
const (
	MaxScriptDepth = 8       // scripts run by scripts run by …
	MaxScriptBytes = 1 << 20 // one script file
	MaxScriptWalks = 256     // script texts walked for one command
)

// Errors of a ReadScript function.
var (
	ErrDirectory  = errors.New("is a directory")
	ErrNotRegular = errors.New("is not a regular file")
	ErrTooLarge   = fmt.Errorf("is larger than %d bytes", MaxScriptBytes)
	ErrBinary     = errors.New("is a binary, not a script")
	ErrSpecial    = errors.New("is a device or an open file of the process (/dev, /proc), which the shell reads as its own")
)

// ReadScriptFile reads a script from the file system for
// Options.ReadScript. Only a regular file is opened: opening a FIFO would
// block (and take the text its writer meant for the shell), and opening a
// device can act on it. The check is made again on the open file, which
// is opened without blocking, in case the name changed in between.
func ReadScriptFile(path string) ([]byte, error) {
	// /dev/stdin, /dev/fd/N and /proc/self/fd/N name what the shell has
	// open there, not what the guard has.
	if argspec.ProcessFile(path) {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrSpecial}
	}
	if real, err := filepath.EvalSymlinks(path); err == nil && argspec.ProcessFile(real) {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrSpecial}
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(path, fi); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ofi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := regular(path, ofi); err != nil {
		return nil, err
	}
	if !os.SameFile(fi, ofi) {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errors.New("changed while it was opened")}
	}
	// A program is usually a binary: its first bytes say so, and the
	// rest is not read.
	head := make([]byte, 128)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	head = head[:n]
	if line, _, _ := strings.Cut(string(head), "\n"); strings.HasPrefix(line, "\x7fELF") || strings.IndexByte(line, 0) >= 0 {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrBinary}
	}
	rest, err := io.ReadAll(io.LimitReader(f, MaxScriptBytes+1-int64(n)))
	if err != nil {
		return nil, err
	}
	b := append(head, rest...)
	if len(b) > MaxScriptBytes {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	return b, nil
}

func regular(path string, fi fs.FileInfo) error {
	switch {
	case fi.IsDir():
		return &fs.PathError{Op: "read", Path: path, Err: ErrDirectory}
	case !fi.Mode().IsRegular():
		return &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	case fi.Size() > MaxScriptBytes:
		return &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	return nil
}

// scripts is what one walk knows of the script files it read.
type scripts struct {
	stack []string // the scripts being walked, innermost last
	files map[string]scriptFile
	walks int
	// hidden: a part reported before, up to scanned, is opaque.
	scanned int
	hidden  bool
}

type scriptFile struct {
	text string
	err  error
}

func (w *walker) readScript(path string) (string, error) {
	if w.scripts == nil {
		w.scripts = &scripts{files: map[string]scriptFile{}}
	}
	if f, ok := w.scripts.files[path]; ok {
		return f.text, f.err
	}
	b, err := w.opts.ReadScript(path)
	f := scriptFile{text: string(b), err: err}
	w.scripts.files[path] = f
	return f.text, f.err
}

// How a script's name is looked up.
type lookup int

const (
	lookHere   lookup = iota // a program named by a path: relative to the working directory
	lookBash                 // bash FILE: the working directory, then PATH for a name without a slash
	lookSource               // source FILE: PATH for a name without a slash, then the working directory
)

// A script is a script file found, and its text.
type script struct {
	path, text string
	// written: the file is not there yet, and this shell writes it first
	// with text (noteWrite).
	written *Written
}

// findScript finds the file a command runs as the shell or the kernel
// would, and reads it. why says why it cannot be read (then the command
// stays opaque).
func (w *walker) findScript(sc *scope, name string, how lookup) (found script, why string) {
	if name == "" {
		return script{}, "has an empty name"
	}
	// try reads one candidate: found, or a reason to stop looking.
	type result struct {
		script
		why    string
		absent bool // nothing there: look on
	}
	try := func(p string, skipDirs bool) result {
		if !filepath.IsAbs(p) {
			dir, ok := knownDir(sc)
			if !ok {
				return result{why: "is relative to a working directory not known here"}
			}
			p = physpath.Join(dir, p)
		}
		p, known := w.lexical(p)
		if !known {
			return result{why: "goes through a .. after a directory that is not there yet, which the command may make a link to anywhere"}
		}
		t, err := w.readScript(p)
		switch {
		case err == nil:
			return result{script: script{path: p, text: t}}
		case errors.Is(err, fs.ErrNotExist) && sc.written[p] != nil && absent(p):
			wr := sc.written[p]
			return result{script: script{path: p, text: wr.Text, written: wr}}
		case errors.Is(err, fs.ErrNotExist), skipDirs && errors.Is(err, ErrDirectory):
			return result{absent: true, why: "does not exist here"}
		}
		return result{why: "cannot be read here: " + errText(err)}
	}
	onPath := func() result {
		dirs, ok := w.pathDirs(sc)
		if !ok {
			return result{why: "is looked up on a PATH not known here"}
		}
		for _, d := range dirs {
			if d == "" {
				d = "."
			}
			// bash takes the first readable file that is not a directory.
			if r := try(filepath.Join(d, name), true); !r.absent {
				return r
			}
		}
		return result{absent: true, why: "does not exist here"}
	}
	slash := strings.Contains(name, "/")
	var r result
	switch how {
	case lookHere:
		r = try(name, false)
	case lookBash:
		if r = try(name, false); r.absent && !slash {
			r = onPath()
		}
	case lookSource:
		if !slash {
			if r = onPath(); !r.absent {
				break
			}
		}
		r = try(name, false)
	}
	if r.why != "" {
		return script{}, r.why
	}
	return r.script, ""
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// realPath is path with its links resolved, or path when that fails.
// physical is the file an absolute path names for the kernel: links
// followed in turn, each ".." taken after the link before it (y/../../zz
// is not ../zz when y is a link). ok is false when a ".." comes after a
// component that is not there yet, which the text may make a link first.
// A path without ".." is realPath's.
func (w *walker) physical(path string) (string, bool) {
	if !physpath.HasDotDot(path) {
		return realPath(filepath.Clean(path)), true
	}
	if w.phys == nil {
		w.phys = physpath.New()
	}
	return w.phys(path)
}

// lexical is an absolute path cleaned as text when that names the same
// file as the kernel would (no ".."), else the physical path; ok as for
// physical.
func (w *walker) lexical(path string) (string, bool) {
	if !physpath.HasDotDot(path) {
		return filepath.Clean(path), true
	}
	return w.physical(path)
}

func realPath(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// knownDir is the one directory sc runs in, when it is known.
func knownDir(sc *scope) (string, bool) {
	if sc.cwd.Unknown || len(sc.cwd.Dirs) != 1 {
		return "", false
	}
	return sc.cwd.Dirs[0], true
}

// pathDirs is the PATH a name is looked up on: a value the text set, or
// the inherited one when no text read names PATH (a child shell's scope
// does not know what its parent exported) and nothing hidden came before.
func (w *walker) pathDirs(sc *scope) ([]string, bool) {
	if sc.havoc {
		return nil, false
	}
	if st, ok := sc.vars.lookup("PATH"); ok {
		v, static := st.val.Static()
		if st.unknown || st.unset || !static {
			return nil, false
		}
		return strings.Split(v, ":"), true
	}
	if w.pathTouched {
		return nil, false
	}
	// Code the guard cannot see (an unread sourced file, an eval, a
	// variable named at run time) may have set PATH.
	if w.scripts == nil {
		w.scripts = &scripts{files: map[string]scriptFile{}}
	}
	// A second reading of the same code may have been dropped since.
	w.scripts.scanned = min(w.scripts.scanned, len(w.res.Cmds))
	for ; w.scripts.scanned < len(w.res.Cmds) && !w.scripts.hidden; w.scripts.scanned++ {
		if c := w.res.Cmds[w.scripts.scanned]; c != nil {
			w.scripts.hidden = c.Opaque != ""
		} else {
			// Released (Options.Release): those scanned before were not
			// opaque, so whether one of the rest was is whether any was.
			w.scripts.hidden = w.releasedOpaque
		}
	}
	if w.scripts.hidden {
		return nil, false
	}
	v := w.getenv("PATH")
	if v == "" {
		return nil, false // bash would use its own default
	}
	return strings.Split(v, ":"), true
}

// readsScripts: scripts are read, and this walk reports what it finds
// (a function never called is walked only to check its text).
func (w *walker) readsScripts() bool { return w.opts.ReadScript != nil && !w.checking }

// allowedOpaque asks Options.AllowedOpaque about c as it would be
// reported without reading its script.
func (w *walker) allowedOpaque(sc *scope, c *Cmd) bool {
	if w.localScript {
		// A program file of the project is covered only by a rule of the
		// person's (localProgram asked already): the built-in read-only
		// ls is not about ./ls.
		return false
	}
	if w.opts.AllowedOpaque == nil {
		return false
	}
	cp := *c
	cp.Cwd = Cwd{Dirs: sc.cwd.Dirs, Unknown: sc.cwd.Unknown, Data: sc.cwd.Data}
	cp.Pos = w.pos
	cp.Via = append([]Step(nil), w.via...)
	return w.opts.AllowedOpaque(&cp)
}

// scriptRefused says why a script found cannot be walked: the bounds.
func (w *walker) scriptRefused(path, text string) string {
	if w.scripts != nil {
		for _, p := range w.scripts.stack {
			if p == path {
				return "runs itself again, which the guard does not follow"
			}
		}
		if len(w.scripts.stack) >= MaxScriptDepth {
			return fmt.Sprintf("is run by scripts nested more than %d deep", MaxScriptDepth)
		}
		if w.scripts.walks >= MaxScriptWalks {
			return fmt.Sprintf("comes after %d scripts read for this command, the most the guard reads", MaxScriptWalks)
		}
	}
	if len(w.via) >= MaxDepth-1 {
		return fmt.Sprintf("is nested in code more than %d levels deep", MaxDepth)
	}
	if w.bytes+len(text) > MaxBytes {
		return fmt.Sprintf("would take the text judged past %d bytes", MaxBytes)
	}
	return ""
}

// walkScript walks a script's text in sc, read in the dialects of the
// shell prog ("" for the shell walking now: a sourced file). Every part
// found says where it is (Via: "script NAME:LINE"); positions stay the
// carrier's, which is where the top-level text runs the script.
func (w *walker) walkScript(sc *scope, prog string, s script, shown string, carrierCmd *Cmd) {
	path, text := s.path, s.text
	carrier := carrierCmd.Argv
	langs := []syntax.LangVariant{w.lang}
	if w.lang == 0 {
		langs[0] = syntax.LangBash
	}
	if prog != "" {
		langs = dialects(prog)
	}
	if w.opts.ScriptRead != nil {
		w.opts.ScriptRead(FileRead{Path: path, What: "runs the script " + path, Written: s.written}, carrierCmd)
		if real := realPath(path); real != path {
			// Through a link: a write to its target changes it too.
			w.opts.ScriptRead(FileRead{Path: real, What: "runs the script " + path + " (" + real + ")"}, carrierCmd)
		}
	}
	w.scripts.stack = append(w.scripts.stack, path)
	w.scripts.walks++
	w.nested++
	layerAt := len(w.via)
	w.via = append(w.via, Step{Kind: "script " + shown, Argv: word.Strings(carrier)})
	old, oldLang := w.curScope, w.lang
	defer func() {
		w.scripts.stack = w.scripts.stack[:len(w.scripts.stack)-1]
		w.nested--
		w.via = w.via[:layerAt]
		w.curScope, w.lang = old, oldLang
	}()
	start := len(w.res.Cmds)
	for i, lang := range langs {
		ls := sc
		if i < len(langs)-1 {
			ls = sc.clone()
		}
		mark := len(w.res.Cmds)
		f, perr := w.parse(text, lang)
		if perr != nil {
			w.emit(&Cmd{Argv: carrier, Opaque: "the script " + shown + " cannot be read reliably (" + perr.Reason + ")", CodeArg: -1})
		} else {
			w.curScope, w.lang = ls, lang
			for _, st := range f.Stmts {
				if !w.step() {
					break
				}
				w.via[layerAt].Kind = fmt.Sprintf("script %s:%d", shown, st.Position.Line())
				settle(ls)
				w.stmt(ls, st, nil)
			}
			settle(ls)
		}
		if i > 0 && reflect.DeepEqual(w.res.Cmds[start:mark], w.res.Cmds[mark:]) {
			w.res.Cmds = w.res.Cmds[:mark]
		}
	}
}

// sourceScript walks the file `source FILE [ARG…]` reads, in the current
// shell: what it assigns, defines and changes directory to stays. It
// reports false when the file is not read (cmd is then opaque).
func (w *walker) sourceScript(sc *scope, cmd *Cmd) bool {
	argv := cmd.Argv
	name, ok := argv[1].Static()
	if !ok || strings.HasPrefix(name, "-") || !w.readsScripts() || w.allowedOpaque(sc, cmd) {
		return false
	}
	found, why := w.findScript(sc, name, lookSource)
	if why == "" {
		why = w.scriptRefused(found.path, found.text)
	}
	if why != "" {
		cmd.Opaque += " (" + name + " " + why + ")"
		return false
	}
	carrier := *cmd
	carrier.Opaque, carrier.Wrapper = "", true
	w.emit(&carrier)
	oldParams, oldUnknown := sc.params, sc.paramsUnknown
	var given []string
	withArgs := len(argv) > 2
	if withArgs {
		// The arguments are the positional parameters while it runs.
		args, ok := staticArgs(argv[2:])
		zero := "bash"
		if len(sc.params) > 0 {
			zero = sc.params[0]
		}
		given = append([]string{zero}, args...)
		sc.params, sc.paramsUnknown = given, !ok || oldUnknown && len(oldParams) == 0
	}
	w.walkScript(sc, "", found, name, &carrier)
	if withArgs {
		// bash restores them, unless the file set new ones (set --).
		if sc.paramsUnknown || !sameStrings(sc.params, given) {
			sc.paramsUnknown = true
		} else {
			sc.params, sc.paramsUnknown = oldParams, oldUnknown
		}
	}
	sc.dead = false // a return ends the file, not the caller; an exit is followed too far
	return true
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// rcFile walks the start-up file an interactive shell runs first (bash
// -i --rcfile F), in that shell; false when it cannot be read, and a part
// that asks stands for it.
func (w *walker) rcFile(sc *scope, cmd *Cmd, prog, file string) bool {
	why := "is not read here"
	var found script
	if w.readsScripts() {
		found, why = w.findScript(sc, file, lookHere)
		if why == "" {
			why = w.scriptRefused(found.path, found.text)
		}
	}
	if why != "" {
		c := *cmd
		c.Wrapper, c.CodeArg = false, -1
		c.Opaque = prog + " runs the start-up file " + file + " first (" + file + " " + why + ")"
		w.emit(&c)
		return false
	}
	w.walkScript(sc, prog, found, file, cmd)
	return true
}

// shellScript walks the script of `bash FILE [ARG…]` in a new shell.
func (w *walker) shellScript(sc *scope, cmd *Cmd, prog, file string, params []string, paramsUnknown, errexit bool) bool {
	if !w.readsScripts() || w.allowedOpaque(sc, cmd) {
		return false
	}
	found, why := w.findScript(sc, file, lookBash)
	if why == "" {
		why = w.scriptRefused(found.path, found.text)
	}
	if why != "" {
		cmd.Opaque += " (" + file + " " + why + ")"
		return false
	}
	carrier := *cmd
	carrier.Opaque = ""
	w.emit(&carrier)
	child := w.childScope(sc, params, paramsUnknown)
	child.errexit = errexit
	w.walkScript(child, prog, found, file, &carrier)
	return true
}

// execScript runs a program named by a path when the file is a shell
// script: a "#!" line naming a shell runs it (the command is then that
// shell's, walked as such), and a text without one is run by the shell
// itself (bash, or /bin/sh when a program other than bash starts it,
// through execvp: read both ways). A binary, a script for another
// interpreter or a file that cannot be read stays a program: false.
func (w *walker) execScript(sc *scope, cmd *Cmd, name string, bg bool) bool {
	if !w.readsScripts() || w.allowedOpaque(sc, cmd) {
		return false
	}
	found, why := w.findScript(sc, name, lookHere)
	if why != "" {
		return false
	}
	text := found.text
	line, _, _ := strings.Cut(text, "\n")
	if strings.HasPrefix(text, "\x7fELF") || strings.IndexByte(line, 0) >= 0 {
		return false // a binary (bash too refuses a first line with NUL)
	}
	carrier := *cmd
	carrier.Wrapper, carrier.CodeArg = true, 0
	if !strings.HasPrefix(line, "#!") {
		if w.scriptRefused(found.path, text) != "" {
			return false
		}
		w.emit(&carrier)
		args, ok := staticArgs(cmd.Argv[1:])
		child := w.childScope(sc, append([]string{name}, args...), !ok)
		w.walkScript(child, w.fallbackShell(), found, name, &carrier)
		return true
	}
	interp, ok := shebang(line)
	if !ok {
		return false
	}
	if _, untrusted := w.untrustedPath(sc, word.FromLit(filepath.Dir(interp[0]))); untrusted {
		// A "bash" in the project or a temporary directory is a program
		// like any other there, not the shell: trusted only where a PATH
		// entry would be.
		return false
	}
	argv := make([]word.Word, 0, len(interp)+len(cmd.Argv))
	for _, s := range interp {
		argv = append(argv, word.FromLit(s))
	}
	argv = append(append(argv, word.FromLit(name)), cmd.Argv[1:]...)
	w.emit(&carrier)
	w.via = append(w.via, Step{Kind: strings.TrimRight(line, " \t"), Argv: word.Strings(cmd.Argv)})
	w.run(sc, argv, cmd.Assigns, nil, cmd.Stdin, true, bg)
	w.via = w.via[:len(w.via)-1]
	return true
}

// fallbackShell is the shell that runs a file without a "#!" line: bash
// runs it itself when bash runs the command (ENOEXEC), any other program
// through execvp's /bin/sh, which may be bash or another sh.
func (w *walker) fallbackShell() string {
	if w.lang != 0 && w.lang != syntax.LangBash {
		return "sh"
	}
	if len(w.via) == 0 {
		return "bash"
	}
	k := w.via[len(w.via)-1].Kind
	for _, own := range []string{"function ", "script ", "eval", "trap", "alias ", "$(", "<(", ">(", "`"} {
		if strings.HasPrefix(k, own) {
			return "bash"
		}
	}
	if k == "shell bash" || k == "shell rbash" {
		return "bash"
	}
	return "sh"
}

// shebang reads a "#!" line as Linux does (an absolute interpreter and at
// most one argument, the rest of the line) when it names a shell, itself
// or through env; false for anything else, which is not read here.
func shebang(line string) ([]string, bool) {
	if len(line) > 255 {
		return nil, false // longer than the kernel reads
	}
	rest := strings.Trim(line[2:], " \t")
	interp, arg, _ := strings.Cut(strings.Map(func(r rune) rune {
		if r == '\t' {
			return ' '
		}
		return r
	}, rest), " ")
	arg = strings.Trim(arg, " ")
	if !filepath.IsAbs(interp) {
		return nil, false
	}
	out := []string{interp}
	if arg != "" {
		out = append(out, arg)
	}
	prog := argspec.ProgName(interp)
	if shells(prog) {
		return out, true
	}
	if prog != "env" {
		return nil, false
	}
	// #!/usr/bin/env bash, #!/usr/bin/env -S bash -e: the first word
	// that is not an option or an assignment is the program.
	for _, f := range strings.Fields(strings.TrimPrefix(arg, "-S")) {
		if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
			continue
		}
		return out, shells(argspec.ProgName(f))
	}
	return nil, false
}
