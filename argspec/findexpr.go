package argspec

import (
	"path"
	"strings"
)

// FindMayName reports whether the find whose argv this is (argv[0] the
// program) may act on a file with this base name, as far as its name
// tests tell: false only when none of its actions (-print, -exec, …, or
// the -print of a whole expression that has none) can be reached for
// any such file, wherever it lies. Anything not read here (a test whose
// argument is not known, -regex, a negation, an unknown word) may let it
// through.
//
// A test is false for the file when it is -name or -iname with a pattern
// the name does not match, or -path and its kin with one that cannot
// match a path ending in /name. An action in A -a B is reached when it is
// in A, or in B and A is not false; in A -o B when it is in either.
func FindMayName(argv []string, name string) bool {
	_, i := FindStartingPoints(argv)
	r := findReader{words: argv[i:], name: name}
	if len(r.words) == 0 {
		return true
	}
	e, ok := r.or()
	if !ok || r.i != len(r.words) {
		return true
	}
	if r.actions {
		return e.reach
	}
	return !e.never
}

// FindStartingPoints returns the starting points a find's argv (argv[0]
// the program) names, after its leading options (-H, -L, -P, -D DEBUG,
// -Olevel), and the index where its expression starts. With none, GNU
// find starts at ".", which the caller supplies.
func FindStartingPoints(argv []string) (points []string, expr int) {
	i := 1
	for i < len(argv) && (argv[i] == "-H" || argv[i] == "-L" || argv[i] == "-P" || argv[i] == "-D" || strings.HasPrefix(argv[i], "-O")) {
		if argv[i] == "-D" {
			i++ // its debug options
		}
		i++
	}
	i = min(i, len(argv))
	for ; i < len(argv); i++ {
		a := argv[i]
		if strings.HasPrefix(a, "-") && a != "-" || a == "(" || a == "!" || a == ")" || a == "," {
			break
		}
		points = append(points, a)
	}
	return points, i
}

type findReader struct {
	words   []string
	i       int
	name    string
	actions bool // an action was read: no -print is added
}

// findValue is what a part of the expression is for a file of the name:
// never true (never), and whether an action in it may act on the file
// when the part is evaluated (reach).
type findValue struct{ never, reach bool }

func (r *findReader) or() (findValue, bool) {
	v, ok := r.and()
	if !ok {
		return v, false
	}
	for r.i < len(r.words) && (r.words[r.i] == "-o" || r.words[r.i] == "-or" || r.words[r.i] == ",") {
		r.i++
		w, ok := r.and()
		if !ok {
			return w, false
		}
		v = findValue{never: v.never && w.never, reach: v.reach || w.reach}
	}
	return v, true
}

func (r *findReader) and() (findValue, bool) {
	var v findValue
	any := false
	for r.i < len(r.words) {
		switch r.words[r.i] {
		case "-o", "-or", ",", ")":
			return v, any // an empty alternative is not find's grammar
		case "-a", "-and":
			r.i++
			continue
		}
		w, ok := r.primary()
		if !ok {
			return w, false
		}
		if !any {
			v = w
		} else {
			v = findValue{never: v.never || w.never, reach: v.reach || !v.never && w.reach}
		}
		any = true
	}
	return v, any
}

func (r *findReader) primary() (findValue, bool) {
	w := r.words[r.i]
	r.i++
	switch w {
	case "(":
		v, ok := r.or()
		if !ok || r.i >= len(r.words) || r.words[r.i] != ")" {
			return v, false
		}
		r.i++
		return v, true
	case "!", "-not":
		if r.i >= len(r.words) {
			return findValue{}, false
		}
		v, ok := r.primary()
		// A negation is not read: it may be true for the file.
		return findValue{reach: v.reach}, ok
	case "-exec", "-execdir", "-ok", "-okdir":
		r.actions = true
		start := r.i
		for ; r.i < len(r.words); r.i++ {
			if r.words[r.i] == ";" || r.words[r.i] == "+" && r.i > start && r.words[r.i-1] == "{}" {
				r.i++
				return findValue{reach: true}, true
			}
		}
		return findValue{}, false
	case "-print", "-print0", "-ls", "-delete":
		r.actions = true
		return findValue{reach: true}, true
	case "-printf", "-fprint", "-fprint0", "-fls", "-fprintf":
		r.actions = true
		n, _ := findArgs(w)
		if r.i+n > len(r.words) {
			return findValue{}, false
		}
		r.i += n
		return findValue{reach: true}, true
	}
	if n, skip := findNoFilter(w); skip {
		if r.i+n > len(r.words) {
			return findValue{}, false
		}
		r.i += n
		return findValue{}, true
	}
	switch w {
	case "-prune", "-quit", "-false", "-empty", "-readable", "-writable", "-executable", "-nouser", "-nogroup":
		return findValue{never: w == "-false"}, true
	}
	n, known := findArgs(w)
	if !known || r.i+n > len(r.words) {
		return findValue{}, false
	}
	arg := r.words[r.i]
	r.i += n
	switch w {
	case "-name", "-iname":
		subject, pat := r.name, arg
		if w == "-iname" {
			subject, pat = strings.ToLower(subject), strings.ToLower(pat)
		}
		if strings.Contains(pat, "[") {
			return findValue{}, true // fnmatch's brackets ([!x], [[:alpha:]]) are not Go's
		}
		m, err := path.Match(pat, subject)
		return findValue{never: err == nil && !m}, true
	case "-path", "-ipath", "-wholename", "-iwholename":
		subject, pat := r.name, arg
		if w == "-ipath" || w == "-iwholename" {
			subject, pat = strings.ToLower(subject), strings.ToLower(pat)
		}
		return findValue{never: !pathMayEndIn(pat, subject)}, true
	}
	return findValue{}, true
}

// pathMayEndIn reports whether a find -path pattern (whose * matches
// '/' too) may match a path that is name or ends in /name. It is read
// only when what follows its last * is plain text (or it has no wildcard
// at all); else it may.
func pathMayEndIn(pat, name string) bool {
	tail := pat
	star := strings.LastIndexByte(pat, '*')
	if star >= 0 {
		tail = pat[star+1:]
	}
	if strings.ContainsAny(tail, "?[\\") || star < 0 && strings.ContainsAny(pat, "?[\\") {
		return true
	}
	end := "/" + name
	if star < 0 {
		return pat == name || strings.HasSuffix(pat, end)
	}
	// The path ends in tail, and in /name (or is name).
	return strings.HasSuffix(end, tail) || strings.HasSuffix(tail, end)
}
