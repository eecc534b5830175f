package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
)

// A scratch is the place one session is replayed in: its project root,
// home and temporary directory are directories under dir, and the
// session's commands name them there (the paths in its text are
// rewritten). The files the session's own commands write with a
// here-document (cat <<EOF > f.py, tee f.sh <<EOF) are written there as
// the commands are replayed, so a later `python3 f.py` or `./f.sh` is
// judged by its content, as the guard would in the live session.
type scratch struct {
	dir     string
	from    []string // session paths, mapped to dir+path
	re      *regexp.Regexp
	written map[string]bool // files the replay wrote, by scratch path
	open    string          // SWE-agent's open file
}

// sessionHomes are the home directories the corpus names (its users'
// names are replaced by "user").
var sessionHomes = []string{"/home/user", "/Users/user"}

// newScratch maps root (the session's project root as the session names
// it), the session's home and /tmp to directories under dir. A root
// outside the home is mapped with its top directory (/app for
// /app/ssl), so its neighbours stay its neighbours.
func newScratch(dir, root string) (*scratch, error) {
	sc := &scratch{dir: dir, written: map[string]bool{}}
	sc.from = append(sc.from, sessionHomes...)
	sc.from = append(sc.from, "/tmp")
	if !under(root, sessionHomes...) && root != "/tmp" && !strings.HasPrefix(root, "/tmp/") {
		top := "/" + strings.SplitN(strings.TrimPrefix(root, "/"), "/", 2)[0]
		sc.from = append(sc.from, top)
	}
	sort.Slice(sc.from, func(i, j int) bool { return len(sc.from[i]) > len(sc.from[j]) })
	var alts []string
	for _, f := range sc.from {
		alts = append(alts, regexp.QuoteMeta(f))
	}
	sc.re = regexp.MustCompile(strings.Join(alts, "|"))
	for _, d := range []string{sc.Home(), sc.Temp(), sc.Path(root)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

func under(p string, dirs ...string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// Path maps a session path to the scratch.
func (sc *scratch) Path(p string) string {
	for _, h := range sessionHomes {
		if under(p, h) {
			return sc.Home() + strings.TrimPrefix(p, h)
		}
	}
	return sc.dir + p
}

func (sc *scratch) Home() string { return sc.dir + "/home/user" }
func (sc *scratch) Temp() string { return sc.dir + "/tmp" }

// Text maps the paths in a command's text: each of them where it starts
// a path (no path character before it) and is whole (a slash or no path
// character after it).
func (sc *scratch) Text(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range sc.re.FindAllStringIndex(s, -1) {
		i, j := m[0], m[1]
		if i > 0 && isPathChar(s[i-1]) || j < len(s) && s[j] != '/' && isPathChar(s[j]) {
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(sc.Path(s[i:j]))
		last = j
	}
	b.WriteString(s[last:])
	return b.String()
}

func isPathChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_./~-", c) >= 0
}

// Unmap turns scratch paths in a message back into the session's.
func (sc *scratch) Unmap(s string) string {
	s = strings.ReplaceAll(s, sc.Home(), "/home/user")
	return strings.ReplaceAll(s, sc.dir, "")
}

// Apply writes what the parts of a replayed command write with a
// here-document or here-string of known text, and forgets (removes)
// every file it wrote earlier that the command may otherwise change:
// the replay does not run commands, so a file edited by `sed -i` or
// written by a program is not known, and is better absent (the guard
// then asks, as for any file it cannot read) than stale.
func (sc *scratch) Apply(res *judge.Result) error {
	for _, jp := range res.Commands {
		p := jp.Input
		if p == nil || p.Cmd == nil {
			continue
		}
		name := p.Name()
		wrote, err := sc.heredoc(p, name)
		if err != nil {
			return err
		}
		for _, e := range p.Effects {
			if e.Access&argspec.Write == 0 {
				continue
			}
			path, ok := e.Path.Static()
			if ok && wrote[path] {
				continue
			}
			if ok && (name == "chmod" || name == "touch") {
				if name == "chmod" && sc.written[path] {
					if err := os.Chmod(path, 0o755); err != nil {
						return err
					}
				}
				continue
			}
			for f := range sc.written {
				if !ok && len(e.Under) == 0 || ok && under(f, path) || !ok && under(f, e.Under...) {
					if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
						return err
					}
					delete(sc.written, f)
				}
			}
		}
	}
	return nil
}

// heredoc writes the text of `cat > F <<EOF`, `cat <<EOF >> F` and
// `tee [-a] F… <<EOF` when the text is known exactly and F is a plain
// path; it returns the files written.
func (sc *scratch) heredoc(p *policy.Part, name string) (map[string]bool, error) {
	if p.Stdin == nil || !p.Stdin.Known || name != "cat" && name != "tee" || len(p.Cwd.Dirs) != 1 || p.Cwd.Unknown {
		return nil, nil
	}
	type target struct {
		path   string
		append bool
	}
	var targets []target
	args := p.Argv[1:]
	switch name {
	case "cat":
		if len(args) > 1 || len(args) == 1 && !isWord(args[0].Static, "-") {
			return nil, nil
		}
		for _, r := range p.Redirs {
			if r.Op != ">" && r.Op != ">>" && r.Op != ">|" || r.Fd != "" && r.Fd != "1" {
				continue
			}
			t, ok := r.Target.Static()
			if !ok {
				return nil, nil
			}
			targets = append(targets, target{t, r.Op == ">>"})
		}
	case "tee":
		app := false
		for _, a := range args {
			s, ok := a.Static()
			switch {
			case !ok:
				return nil, nil
			case s == "-a" || s == "--append":
				app = true
			case strings.HasPrefix(s, "-"):
				return nil, nil
			default:
				targets = append(targets, target{path: s})
			}
		}
		for i := range targets {
			targets[i].append = app
		}
	}
	wrote := map[string]bool{}
	for _, t := range targets {
		path := t.path
		if !filepath.IsAbs(path) {
			path = filepath.Join(p.Cwd.Dirs[0], path)
		}
		path = filepath.Clean(path)
		if !strings.HasPrefix(path, sc.dir+"/") || t.append && !sc.written[path] {
			// Outside the scratch: not the session's; or appended to
			// a file whose text the replay does not know.
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if t.append {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := os.OpenFile(path, flag, 0o644)
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		_, err = f.WriteString(p.Stdin.Text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		sc.written[path] = true
		wrote[path] = true
	}
	return wrote, nil
}

func isWord(static func() (string, bool), want string) bool {
	s, ok := static()
	return ok && s == want
}

// SWE replays SWE-agent's file commands, which are functions of its tool
// bundle and not judged: `create F` makes an empty file and opens it,
// `open F` opens one, and `edit N:M` followed by lines and end_of_edit
// replaces lines N to M of the open file. Only files the replay made are
// edited (an edit of a file the task brought, whose text is not here,
// leaves it absent); an edit it cannot follow removes the file.
func (sc *scratch) SWE(cmd, cwd string) error {
	first, rest, _ := strings.Cut(cmd, "\n")
	f := strings.Fields(first)
	if len(f) == 0 {
		return nil
	}
	path := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		return filepath.Clean(p)
	}
	switch f[0] {
	case "create":
		if len(f) != 2 {
			return nil
		}
		p := path(sc.Text(f[1]))
		sc.open = ""
		if !strings.HasPrefix(p, sc.dir+"/") {
			return nil
		}
		if _, err := os.Stat(p); err == nil {
			sc.open = p // SWE-agent refuses to create an existing file
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			return err
		}
		sc.written[p] = true
		sc.open = p
	case "open":
		if len(f) >= 2 {
			sc.open = path(sc.Text(f[1]))
		}
	case "edit":
		p := sc.open
		if p == "" || !sc.written[p] {
			return nil
		}
		var start, end int
		body, ok := strings.CutSuffix(strings.TrimRight(rest, " \t\n"), "end_of_edit")
		if n, _ := fmt.Sscanf(f[1], "%d:%d", &start, &end); len(f) != 2 || !ok || n != 2 || start < 1 || end < start-1 {
			delete(sc.written, p)
			return os.Remove(p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lines := strings.SplitAfter(string(b), "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if start > len(lines)+1 {
			start = len(lines) + 1
		}
		if end > len(lines) {
			end = len(lines)
		}
		var out strings.Builder
		for _, l := range lines[:start-1] {
			out.WriteString(l)
		}
		out.WriteString(body)
		for _, l := range lines[max(end, start-1):] {
			out.WriteString(l)
		}
		return os.WriteFile(p, []byte(out.String()), 0o644)
	}
	return nil
}
