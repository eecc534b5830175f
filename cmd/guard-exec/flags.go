package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// flags reads a subcommand's options and operands. Options may stand
// before or after operands (until "--"), as in most command-line tools; an
// option the subcommand does not know, or a wrong number of operands, is a
// usage error, never ignored. -h and --help print the subcommand's help on
// stdout and exit 0.
type flags struct {
	*flag.FlagSet
	e        *env
	name     string
	usage    string
	operands []string
}

func newFlags(e *env, name, usage string) *flags {
	fs := flag.NewFlagSet("guard-exec "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	f := &flags{FlagSet: fs, e: e, name: name, usage: usage}
	fs.Usage = func() {} // parse prints what fits the case
	return f
}

// Args, NArg and Arg are the operands, wherever they stood.
func (f *flags) Args() []string   { return f.operands }
func (f *flags) NArg() int        { return len(f.operands) }
func (f *flags) Arg(i int) string { return at(f.operands, i) }

func at(ss []string, i int) string {
	if i < len(ss) {
		return ss[i]
	}
	return ""
}

// parse reads args, expecting between min and max operands (max < 0: any
// number). ok is false when the subcommand must stop, with exit status
// code (0 after --help).
func (f *flags) parse(args []string, min, max int) (code int, ok bool) {
	return f.parseWith(args, min, max, true)
}

// parseLeading reads options only up to the first operand: what follows
// belongs to something else (the program of guard-exec run).
func (f *flags) parseLeading(args []string, min int) (code int, ok bool) {
	return f.parseWith(args, min, -1, false)
}

func (f *flags) parseWith(args []string, min, max int, interspersed bool) (int, bool) {
	f.operands = nil
	for {
		err := f.FlagSet.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			f.help(f.e.stdout)
			return 0, false
		}
		if err != nil {
			f.help(f.e.stderr)
			return ExitUsage, false
		}
		rest := f.FlagSet.Args()
		consumed := len(args) - len(rest)
		if len(rest) == 0 || consumed > 0 && args[consumed-1] == "--" || !interspersed {
			f.operands = append(f.operands, rest...)
			break
		}
		f.operands = append(f.operands, rest[0])
		args = rest[1:]
	}
	if len(f.operands) < min || max >= 0 && len(f.operands) > max {
		switch {
		case max == 0:
			fmt.Fprintf(f.e.stderr, "guard-exec %s: error: unexpected argument %q: it takes no operands\n", f.name, f.operands[0])
		case len(f.operands) < min:
			fmt.Fprintf(f.e.stderr, "guard-exec %s: error: too few arguments\n", f.name)
		default:
			fmt.Fprintf(f.e.stderr, "guard-exec %s: error: unexpected argument %q\n", f.name, f.operands[max])
		}
		f.help(f.e.stderr)
		return ExitUsage, false
	}
	return 0, true
}

func (f *flags) help(w io.Writer) {
	fmt.Fprintf(w, "usage: guard-exec %s %s\n", f.name, f.usage)
	if sc, ok := subcommands[f.name]; ok && sc.help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.ToUpper(sc.help[:1])+sc.help[1:]+".")
	}
	hasFlags := false
	f.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintf(w, "\noptions (before or after the operands; -- ends them):\n")
		f.SetOutput(w)
		f.PrintDefaults()
		f.SetOutput(f.e.stderr)
	}
}
