package argspec

import (
	"path"
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// Whole reads (Effect.Whole) are recursive reads that give on every line
// of every file below their path: an archive of a tree (tar c, zip -r),
// or a search that every line may match (grep -r '' ., grep -rv x .,
// grep -r . .). A search with a pattern of its own (grep -r TODO .)
// shows the lines that match it; a whole read shows the files.

// minSearchLiteral is the shortest run of literal text a pattern's every
// match must hold for the search to be one: grep -r e . and grep -r = .
// print most lines of most files, a dotenv file's every line.
const minSearchLiteral = 3

// searchPrintsAll reports whether a recursive search (grep, egrep, fgrep,
// rg, ag, ack) may print every line of what it reads, as far as its words
// tell: it prints the lines that do not match (-v), all of them (rg
// --passthru), whole files as one line (grep -z, rg --null-data or -U,
// whose matches span lines), or has a pattern not known here, read from a
// file, or with no literal text of minSearchLiteral bytes that every
// match holds. operand is the pattern operand, when no option gave one.
func searchPrintsAll(c *Cmd, operand []word.Word) bool {
	var pats []word.Word
	fixed := false
	for _, o := range c.Opts {
		if !o.Known {
			return true // rg --no-fixed-strings, say: an option not read here
		}
	}
	switch c.Prog {
	case "ack":
		// ack takes options from .ackrc files (the project's, the home's,
		// $ACKRC), --passthru among them.
		return true
	case "grep", "rg":
		if c.HasAny("--invert-match", "--null-data", "--file", "--passthru", "--multiline") {
			return true
		}
		pats = c.Values("--regexp")
		fixed = c.Has("--fixed-strings")
	default:
		// egrep, fgrep and ag are read raw: -v, -f, -z, -e or any
		// option not read here that may take a pattern makes it whole.
		if rawFlag(c, "vfzeU", "--invert-match", "--file", "--null-data", "--regexp", "--passthrough", "--passthru", "--multiline") || prefixOpt(c, "--pass") {
			return true
		}
		fixed = c.Prog == "fgrep" || rawFlag(c, "FQ", "--fixed-strings", "--literal")
		if c.Prog == "ag" && agTakesValues(c) {
			return true
		}
	}
	if c.Open {
		return true
	}
	if len(pats) == 0 {
		pats = operand
	}
	if len(pats) == 0 {
		return true
	}
	for _, p := range pats {
		s, ok := p.Static()
		if !ok {
			return true
		}
		// Each line of a pattern is a pattern of its own.
		for _, alt := range strings.Split(s, "\n") {
			if _, ok := literalRun(alt); fixed && len(alt) < minSearchLiteral || !fixed && !ok {
				return true
			}
		}
	}
	return false
}

// agOptionsRead are the options of ag (2.2) that take no value and
// leave its pattern the first operand; any other option (-m 100,
// --ignore DIR, -f, which is --follow) may shift it, and a pattern that
// is not the operand read here may be any.
var agOptionsRead = map[string]bool{"-i": true, "--ignore-case": true, "-s": true, "--case-sensitive": true,
	"-S": true, "--smart-case": true, "-w": true, "--word-regexp": true, "-Q": true, "--literal": true,
	"--nocolor": true, "--noheading": true, "--nogroup": true, "--hidden": true, "-u": true, "--unrestricted": true,
	"-n": true, "--numbers": true, "--column": true, "--vimgrep": true, "-H": true, "--no-filename": true, "-h": true}

func agTakesValues(c *Cmd) bool {
	for _, a := range c.Args {
		s, ok := a.Static()
		if !ok {
			return true
		}
		if strings.HasPrefix(s, "-") && !agOptionsRead[s] {
			return true
		}
	}
	return false
}

// prefixOpt reports whether a raw argv has a long option starting with
// prefix: Getopt::Long (ack) and ag take unique abbreviations.
func prefixOpt(c *Cmd, prefix string) bool {
	for _, a := range c.Args {
		if s, ok := a.Static(); ok && strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// literalRun returns a run of minSearchLiteral bytes of literal text that
// every match of a regular expression holds (in any of grep's, rg's,
// ag's or ack's dialects), when it finds one, read conservatively: any '|'
// may be an alternation, anything escaped, bracketed or grouped is not
// literal, and a byte before a quantifier (*, ?, +, {, and their
// escaped forms) may be absent.
func literalRun(re string) (string, bool) {
	// (?x) makes # start a comment and blanks nothing (PCRE, Rust), and
	// (*ACCEPT) ends a match anywhere: no group-like construct is read.
	if strings.IndexByte(re, '|') >= 0 || strings.Contains(re, "(?") || strings.Contains(re, "(*") {
		return "", false
	}
	run, depth := 0, 0
	for i := 0; i < len(re); i++ {
		ch := re[i]
		switch ch {
		case '\\':
			i++ // \w, \b, \( … or an escaped literal: not counted
			if i < len(re) && re[i] == '{' {
				end := strings.IndexByte(re[i:], '}') // BRE's \{m,n\}
				if end < 0 {
					return "", false
				}
				i += end
			} else if i < len(re) && re[i] == '(' {
				depth++
			} else if i < len(re) && re[i] == ')' && depth > 0 {
				depth--
			}
			run = 0
			continue
		case '(':
			depth++
			run = 0
			continue
		case ')':
			if depth > 0 {
				depth--
			}
			run = 0
			continue
		case '[':
			end := bracketEnd(re, i)
			if end < 0 {
				return "", false
			}
			i, run = end, 0
			continue
		case '{':
			// An interval's bounds are not text; a '{' that opens none
			// is read as if it did.
			end := strings.IndexByte(re[i:], '}')
			if end < 0 {
				return "", false
			}
			i, run = i+end, 0
			continue
		case '.', '*', '+', '?', '}', '^', '$', ']':
			run = 0
			continue
		}
		if depth > 0 {
			continue
		}
		if next := i + 1; next < len(re) && (strings.IndexByte("*?{+", re[next]) >= 0 ||
			re[next] == '\\' && next+1 < len(re) && strings.IndexByte("*?{+", re[next+1]) >= 0) {
			// A quantifier: with those after it (a+*) it may repeat
			// the byte zero times.
			run = 0
			continue
		}
		if run++; run >= minSearchLiteral {
			return re[i+1-run : i+1], true
		}
	}
	return "", false
}

// bracketEnd returns the index of the ']' that ends the bracket
// expression opening at re[i], or -1: a ']' first (after any '^') is a
// member, and so are the brackets of [:class:], [=x=] and [.x.]. Where
// the dialects differ it gives up (-1): a backslash inside (POSIX: a
// member; PCRE and Rust: an escape, so \] does not end it), or another
// '[' (Rust: a nested class).
func bracketEnd(re string, i int) int {
	j := i + 1
	if j < len(re) && re[j] == '^' {
		j++
	}
	if j < len(re) && re[j] == ']' {
		j++
	}
	for ; j < len(re); j++ {
		switch {
		case re[j] == ']':
			return j
		case re[j] == '\\', re[j] == '[' && (j+1 >= len(re) || strings.IndexByte(":=.", re[j+1]) < 0):
			return -1
		case re[j] == '[':
			k := strings.Index(re[j+2:], string(re[j+1])+"]")
			if k < 0 {
				return -1
			}
			j += 2 + k + 1
		}
	}
	return -1
}

// A WholeRead is how a whole read reads the tree below its path: what it
// leaves out by name (grep's --include, --exclude and --exclude-dir, in
// the order given; tar's --exclude), and whether it reads what the
// symbolic links there lead to (Follow).
type WholeRead struct {
	Follow bool
	rules  []filterRule
	tar    bool
	// unread: a pattern not read here (a bracket, a backslash, a '/'),
	// so nothing is known to be left out.
	unread bool
}

type filterRule struct {
	glob          string
	include, dirs bool
}

// Skips reports whether the read certainly leaves out an entry of this
// base name, a directory's (and all below it) when dir.
func (f *WholeRead) Skips(name string, dir bool) bool {
	if f.unread {
		return false
	}
	if f.tar {
		for _, r := range f.rules {
			if m, _ := path.Match(r.glob, name); m {
				return true
			}
		}
		return false
	}
	if dir {
		for _, r := range f.rules {
			if m, _ := path.Match(r.glob, name); m && r.dirs {
				return true
			}
		}
		return false
	}
	// GNU grep: the last --include or --exclude that matches wins; when
	// none does, the file is read unless the first of them is --include.
	first, last := -1, -1
	for i, r := range f.rules {
		if r.dirs {
			continue
		}
		if first < 0 {
			first = i
		}
		if m, _ := path.Match(r.glob, name); m {
			last = i
		}
	}
	if last >= 0 {
		return !f.rules[last].include
	}
	return first >= 0 && f.rules[first].include
}

// grepWhole is how grep reads a tree: -R follows links, and --include,
// --exclude and --exclude-dir leave files out. rg, ag and ack are read
// as leaving nothing out (their globs and ignore files are not read
// here); rg and ag follow links when told to.
func grepWhole(c *Cmd) *WholeRead {
	f := &WholeRead{Follow: c.Has("--dereference-recursive") || rawFlag(c, "LR", "--follow", "--dereference-recursive") ||
		c.Prog == "ag" && rawFlag(c, "f", "--follow")}
	if c.Prog != "grep" {
		return f
	}
	for _, o := range c.Opts {
		var r filterRule
		switch o.Name {
		case "--include":
			r.include = true
		case "--exclude":
		case "--exclude-dir":
			r.dirs = true
		case "--exclude-from":
			f.unread = true // its patterns are in a file
			continue
		default:
			continue
		}
		f.add(o.Value, r)
	}
	return f
}

// tarWhole is how tar c reads a tree: -h follows links, and --exclude
// patterns without a '/' leave members out (GNU tar leaves out any member
// one of whose trailing names matches, so one whose base name matches
// goes, with what lies below it), when it comes before the operands.
// Its other exclusions are not read.
func tarWhole(c *Cmd) *WholeRead {
	f := &WholeRead{tar: true, Follow: c.Has("--dereference")}
	// --anchored matches from the member's first name, --no-wildcards
	// the text as it stands: a base name's match then says nothing.
	f.unread = c.HasAny("--anchored", "--no-wildcards")
	for _, o := range c.Opts {
		if o.Name == "--exclude" {
			if o.After > 0 {
				f.unread = true // it applies to the operands after it only
			}
			f.add(o.Value, filterRule{})
		}
	}
	return f
}

func (f *WholeRead) add(v *word.Word, r filterRule) {
	if v == nil {
		f.unread = true
		return
	}
	s, ok := v.Static()
	if !ok || strings.ContainsAny(s, "[\\/") {
		// fnmatch's brackets are not Go's; a '/' matches more than a
		// base name. Leaving nothing out is what is safe.
		f.unread = true
		return
	}
	r.glob = s
	f.rules = append(f.rules, r)
}
