package argspec

import (
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// Readers of option values in an argv read without a spec, one for each
// family of option parsers the catalogue's programs use: argparse's and
// optparse's (OptionValues, AbbrevValues), getopt_long's (gnuValues,
// gnuFlag, gnuShort) and Perl's Getopt::Long (perlValues). Each reports
// every value the program could take, so an ambiguity only reports more.

// OptionValues returns the values of options in an argv read without a
// spec, up to "--": --name=V, --name V, and for a short -n also -nV.
func OptionValues(args []word.Word, names ...string) []word.Word {
	return optionValues(args, false, names)
}

// AbbrevValues is OptionValues for a program whose option parser takes
// any unambiguous prefix of a long option (argparse: tox, nox; optparse:
// pip): --workd DIR is --workdir DIR. A prefix of three letters or more
// counts; where it is ambiguous the program refuses it, so counting it
// only ever reports more.
func AbbrevValues(args []word.Word, names ...string) []word.Word {
	return optionValues(args, true, names)
}

func optionValues(args []word.Word, abbrev bool, names []string) []word.Word {
	var out []word.Word
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			continue
		}
		if t == "--" {
			break
		}
		name, val, attached := strings.Cut(t, "=")
		for _, n := range names {
			long := strings.HasPrefix(n, "--")
			switch {
			case name == n || abbrev && long && strings.HasPrefix(name, "--") && len(name) >= 5 && strings.HasPrefix(n, name):
				switch {
				case attached:
					out = append(out, word.FromLit(val))
				case i+1 < len(args):
					out = append(out, args[i+1])
				}
			case !long && len(n) == 2 && len(t) > 2 && strings.HasPrefix(t, n) && t[1] != '-':
				out = append(out, word.FromLit(t[2:])) // -nV
			default:
				continue
			}
			break
		}
	}
	return out
}

// gnuValues is OptionValues for a program that reads its options with
// getopt_long: a long option may be abbreviated to any prefix of three
// characters or more (wc --files0=F, date --se=T: where a prefix is
// ambiguous the program refuses it, so counting it only reports more),
// and a short one may end a cluster of the program's flags, the short
// options in flags that take no value (-us T, -uf F for date's "uR").
func gnuValues(args []word.Word, flags string, names ...string) []word.Word {
	var out []word.Word
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			continue
		}
		if t == "--" {
			break
		}
		for _, n := range names {
			if strings.HasPrefix(n, "--") {
				name, val, attached := strings.Cut(t, "=")
				if len(name) < 3 || !strings.HasPrefix(name, "--") || !strings.HasPrefix(n, name) {
					continue
				}
				if attached {
					out = append(out, word.FromLit(val))
				} else if i+1 < len(args) {
					out = append(out, args[i+1])
				}
				break
			}
			// -n, anywhere in a cluster of letters: what follows it in
			// the word is its value, or else the next word.
			if len(t) < 2 || t[0] != '-' || t[1] == '-' {
				continue
			}
			j := 0
			for j < len(t)-1 && t[1+j] != n[1] && strings.IndexByte(flags, t[1+j]) >= 0 {
				j++
			}
			if j < len(t)-1 && t[1+j] == n[1] {
				if rest := t[j+2:]; rest != "" {
					out = append(out, word.FromLit(rest))
				} else if i+1 < len(args) {
					out = append(out, args[i+1])
				}
				break
			}
		}
	}
	return out
}

// gnuFlag reports whether a getopt_long flag is given, abbreviated or
// not.
func gnuFlag(args []word.Word, long string) bool {
	for _, a := range args {
		t, ok := a.Static()
		if !ok {
			continue
		}
		if t == "--" {
			return false
		}
		if name, _, _ := strings.Cut(t, "="); len(name) >= 3 && strings.HasPrefix(name, "--") && strings.HasPrefix(long, name) {
			return true
		}
	}
	return false
}

// gnuShort reports whether the short flag letter is given, alone or in a
// cluster of the program's flags (ss -tK).
func gnuShort(args []word.Word, flags string, letter byte) bool {
	for _, a := range args {
		t, ok := a.Static()
		if !ok {
			continue
		}
		if t == "--" {
			return false
		}
		if len(t) < 2 || t[0] != '-' || t[1] == '-' {
			continue
		}
		for j := 1; j < len(t); j++ {
			if t[j] == letter {
				return true
			}
			if strings.IndexByte(flags, t[j]) < 0 {
				break // a letter that takes a value: the rest is it
			}
		}
	}
	return false
}

// perlValues is OptionValues for Perl's Getopt::Long as cloc uses it: a
// long option may have one dash or two and be abbreviated to any prefix
// of two characters or more (cloc -extr=CMD is --extract-with=CMD; where
// a prefix is ambiguous cloc refuses it, so counting it only reports
// more).
func perlValues(args []word.Word, names ...string) []word.Word {
	var out []word.Word
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			continue
		}
		if t == "--" {
			break
		}
		if !strings.HasPrefix(t, "-") {
			continue
		}
		name, val, attached := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(t, "-"), "-"), "=")
		if len(name) < 2 {
			continue
		}
		for _, n := range names {
			if !strings.HasPrefix(strings.TrimPrefix(n, "--"), name) {
				continue
			}
			if attached {
				out = append(out, word.FromLit(val))
			} else if i+1 < len(args) {
				out = append(out, args[i+1])
			}
			break
		}
	}
	return out
}
