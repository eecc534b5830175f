package argspec

import (
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/word"
)

// Inner is what a wrapper program runs: a command, or shell code.
type Inner struct {
	Argv []word.Word // a command run directly
	Code *word.Word  // shell code run with sh -c
	Cwd  *word.Word  // a directory the command runs in (env -C)
	// CwdUnknown: the command runs in a directory not known here.
	CwdUnknown bool
	// Assigns are variables the wrapper sets for the command (env A=1).
	Assigns []EnvAssign
}

// EnvAssign is a variable a wrapper sets for the command it runs.
type EnvAssign struct {
	Name  string
	Value word.Word
}

// wrapper finds the command a wrapper program runs. ok is false when the
// wrapper's argv cannot be read (an unknown option, a dynamic word where
// the command should be); the reason says why.
type wrapper func(argv []word.Word, sp *Spec) (in *Inner, reason string)

// Wrapped reads the command the wrapper program prog runs (env, nice,
// timeout, xargs, sudo, ssh, …): ok is false when prog is no wrapper. A
// reason says why the argv cannot be read; the command is then not known.
// An Inner with neither Argv nor Code runs nothing (env alone prints).
func Wrapped(prog string, argv []word.Word) (in *Inner, reason string, ok bool) {
	wr, ok := wrappers()[prog]
	if !ok {
		return nil, "", false
	}
	in, reason = wr(argv, Lookup(prog))
	return in, reason, true
}

// wrappers is the table of programs that run another program. Each entry
// reads the wrapper's own options with its Spec (so option values are
// never mistaken for the command) and returns the command. Adding a
// wrapper is one line here, plus its option spec in catalog.go; its class
// (class.go) follows from this table.
var wrappers = sync.OnceValue(func() map[string]wrapper {
	return map[string]wrapper{
		"env":      envWrapper,
		"sudo":     optsThen(0, true, "--user", "--group", "--chdir"),
		"doas":     optsThen(0, true),
		"nice":     optsThen(0, false),
		"nohup":    optsThen(0, false),
		"timeout":  optsThen(1, false), // DURATION COMMAND
		"stdbuf":   optsThen(0, false),
		"setsid":   optsThen(0, false),
		"ionice":   optsThen(0, false),
		"chrt":     chrtWrapper,
		"taskset":  tasksetWrapper,
		"flock":    flockWrapper,
		"watch":    watchWrapper,
		"time":     optsThen(0, false),
		"command":  commandWrapper,
		"builtin":  optsThen(0, false),
		"exec":     optsThen(0, false),
		"xargs":    xargsWrapper,
		"busybox":  optsThen(0, false),
		"toybox":   optsThen(0, false), // toybox CMD runs its CMD, as busybox does
		"su":       suWrapper,
		"runuser":  suWrapper,
		"script":   scriptWrapper,
		"unbuffer": optsThen(0, false),
		"strace":   optsThen(0, false),
		"ltrace":   optsThen(0, false),
		"chroot":   chrootWrapper,
		"parallel": parallelWrapper,
		"ssh":      sshWrapper,
	}
})

// ReadWrapper normalises a wrapper's argv with its spec, stopping at the
// first operand: a wrapper's options end where its command begins.
func ReadWrapper(argv []word.Word, sp *Spec) (*Cmd, []word.Word, string) {
	if sp == nil {
		return &Cmd{}, argv[1:], ""
	}
	// Find where options end: the first word that is not an option or an
	// option's value.
	args := argv[1:]
	i := 0
	for i < len(args) {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') {
				return nil, nil, "a word that is not known here stands where an option of " + sp.Name + " could be"
			}
			break
		}
		if t == "--" {
			i++
			break
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			break
		}
		if sp.NumericOpt != "" && word.IsInteger(t[1:]) {
			i++
			continue
		}
		if strings.HasPrefix(t, "--") {
			name, _, hasVal := strings.Cut(t, "=")
			canon := sp.Opt(name)
			if canon == "" {
				return nil, nil, "unknown option " + name + " of " + sp.Name
			}
			i++
			if !hasVal && takesValue(sp, canon) && i < len(args) {
				i++
			}
			continue
		}
		rs := []rune(t[1:])
		i++
		for j := 0; j < len(rs); j++ {
			canon := sp.Opt("-" + string(rs[j]))
			if canon == "" {
				return nil, nil, "unknown option -" + string(rs[j]) + " of " + sp.Name
			}
			if takesValue(sp, canon) {
				if j == len(rs)-1 && i < len(args) && requiresValue(sp, canon) {
					i++
				}
				break
			}
		}
	}
	c := sp.Normalize(args[:i], false)
	return c, args[i:], ""
}

func takesValue(sp *Spec, canon string) bool {
	for _, o := range sp.Options() {
		if o.Canon == canon {
			return o.Arity != NoArg
		}
	}
	return false
}

func requiresValue(sp *Spec, canon string) bool {
	for _, o := range sp.Options() {
		if o.Canon == canon {
			return o.Arity == ReqArg
		}
	}
	return false
}

// optsThen reads options, skips skip operands (timeout's duration), and
// runs the rest. Options named in noCmd mean there is no command when no
// operand follows (sudo -u x alone is not an error we need to judge).
func optsThen(skip int, shellOpts bool, _ ...string) wrapper {
	return func(argv []word.Word, sp *Spec) (*Inner, string) {
		c, rest, reason := ReadWrapper(argv, sp)
		if reason != "" {
			return nil, reason
		}
		if len(rest) < skip {
			return &Inner{}, ""
		}
		rest = rest[skip:]
		in := &Inner{}
		if shellOpts {
			// sudo and doas take NAME=value settings before the command.
			for len(rest) > 0 {
				p := rest[0].Prefix()
				eq := strings.IndexByte(p, '=')
				if eq <= 0 || !word.IsName(p[:eq]) {
					break
				}
				v, _ := rest[0].TrimPrefix(p[:eq+1])
				in.Assigns = append(in.Assigns, EnvAssign{Name: p[:eq], Value: v})
				rest = rest[1:]
			}
		}
		in.Argv = rest
		if shellOpts && c != nil && (c.Has("--shell") || c.Has("--login")) && len(rest) > 0 {
			// sudo -s CMD / sudo -i CMD run CMD through a shell.
			code := JoinWords(rest)
			in.Argv, in.Code = nil, &code
		}
		if c != nil {
			if d := c.Values("--chdir"); len(d) > 0 {
				in.Cwd = &d[len(d)-1]
			}
		}
		return in, ""
	}
}

// envWrapper: env [OPTION]... [NAME=VALUE]... [COMMAND [ARG]...]
func envWrapper(argv []word.Word, sp *Spec) (*Inner, string) {
	c, rest, reason := ReadWrapper(argv, sp)
	if reason != "" {
		return nil, reason
	}
	in := &Inner{}
	if d := c.Values("--chdir"); len(d) > 0 {
		in.Cwd = &d[len(d)-1]
	}
	if ss := c.Values("--split-string"); len(ss) > 0 {
		// -S splits its string into words that come before the rest.
		var split []word.Word
		for _, s := range ss {
			t, ok := s.Static()
			if !ok {
				return nil, "env -S with a string not known here"
			}
			words, why := splitEnvS(t)
			if why != "" {
				return nil, why
			}
			split = append(split, words...)
		}
		rest = append(split, rest...)
	}
	for len(rest) > 0 {
		t, ok := rest[0].Static()
		name, val, isAssign := strings.Cut(t, "=")
		if !ok {
			if p := rest[0].Prefix(); strings.Contains(p, "=") && word.IsName(p[:strings.IndexByte(p, '=')]) {
				name, isAssign = p[:strings.IndexByte(p, '=')], true
				v, _ := rest[0].TrimPrefix(name + "=")
				in.Assigns = append(in.Assigns, EnvAssign{Name: name, Value: v})
				rest = rest[1:]
				continue
			}
			break
		}
		if !isAssign || !word.IsName(name) {
			break
		}
		in.Assigns = append(in.Assigns, EnvAssign{Name: name, Value: word.FromLit(val)})
		rest = rest[1:]
	}
	in.Argv = rest
	return in, ""
}

// splitEnvS splits env -S's string as GNU env does (checked against
// coreutils 9.1's env, TestSplitEnvSAgainstEnv): blanks separate, quotes
// group; outside single quotes a backslash escapes \\ \' \" \$ \# and
// makes \f \n \r \t \v those characters, \_ a separator (a space in
// double quotes), and \c ends the string (not in double quotes); any
// other escape is an error; '#' starting a word starts a comment; ${NAME}
// outside single quotes is NAME's value in env's environment, unknown
// here: a value from data (word.UnknownData) that is not split again. A
// string env refuses runs nothing: reason says why.
func splitEnvS(s string) (out []word.Word, reason string) {
	var cur word.Word
	has := false
	flush := func() {
		if has {
			if len(cur.Segs) == 0 {
				cur = word.FromLit("") // "" is an empty word
			}
			out = append(out, cur)
		}
		cur, has = word.Word{}, false
	}
	escape := func(c byte, dq bool) (string, bool) {
		switch c {
		case '\\', '\'', '"', '$', '#':
			return string(c), true
		case 'f':
			return "\f", true
		case 'n':
			return "\n", true
		case 'r':
			return "\r", true
		case 't':
			return "\t", true
		case 'v':
			return "\v", true
		case '_':
			if dq {
				return " ", true
			}
		}
		return "", false
	}
	// variable reads ${NAME} at s[i] ('$'), returning the index after it.
	variable := func(i int) (int, bool) {
		if i+1 >= len(s) || s[i+1] != '{' {
			return 0, false
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 || !word.IsName(s[i+2:i+j]) {
			return 0, false
		}
		cur.Add(word.UnknownData("${" + s[i+2:i+j] + "}").Segs[0])
		has = true
		return i + j + 1, true
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			flush()
			i++
		case c == '#' && !has:
			return out, "" // a comment to the end
		case c == '\'':
			j := i + 1
			for ; j < len(s) && s[j] != '\''; j++ {
				if s[j] == '\\' && j+1 < len(s) && (s[j+1] == '\\' || s[j+1] == '\'') {
					j++
				}
				cur.AddLit(string(s[j]))
			}
			if j >= len(s) {
				return nil, "env -S with an unterminated quote runs nothing"
			}
			has, i = true, j+1
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				switch {
				case s[j] == '\\' && j+1 < len(s):
					e, ok := escape(s[j+1], true)
					if !ok {
						return nil, "env -S with an escape env refuses runs nothing"
					}
					cur.AddLit(e)
					j += 2
				case s[j] == '$':
					k, ok := variable(j)
					if !ok {
						return nil, "env -S expands only ${NAME}: anything else runs nothing"
					}
					j = k
				default:
					cur.AddLit(string(s[j]))
					j++
				}
			}
			if j >= len(s) {
				return nil, "env -S with an unterminated quote runs nothing"
			}
			has, i = true, j+1
		case c == '\\':
			if i+1 >= len(s) {
				return nil, "env -S with an escape env refuses runs nothing"
			}
			switch s[i+1] {
			case 'c':
				flush()
				return out, ""
			case '_':
				flush()
				i += 2
				continue
			}
			e, ok := escape(s[i+1], false)
			if !ok {
				return nil, "env -S with an escape env refuses runs nothing"
			}
			cur.AddLit(e)
			has, i = true, i+2
		case c == '$':
			k, ok := variable(i)
			if !ok {
				return nil, "env -S expands only ${NAME}: anything else runs nothing"
			}
			i = k
		default:
			cur.AddLit(string(c))
			has, i = true, i+1
		}
	}
	flush()
	return out, ""
}

func chrtWrapper(argv []word.Word, sp *Spec) (*Inner, string) {
	c, rest, reason := ReadWrapper(argv, sp)
	if reason != "" {
		return nil, reason
	}
	if c.Has("--pid") || c.Has("--max") || len(rest) < 2 {
		return &Inner{}, ""
	}
	return &Inner{Argv: rest[1:]}, ""
}

func tasksetWrapper(argv []word.Word, sp *Spec) (*Inner, string) {
	c, rest, reason := ReadWrapper(argv, sp)
	if reason != "" {
		return nil, reason
	}
	if c.Has("--pid") || len(rest) < 2 {
		return &Inner{}, ""
	}
	return &Inner{Argv: rest[1:]}, ""
}

// flockWrapper: flock [opts] FILE COMMAND [ARGS] | flock [opts] FILE -c STRING | flock [opts] FD
func flockWrapper(argv []word.Word, sp *Spec) (*Inner, string) {
	c, rest, reason := ReadWrapper(argv, sp)
	if reason != "" {
		return nil, reason
	}
	if code := c.Values("--command"); len(code) > 0 {
		return &Inner{Code: &code[len(code)-1]}, ""
	}
	if len(rest) < 2 {
		return &Inner{}, ""
	}
	if t, _ := rest[1].Static(); t == "-c" || t == "--command" {
		if len(rest) < 3 {
			return &Inner{}, ""
		}
		return &Inner{Code: &rest[2]}, ""
	}
	return &Inner{Argv: rest[1:]}, ""
}

// watchWrapper: watch runs its arguments joined by spaces with sh -c,
// unless -x.
func watchWrapper(argv []word.Word, sp *Spec) (*Inner, string) {
	c, rest, reason := ReadWrapper(argv, sp)
	if reason != "" {
		return nil, reason
	}
	if len(rest) == 0 {
		return &Inner{}, ""
	}
	if c.Has("--exec") {
		return &Inner{Argv: rest}, ""
	}
	code := JoinWords(rest)
	return &Inner{Code: &code}, ""
}

// commandWrapper: command -v/-V only look a name up.
func commandWrapper(argv []word.Word, sp *Spec) (*Inner, string) {
	c, rest, reason := ReadWrapper(argv, sp)
	if reason != "" {
		return nil, reason
	}
	if c.Has("-v") || c.Has("-V") {
		return &Inner{}, ""
	}
	return &Inner{Argv: rest}, ""
}

// xargsWrapper: the command (echo by default) gets words from standard
// input, appended or in place of the -I string.
func xargsWrapper(argv []word.Word, sp *Spec) (*Inner, string) {
	c, rest, reason := ReadWrapper(argv, sp)
	if reason != "" {
		return nil, reason
	}
	if len(rest) == 0 {
		rest = []word.Word{word.FromLit("echo")}
	}
	// What xargs reads: data (word.Seg.Data).
	input := word.Word{Segs: []word.Seg{{Kind: word.Hole, Data: true, Text: "{input}"}}, Multi: true}
	repl := ""
	for _, v := range append(c.Values("-I"), c.Values("--replace")...) {
		repl, _ = v.Static()
		if repl == "" {
			repl = "{}"
		}
	}
	if c.Has("--replace") && repl == "" {
		repl = "{}"
	}
	out := make([]word.Word, 0, len(rest)+1)
	for i, a := range rest {
		if t, ok := a.Static(); ok && repl != "" && i > 0 && strings.Contains(t, repl) {
			out = append(out, substitute(t, repl))
			continue
		}
		out = append(out, a)
	}
	if repl == "" {
		out = append(out, input)
	}
	return &Inner{Argv: out}, ""
}

// substitute replaces each occurrence of placeholder in t with a hole.
func substitute(t, placeholder string) word.Word {
	var w word.Word
	parts := strings.Split(t, placeholder)
	for i, p := range parts {
		if i > 0 {
			w.Add(word.Seg{Kind: word.Hole, Data: true, Text: placeholder}) // what xargs reads
		}
		if p != "" {
			w.AddLit(p)
		}
	}
	return w
}

// suWrapper: su [options] [-] [USER [ARG...]]; -c runs a string with the
// user's shell.
func suWrapper(argv []word.Word, sp *Spec) (*Inner, string) {
	c := sp.Normalize(argv[1:], false)
	if code := c.Values("--command"); len(code) > 0 {
		return &Inner{Code: &code[len(code)-1]}, ""
	}
	if u := c.Values("--user"); len(u) > 0 && len(c.Args) > 0 {
		// runuser -u USER COMMAND ARGS
		return &Inner{Argv: c.Args}, ""
	}
	// su USER alone starts an interactive shell; su USER ARGS passes ARGS
	// to the shell.
	args := c.Args
	if len(args) > 0 {
		if t, _ := args[0].Static(); t == "-" {
			args = args[1:]
		}
	}
	if len(args) > 1 {
		return nil, "su passes arguments to the target user's shell"
	}
	return &Inner{}, ""
}

func scriptWrapper(argv []word.Word, sp *Spec) (*Inner, string) {
	c := sp.Normalize(argv[1:], false)
	if code := c.Values("--command"); len(code) > 0 {
		return &Inner{Code: &code[len(code)-1]}, ""
	}
	if c.Has("--help") || c.Has("--version") {
		return &Inner{}, ""
	}
	// With any other options and a FILE too: script -q, script -qe,
	// script -q /dev/null all start $SHELL, which runs what it reads (a
	// red team fed it a command on standard input).
	return nil, "script without -c starts an interactive shell, which runs what it reads"
}

func chrootWrapper(argv []word.Word, sp *Spec) (*Inner, string) {
	_, rest, reason := ReadWrapper(argv, sp)
	if reason != "" {
		return nil, reason
	}
	if len(rest) < 2 {
		return nil, "chroot without a command starts a shell"
	}
	return &Inner{Argv: rest[1:], CwdUnknown: true}, ""
}

// parallelWrapper: GNU parallel runs its command template through a
// shell, once per input; without a template the commands come from input.
func parallelWrapper(argv []word.Word, _ *Spec) (*Inner, string) {
	args := argv[1:]
	i := 0
	withArg := map[string]bool{"-j": true, "--jobs": true, "-S": true, "--sshlogin": true, "-a": true,
		"--arg-file": true, "--joblog": true, "-d": true, "--delimiter": true, "-I": true, "--colsep": true,
		"-N": true, "-n": true, "--max-args": true, "--results": true, "--tmpdir": true, "--timeout": true,
		"--retries": true, "--workdir": true, "--env": true, "--load": true, "--memfree": true, "--delay": true}
	for i < len(args) {
		t, ok := args[i].Static()
		if !ok || !strings.HasPrefix(t, "-") || t == ":::" || t == "::::" {
			break
		}
		i++
		if withArg[t] && i < len(args) {
			i++
		}
	}
	var tmpl []word.Word
	for ; i < len(args); i++ {
		if t, _ := args[i].Static(); t == ":::" || t == "::::" || t == ":::+" || t == "::::+" {
			break
		}
		tmpl = append(tmpl, args[i])
	}
	if len(tmpl) == 0 {
		return nil, "parallel runs commands read from its input"
	}
	code := JoinWords(tmpl)
	if s, ok := code.Static(); ok {
		if jobs, ok := parallelJobs(s, args[i:]); ok {
			code = word.FromLit(jobs)
			return &Inner{Code: &code}, ""
		}
		for _, ph := range []string{"{}", "{.}", "{/}", "{//}", "{/.}", "{#}", "{%}", "{1}", "{2}", "{3}"} {
			s = strings.ReplaceAll(s, ph, "\"$GUARD_INPUT\"")
		}
		code = word.FromLit(s + " \"$GUARD_INPUT\"")
	}
	return &Inner{Code: &code}, ""
}

// parallelJobs spells out the jobs of "parallel TEMPLATE ::: a b ::: c"
// when every input is a literal: one line of shell per combination of the
// sources (a superset of the pairs --link would make), the placeholders
// replaced by the quoted inputs, or the inputs appended when there is none.
// A source that is a file (::::), a linked source (:::+), or too many jobs
// leave the inputs unknown.
func parallelJobs(tmpl string, rest []word.Word) (string, bool) {
	var groups [][]string
	for _, w := range rest {
		t, ok := w.Static()
		if !ok {
			return "", false
		}
		switch t {
		case ":::":
			groups = append(groups, nil)
			continue
		case "::::", ":::+", "::::+":
			return "", false
		}
		if len(groups) == 0 {
			return "", false
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], t)
	}
	jobs := [][]string{nil}
	for _, g := range groups {
		if len(g) == 0 {
			return "", false
		}
		var next [][]string
		for _, j := range jobs {
			for _, v := range g {
				next = append(next, append(append([]string(nil), j...), v))
			}
		}
		if len(next) > 16 {
			return "", false
		}
		jobs = next
	}
	if len(groups) == 0 {
		return "", false
	}
	var b strings.Builder
	for n, j := range jobs {
		all := make([]string, len(j))
		var pairs []string
		for k, v := range j {
			all[k] = word.ShellQuote(v)
			pairs = append(pairs, "{"+strconv.Itoa(k+1)+"}", word.ShellQuote(v))
		}
		in := strings.Join(j, " ")
		dir, base := path.Split(in)
		pairs = append(pairs,
			"{//}", word.ShellQuote(strings.TrimSuffix(dir, "/")),
			"{/.}", word.ShellQuote(strings.TrimSuffix(base, path.Ext(base))),
			"{/}", word.ShellQuote(base),
			"{.}", word.ShellQuote(strings.TrimSuffix(in, path.Ext(in))),
			"{#}", strconv.Itoa(n+1),
			"{%}", "1",
			"{}", strings.Join(all, " "))
		// One pass: an input that contains "{}" is not replaced again.
		line := strings.NewReplacer(pairs...).Replace(tmpl)
		if line == tmpl {
			line += " " + strings.Join(all, " ")
		}
		b.WriteString(line + "\n")
	}
	return b.String(), true
}

// sshWrapper: ssh [options] HOST [COMMAND...]: the command words are
// joined and run by the remote user's shell.
func sshWrapper(argv []word.Word, _ *Spec) (*Inner, string) {
	withArg := "BbcDEeFIiJLlmOoPpQRSWw"
	args := argv[1:]
	i := 0
	for i < len(args) {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') {
				return nil, "a word that is not known here stands where an option of ssh could be"
			}
			break
		}
		if t == "--" {
			i++
			break
		}
		if !strings.HasPrefix(t, "-") {
			break
		}
		i++
		for j := 1; j < len(t); j++ {
			if strings.IndexByte(withArg, t[j]) >= 0 {
				if j == len(t)-1 && i < len(args) {
					i++
				}
				break
			}
		}
	}
	if i+1 >= len(args) {
		return &Inner{}, ""
	}
	code := JoinWords(args[i+1:])
	return &Inner{Code: &code, CwdUnknown: true}, ""
}

// JoinWords joins words with spaces, as watch, ssh and sudo -s do: one
// word, in which a word that may be several words is a hole.
func JoinWords(ws []word.Word) word.Word {
	out := word.Join(ws, " ")
	out.Split, out.Multi = false, false
	for _, w := range ws {
		if w.Multi {
			out.Add(word.Seg{Kind: word.Hole, Text: "…"})
		}
	}
	return out
}
