package shellparse

import (
	"io"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/guard-exec/guard-exec/word"
)

// GlobMode is how the shell's options read a pattern where it is expanded.
type GlobMode struct {
	// Hidden: wildcards may match names that start with '.' (dotglob,
	// GLOBIGNORE, an extended pattern such as @(.env)).
	Hidden bool
	// Globstar: a ** component is any depth of directories.
	Globstar bool
}

// A Globber lists the paths an absolute bash pattern matches now, and
// whether it could list all of them: a glob it could not read in full is
// not known. In the pattern, \ quotes the character after it.
type Globber func(pattern string, mode GlobMode) (matches []string, complete bool)

// maxGlobEntries bounds the directory entries one glob reads, and
// maxGlobEntriesText those all of a text's globs read.
const maxGlobEntries, maxGlobEntriesText = 20000, 100000

// FileGlobber reads the file system as bash's pathname expansion does,
// within bounds shared by every pattern it is given (one text's).
func FileGlobber() Globber {
	left := maxGlobEntriesText
	return func(pattern string, mode GlobMode) ([]string, bool) {
		g := globRead{mode: mode, left: min(maxGlobEntries, left), complete: true}
		start := g.left
		out := g.match(pattern)
		left -= start - max(g.left, 0)
		return out, g.complete
	}
}

// globRead is one pattern's expansion.
type globRead struct {
	mode     GlobMode
	left     int // directory entries it may still read
	complete bool
}

// match is what pattern matches, in bash's order within each directory.
// Paths are joined as written, never cleaned: a/../x is where the kernel
// takes it, which is not a's parent when a is a link.
func (g *globRead) match(pattern string) []string {
	if !strings.HasPrefix(pattern, "/") {
		g.complete = false
		return nil
	}
	comps := strings.Split(pattern[1:], "/")
	cur := []string{""} // the paths so far; "" is the root
	for i, c := range comps {
		last := i == len(comps)-1
		switch {
		case c == "" && last:
			// A trailing slash: directories only, written with it.
			var dirs []string
			for _, p := range cur {
				if fi, err := os.Stat(p + "/"); err == nil && fi.IsDir() {
					dirs = append(dirs, p+"/")
				}
			}
			return dirs
		case c == "":
			for i := range cur {
				cur[i] += "/" // a//b: bash keeps both slashes
			}
		case c == "**" && g.mode.Globstar:
			cur = g.anyDepth(cur, last)
		default:
			segs, meta := globSegs(c)
			if !meta {
				lit, _ := word.Word{Segs: segs}.Static()
				next := cur[:0:0]
				for _, p := range cur {
					if _, err := os.Lstat(p + "/" + lit); !last || err == nil {
						next = append(next, p+"/"+lit)
					}
				}
				cur = next
				continue
			}
			pat, err := word.CompileSegs(segs)
			if err != nil {
				// A bracket bash reads otherwise (a bad range): what
				// it matches is not known here.
				g.complete = false
				return nil
			}
			dots := len(segs) > 0 && segs[0].Kind == word.Lit && strings.HasPrefix(segs[0].Text, ".")
			var next []string
			for _, p := range cur {
				names := g.names(p)
				if dots {
					// With globskipdots off, .* matches . and .. too.
					names = append(names, dirEntry{name: ".", dir: true}, dirEntry{name: "..", dir: true})
				}
				var found []string
				for _, e := range names {
					if !dots && !g.mode.Hidden && strings.HasPrefix(e.name, ".") {
						continue
					}
					if (last || e.dir) && pat.MatchString(e.name) {
						found = append(found, p+"/"+e.name)
					}
				}
				slices.Sort(found)
				next = append(next, found...)
			}
			cur = next
		}
		if !g.complete {
			return nil
		}
	}
	return cur
}

// dirEntry is a name read from a directory; dir: it may be one (a
// directory, or a link that may lead to one); link: it is a link.
type dirEntry struct {
	name      string
	dir, link bool
}

// names reads the directory p within the budget.
func (g *globRead) names(p string) []dirEntry {
	f, err := os.Open(p + "/")
	if err != nil {
		return nil // bash matches nothing in a directory it cannot read
	}
	defer f.Close()
	var out []dirEntry
	for {
		es, err := f.ReadDir(256)
		for _, e := range es {
			if g.left--; g.left < 0 {
				g.complete = false
				return nil
			}
			link := e.Type()&os.ModeSymlink != 0
			out = append(out, dirEntry{name: e.Name(), dir: e.IsDir() || link, link: link})
		}
		if err == io.EOF || len(es) == 0 {
			return out
		}
		if err != nil {
			return out
		}
	}
}

// anyDepth is ** with globstar: each path and every directory below it,
// or as the last component every entry below it too. Like bash it does
// not descend into links, nor into hidden directories without dotglob.
func (g *globRead) anyDepth(cur []string, last bool) []string {
	var out []string
	var walk func(p string)
	walk = func(p string) {
		for _, e := range g.names(p) {
			if !g.complete {
				return
			}
			if !g.mode.Hidden && strings.HasPrefix(e.name, ".") {
				continue
			}
			q := p + "/" + e.name
			if last || e.dir {
				out = append(out, q)
			}
			if e.dir && !e.link {
				walk(q)
			}
		}
	}
	for _, p := range cur {
		if last {
			out = append(out, p+"/")
		} else {
			out = append(out, p)
		}
		walk(p)
		if !g.complete {
			return nil
		}
	}
	return out
}

// globSegs reads one component of a bash pattern; meta reports a
// wildcard in it.
func globSegs(c string) (segs []word.Seg, meta bool) {
	var w word.Word
	for i := 0; i < len(c); {
		switch ch := c[i]; {
		case ch == '\\' && i+1 < len(c):
			_, n := utf8.DecodeRuneInString(c[i+1:])
			w.AddLit(c[i+1 : i+1+n])
			i += 1 + n
		case ch == '*':
			w.Segs = append(w.Segs, word.Seg{Kind: word.Star})
			meta = true
			i++
		case ch == '?':
			w.Segs = append(w.Segs, word.Seg{Kind: word.Quest})
			meta = true
			i++
		case ch == '[' && classClose(c, i) > 0:
			j := classClose(c, i)
			w.Segs = append(w.Segs, globClass(c[i+1:j]))
			meta = true
			i = j + 1
		default:
			j := i + 1
			for j < len(c) && !strings.ContainsRune(`\*?[`, rune(c[j])) {
				j++
			}
			w.AddLit(c[i:j])
			i = j
		}
	}
	return w.Segs, meta
}

// globClass is a bracket expression as a segment. Equivalence classes
// and collating symbols ([[=a=]], [[.underscore.]]) are any character
// here: bash reads them by its own tables.
func globClass(body string) word.Seg {
	if strings.Contains(body, "[=") || strings.Contains(body, "[.") {
		return word.Seg{Kind: word.Quest}
	}
	return word.Seg{Kind: word.Class, Text: body}
}

// NoGlob matches nothing: each glob stays as it is written, as bash
// leaves one that matches no name (tests, and replays of another machine's
// sessions).
func NoGlob(string, GlobMode) ([]string, bool) { return nil, true }
