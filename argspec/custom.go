package argspec

import (
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// find's expression is not getopt: primaries are single-dash words, some
// take arguments, and -exec/-ok take a command up to ";" or "+".
func findArgs(name string) (int, bool) {
	switch name {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex",
		"-regextype", "-type", "-xtype", "-size", "-perm", "-user", "-group", "-uid", "-gid", "-newer",
		"-anewer", "-cnewer", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-used",
		"-maxdepth", "-mindepth", "-printf", "-fprint", "-fprint0", "-fls", "-samefile", "-inum",
		"-links", "-lname", "-ilname", "-context", "-fstype", "-files0-from":
		return 1, true
	case "-fprintf":
		return 2, true
	}
	return 0, false
}

// FindExec is one -exec/-execdir/-ok/-okdir action of a find command.
type FindExec struct {
	Action string      // "-exec", "-execdir", "-ok", "-okdir"
	Argv   []word.Word // the command, with {} as written
	Plus   bool        // terminated by "+" rather than ";"
	// Unfiltered: nothing before the action filters what it gets, so it
	// certainly runs on the starting points themselves (find / -exec rm
	// -rf {} + removes / first of all).
	Unfiltered bool
}

// findNoFilter are find's words that select nothing out: options that
// change the walk, not which files the actions see.
func findNoFilter(name string) (int, bool) {
	switch name {
	case "-depth", "-d", "-xdev", "-mount", "-follow", "-noleaf", "-ignore_readdir_race",
		"-noignore_readdir_race", "-daystart", "-warn", "-nowarn", "-true", "-print", "-print0", "-ls":
		return 0, true
	case "-maxdepth", "-regextype":
		return 1, true
	}
	return 0, false
}

// FindExecs returns the commands a find runs. It reads the argv again
// because the generic Cmd keeps only the action names.
func FindExecs(args []word.Word) (out []FindExec, unterminated bool) {
	for i := 0; i < len(args); i++ {
		t, _ := args[i].Static()
		switch t {
		case "-exec", "-execdir", "-ok", "-okdir":
			fe := FindExec{Action: t, Unfiltered: findUnfiltered(args[:i])}
			j := i + 1
			for ; j < len(args); j++ {
				u, ok := args[j].Static()
				if ok && u == ";" {
					break
				}
				if ok && u == "+" && j > i+1 {
					if p, _ := args[j-1].Static(); p == "{}" {
						fe.Plus = true
						break
					}
				}
				fe.Argv = append(fe.Argv, args[j])
			}
			if j >= len(args) {
				unterminated = true
			}
			out = append(out, fe)
			i = j
		default:
			if n, ok := findArgs(t); ok {
				i += n
			}
		}
	}
	return out, unterminated
}

// FindDeletesAll reports a find whose -delete gets every file below its
// starting points (nothing before it filters: find d -delete, find d
// -depth -delete).
func FindDeletesAll(argv []word.Word) bool {
	for i, a := range argv {
		if s, ok := a.Static(); ok && s == "-delete" {
			return i > 0 && findUnfiltered(argv[1:i])
		}
	}
	return false
}

// findUnfiltered reports whether the expression words before an action
// let every file through, starting points included.
func findUnfiltered(before []word.Word) bool {
	i := 0
	for ; i < len(before); i++ { // leading options, then starting points
		t, ok := before[i].Static()
		if !ok {
			return false
		}
		switch {
		case t == "-H" || t == "-L" || t == "-P" || strings.HasPrefix(t, "-O"):
		case t == "-D":
			i++
		case strings.HasPrefix(t, "-") || t == "(" || t == "!" || t == ",":
			goto expr
		}
	}
expr:
	for ; i < len(before); i++ {
		t, ok := before[i].Static()
		n, known := findNoFilter(t)
		if !ok || !known {
			return false
		}
		i += n
	}
	return true
}

func readFind(s *Spec, args []wordT, pattern bool) *Cmd {
	c := &Cmd{Spec: s, DashDash: -1}
	i := 0
	// Leading options (-H -L -P -D debugopts -Olevel) come before the
	// starting points.
	for ; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			break
		}
		if t == "-H" || t == "-L" || t == "-P" || strings.HasPrefix(t, "-O") {
			c.Opts = append(c.Opts, Opt{Name: t, Known: true})
			continue
		}
		if t == "-D" && i+1 < len(args) {
			i++
			continue
		}
		break
	}
	// Starting points: words up to the first that begins an expression.
	for ; i < len(args); i++ {
		t, ok := args[i].Static()
		if ok && (strings.HasPrefix(t, "-") && t != "-" || t == "(" || t == "!" || t == ",") {
			break
		}
		if !ok && args[i].CouldStartWith('-') {
			c.Open = true
		}
		if isOpen(args[i], pattern) {
			c.Open = true
		}
		c.Args = append(c.Args, args[i])
	}
	for ; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			c.Open = true
			continue
		}
		switch t {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for ; j < len(args); j++ {
				u, _ := args[j].Static()
				if u == ";" || (u == "+" && j > i+1) {
					break
				}
			}
			v := word.FromLit(strings.Join(word.Strings(args[i+1:min(j, len(args))]), " "))
			c.Opts = append(c.Opts, Opt{Name: t, Value: &v, Known: true})
			i = j
			continue
		}
		if !strings.HasPrefix(t, "-") {
			continue // ( ) ! , and the like
		}
		opt := Opt{Name: t, Known: true}
		if n, ok := findArgs(t); ok && i+n < len(args) {
			// The first argument is the value (-fprintf FILE FORMAT).
			v := args[i+1]
			opt.Value = &v
			i += n
		}
		c.Opts = append(c.Opts, opt)
	}
	return c
}

// readTar reads tar, including the old style whose first word is a
// cluster of letters without a dash (tar xzf a.tgz).
func readTar(s *Spec, args []wordT, pattern bool) *Cmd {
	if len(args) > 0 {
		if t, ok := args[0].Static(); ok && t != "" && !strings.HasPrefix(t, "-") {
			// Old style: each letter is an option; those taking values take
			// the following words in order.
			var expanded []wordT
			rest := args[1:]
			s.index()
			for _, r := range t {
				expanded = append(expanded, word.FromLit("-"+string(r)))
				if o := s.short[r]; o != nil && o.Arity == ReqArg && len(rest) > 0 {
					expanded = append(expanded, rest[0])
					rest = rest[1:]
				}
			}
			args = append(expanded, rest...)
		}
	}
	c := &Cmd{Spec: s, DashDash: -1}
	s.read(c, args, pattern)
	return c
}
