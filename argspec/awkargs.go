package argspec

import (
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/word"
)

// AwkCall is an awk command line read the way gawk, mawk and the one true
// awk read it: options up to the first operand or --, then the program
// text (unless -f, -e or -E gave one), then operands.
type AwkCall struct {
	Awk
	Program int // index in args of the program text operand, or -1
	// Code is the index in args of the word that names the code when it is
	// not known here (the first program file, or the program text when it
	// cannot be read with certainty), or -1.
	Code   int
	Inputs []word.Word // operands that may be files (var=value ones are not)
	Files  []word.Word // program files (-f, -E, -i, -W exec): read, their code not known here
}

// awkLongs are gawk's long options (abbreviations of them are accepted)
// and mawk's -W options, with what their value is.
var awkLongs = sync.OnceValue(func() map[string]byte {
	return map[string]byte{
		// 'f' a program file, 'e' program text, 'v' a value, 'o' an optional
		// value, 'w' an optional file written (default in awkDefaultOut), 'n'
		// none, 'x' code not known here, 'q' the program is not run.
		"file": 'f', "exec": 'f', "include": 'f', "load": 'x', "source": 'e', "field-separator": 'v', "assign": 'v',
		"characters-as-bytes": 'n', "traditional": 'n', "copyright": 'q', "dump-variables": 'w', "debug": 'x',
		"gen-pot": 'q', "help": 'q', "trace": 'n', "csv": 'n', "lint": 'o', "lint-old": 'n', "bignum": 'n',
		"use-lc-numeric": 'n', "non-decimal-data": 'n', "pretty-print": 'w', "optimize": 'n', "no-optimize": 'n',
		"profile": 'w', "posix": 'n', "re-interval": 'n', "sandbox": 'n', "version": 'q', "persist": 'o',
		"nostalgia": 'n', "parsedebug": 'n',
		// mawk -W (and --) names.
		"dump": 'q', "interactive": 'n', "posix_space": 'n', "random": 'o', "sprintf": 'o', "usage": 'q',
	}
})

var awkDefaultOut = sync.OnceValue(func() map[string]string {
	return map[string]string{"dump-variables": "awkvars.out", "pretty-print": "awkprof.out", "profile": "awkprof.out"}
})

// awkShorts are the single-letter options of gawk and mawk, by long name.
var awkShorts = sync.OnceValue(func() map[byte]string {
	return map[byte]string{
		'f': "file", 'E': "exec", 'i': "include", 'l': "load", 'e': "source", 'F': "field-separator", 'v': "assign",
		'b': "characters-as-bytes", 'c': "traditional", 'C': "copyright", 'd': "dump-variables", 'D': "debug",
		'g': "gen-pot", 'h': "help", 'I': "trace", 'k': "csv", 'L': "lint", 't': "lint-old", 'M': "bignum",
		'N': "use-lc-numeric", 'n': "non-decimal-data", 'o': "pretty-print", 'O': "optimize", 's': "no-optimize",
		'p': "profile", 'P': "posix", 'r': "re-interval", 'S': "sandbox", 'V': "version",
	}
})

// awkLong resolves a long option name or an unambiguous abbreviation.
func awkLong(name string) (string, bool) {
	if _, ok := awkLongs()[name]; ok {
		return name, true
	}
	found := ""
	for l := range awkLongs() {
		if strings.HasPrefix(l, name) && name != "" {
			if found != "" {
				return "", false
			}
			found = l
		}
	}
	return found, found != ""
}

// ReadAwk reads an awk argv (without the program name).
func ReadAwk(args []word.Word) AwkCall {
	call := AwkCall{Program: -1, Code: -1}
	at := 0 // the word the option being applied names its value in
	unsure := func(why string) {
		if call.Unsure == "" {
			call.Unsure = why
		}
	}
	// rest ends a reading that stopped at args[i]: the words from there on
	// may all be files it reads.
	rest := func(i int) AwkCall {
		call.Inputs = append(call.Inputs, args[min(i, len(args)):]...)
		return call
	}
	var texts []string
	haveProg := false
	// The variables the command line assigns (-v, var=value operands), and
	// whether it may assign others.
	assigned := map[string]bool{}
	unknownArgs := false
	assign := func(w word.Word) {
		t, ok := w.Static()
		if !ok {
			unknownArgs = true
			return
		}
		if name, _, ok := strings.Cut(t, "="); ok {
			assigned[name] = true
		}
	}
	// opt applies one option; value is its value (nil when none was given).
	opt := func(name string, value *word.Word) {
		kind := awkLongs()[name]
		switch kind {
		case 'f':
			haveProg = true
			if value != nil {
				call.Files = append(call.Files, *value)
			}
			if call.Code < 0 {
				call.Code = at
			}
			if name == "include" {
				unsure("awk includes a program file, whose code is not known here")
			} else {
				unsure("awk runs a program file, whose code is not known here")
			}
		case 'x':
			unsure("awk --" + name + " loads code not known here")
		case 'e':
			haveProg = true
			if value == nil {
				return
			}
			t, ok := value.Static()
			if !ok {
				unsure("an awk program not known here")
				return
			}
			texts = append(texts, t)
		case 'v':
			if name == "assign" && value != nil {
				assign(*value)
			}
		case 'w':
			f := word.FromLit(awkDefaultOut()[name])
			if value != nil {
				f = *value
			}
			if t, ok := f.Static(); ok {
				if !awkSpecialFiles()[t] {
					call.Write = append(call.Write, t)
				}
			} else {
				call.Write = append(call.Write, "")
			}
		}
	}
	i := 0
options:
	for ; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') || !haveProg {
				unsure("an awk argument not known here (it could be an option or the program)")
				return rest(i)
			}
			break
		}
		switch {
		case t == "--":
			i++
			break options
		case t == "-" || !strings.HasPrefix(t, "-"):
			break options
		case strings.HasPrefix(t, "--"):
			name, val, hasVal := strings.Cut(t[2:], "=")
			long, ok := awkLong(name)
			if !ok {
				unsure("an awk option not known here: " + t)
				return rest(i)
			}
			var v *word.Word
			switch awkLongs()[long] {
			case 'f', 'e', 'v', 'x':
				if hasVal {
					w := word.FromLit(val)
					v = &w
				} else if i+1 < len(args) {
					i++
					v = &args[i]
				}
			default:
				if hasVal {
					w := word.FromLit(val)
					v = &w
				}
			}
			at = i
			opt(long, v)
			if long == "exec" {
				i++
				break options
			}
		default:
			// A cluster of short options: one with a value takes the rest.
			for k := 1; k < len(t); k++ {
				c := t[k]
				if c == 'W' {
					// -W NAME[=VALUE]: gawk's and mawk's long options.
					wrest := t[k+1:]
					if wrest == "" {
						if i+1 >= len(args) {
							unsure("awk -W without a name")
							return rest(i)
						}
						i++
						r, ok := args[i].Static()
						if !ok {
							unsure("an awk -W option not known here")
							return rest(i)
						}
						wrest = r
					}
					name, val, hasVal := strings.Cut(wrest, "=")
					long, ok := awkLong(name)
					if !ok {
						unsure("an awk -W option not known here: " + wrest)
						return rest(i)
					}
					var v *word.Word
					if hasVal {
						w := word.FromLit(val)
						v = &w
					} else if k := awkLongs()[long]; (k == 'f' || k == 'e' || k == 'v' || k == 'x') && i+1 < len(args) {
						i++
						v = &args[i]
					}
					at = i
					opt(long, v)
					if long == "exec" {
						i++
						break options
					}
					break
				}
				long, ok := awkShorts()[c]
				if !ok {
					unsure("an awk option not known here: -" + string(c))
					return rest(i)
				}
				var v *word.Word
				switch awkLongs()[long] {
				case 'f', 'e', 'v', 'x':
					if k+1 < len(t) {
						w := word.FromLit(t[k+1:])
						v = &w
					} else if i+1 < len(args) {
						i++
						v = &args[i]
					}
					k = len(t)
				case 'w', 'o':
					if k+1 < len(t) {
						w := word.FromLit(t[k+1:])
						v = &w
					}
					k = len(t)
				}
				at = i
				opt(long, v)
				if long == "exec" {
					i++
					break options
				}
			}
		}
	}
	if !haveProg {
		if i >= len(args) {
			return rest(i)
		}
		call.Program = i
		t, ok := args[i].Static()
		if !ok {
			unsure("an awk program not known here")
			return rest(i + 1)
		}
		texts = append(texts, t)
		i++
	}
	for ; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			unknownArgs = true // it could be var=value
		}
		if ok && awkAssignment(t) {
			assign(args[i])
			continue
		}
		call.Inputs = append(call.Inputs, args[i])
	}
	if len(texts) > 0 {
		p := awkProgram(strings.Join(texts, "\n"), assigned, unknownArgs)
		if p.Unsure != "" && call.Code < 0 && call.Program >= 0 {
			call.Code = call.Program
		}
		call.Exec = append(call.Exec, p.Exec...)
		call.Write = append(call.Write, p.Write...)
		call.Read = append(call.Read, p.Read...)
		if p.Unsure != "" {
			unsure(p.Unsure)
		}
	}
	return call
}

// awkAssignment reports whether an operand is a var=value assignment.
func awkAssignment(t string) bool {
	name, _, ok := strings.Cut(t, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
