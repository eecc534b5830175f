package policy

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/guard-exec/guard-exec/word"
)

// A whole read (tar c, zip -r, git diff --no-index, a search every line
// matches: argspec's Effect.Whole) gives on the whole content of every
// file below its path, so a dotenv or key file there is read as if it
// were named. A search with a pattern of its own (grep -r TODO .) is not
// looked into: it shows the lines that match, and it is the everyday
// work of an agent (envFileMatcher).

// wholeTree is what readsWholeTree found below one root.
type wholeTree struct {
	found string // a secret there: a dotenv or key file, or where a link leads
	// open: not all was looked through: more than maxFoundWalk entries,
	// more than maxWholeProbes files to look into, or a link followed to
	// a directory (why says which).
	open bool
	why  string
}

// maxWholeProbes bounds the files whose content readsWholeTree reads to
// tell whether they hold a key (server.pem, credentials.json).
const maxWholeProbes = 64

// readsWholeTree matches a whole read of a tree that holds a secret the
// read takes in: Yes when one is there now, Maybe when the tree comes
// from run-time data or is not all looked through.
func readsWholeTree(p *Part, e Effect) word.Tri {
	if e.Whole == nil || !readsContent(e) {
		return word.No
	}
	roots := e.Path.Matches
	if s, ok := e.Path.Static(); ok {
		roots = []string{s}
	} else if len(roots) == 0 || e.Path.HasHole() {
		// A tree that comes from run-time data may be any; one from
		// outside the text (diff <(…), grep -r x "$D") is judged as
		// written, as cat "$f" is.
		if e.Path.HasData() {
			return word.Maybe
		}
		return word.No
	}
	for _, root := range roots {
		t := p.wholeTree(root, e)
		if t.found != "" {
			return word.Yes
		}
		if t.open {
			return word.Maybe
		}
	}
	return word.No
}

// wholeTreeDetail names what readsWholeTree found: the secret below the
// tree, or why the tree was not all looked through.
func wholeTreeDetail(p *Part, e Effect) string {
	roots := e.Path.Matches
	if s, ok := e.Path.Static(); ok {
		roots = []string{s}
	} else if len(roots) == 0 || e.Path.HasHole() {
		return "the tree comes from run-time data"
	}
	for _, root := range roots {
		switch t := p.wholeTree(root, e); {
		case t.found != "":
			return t.found + " is there"
		case t.open:
			return "below " + root + ": " + t.why
		}
	}
	return ""
}

// wholeTree looks through the tree below root as the read e reads it:
// what its exclusions leave out is left out, and links are followed only
// when it follows them.
func (p *Part) wholeTree(root string, e Effect) wholeTree {
	key := fmt.Sprintf("%s\x00%p", root, e.Whole)
	if t, ok := p.wholes[key]; ok {
		return t
	}
	var t wholeTree
	budget := p.walkBudget()
	left, probes := budget, maxWholeProbes
	defer func() { p.walked(budget, left) }()
	look := func(path string) {
		base := filepath.Base(path)
		switch {
		case envFile(base), secretByName(base):
			t.found = path
		case secretContent(base) != nil:
			if probes--; probes < 0 {
				t.open, t.why = true, fmt.Sprintf("more than %d files there to look into for a key", maxWholeProbes)
			} else if probeSecret(path, secretContent(base)) != word.No {
				t.found = path
			}
		}
	}
	complete := walkBounded(root, &left, func(path string, d fs.DirEntry) error {
		if path != root && e.Whole.Skips(d.Name(), d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			if !e.Whole.Follow {
				return nil // stored as a link (tar), or passed over (grep -r)
			}
			to, err := filepath.EvalSymlinks(path)
			if err != nil {
				return nil
			}
			if fi, err := os.Stat(to); err == nil && fi.IsDir() {
				// another tree: not looked through here
				t.open, t.why = true, path+" is a link to a directory, which it follows"
				return filepath.SkipAll
			}
			look(to)
		case d.Type().IsRegular():
			look(path)
		}
		if t.found != "" || t.open {
			return filepath.SkipAll
		}
		return nil
	})
	if !complete && !t.open {
		t.open, t.why = true, "more entries there than the guard looks through"
	}
	if p.wholes == nil {
		p.wholes = map[string]wholeTree{}
	}
	p.wholes[key] = t
	return t
}

// walkBounded walks the tree below root as filepath.WalkDir does,
// passing over what cannot be read, and stops after *left entries in all
// (the caller's budget, shared by its walks): false then.
func walkBounded(root string, left *int, visit func(path string, d fs.DirEntry) error) bool {
	complete := true
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // the program cannot read it either
		}
		if *left--; *left < 0 {
			complete = false
			return filepath.SkipAll
		}
		return visit(path, d)
	})
	return complete
}
