package policy

import (
	"github.com/guard-exec/guard-exec/internal/physpath"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/shellparse"
	"github.com/guard-exec/guard-exec/word"
)

// Env is the world paths are resolved in.
type Env struct {
	Home    string // the real HOME
	Project string // the project root: the git root, else the working directory (see ProjectRootIn)
	// NoProject is set when Project is the home directory or one of its
	// ancestors (the working directory, with no project above it): writes
	// there are not writes inside a project. Project is still where rules'
	// relative paths start.
	NoProject bool
	Temp      []string // temporary directories
	// Protect lists files and directories (absolute) that no command run
	// under the guard may write: its config files, state and audit log.
	Protect []string
	// ProtectAgent lists the agent clients' own files and directories
	// (install.AgentFiles), denied like Protect with their own reason: path
	// patterns (settings*.json), their directories' names escaped.
	ProtectAgent []string
	// RunnerData and RunnerEnv are a CI runner's files of workflow
	// commands (GitHub Actions' $GITHUB_OUTPUT…, and $GITHUB_ENV,
	// $GITHUB_PATH): writing the first is harmless data, the second
	// changes what the job's later steps run.
	RunnerData, RunnerEnv []string
	// FollowLinks resolves symbolic links in the paths parts touch, each
	// judgement with a fresh view of the file system (see ForJudgement).
	FollowLinks bool
	// Resolve, when set, resolves symbolic links instead (tests give a
	// fake file system here).
	Resolve func(path string) (string, bool)
	// Vars names the variables of the guard's own environment, which the
	// commands it judges inherit: a bare env or set prints them.
	Vars []string
	// gitCreds remembers, for one judgement, which git configuration
	// files hold a credential (secrets_git.go).
	gitCreds *credCache
	// walkLeft is what the tree walks of one judgement (what find gives,
	// whole reads) may still read in all: each is bounded, and so is
	// their sum, however many commands a text holds. Nil: each walk's
	// own bound only.
	walkLeft *int
}

// maxJudgementWalk bounds the entries all tree walks of one judgement read.
const maxJudgementWalk = 100000

// walkBudget returns how many entries a tree walk may read now: its own
// bound, or less when the judgement's walks have read most of theirs.
func (p *Part) walkBudget() int {
	if p.env == nil || p.env.walkLeft == nil {
		return maxFoundWalk
	}
	return max(0, min(maxFoundWalk, *p.env.walkLeft))
}

// walked takes what a walk read (its budget less what was left of it)
// from the judgement's.
func (p *Part) walked(budget, left int) {
	if p.env != nil && p.env.walkLeft != nil {
		*p.env.walkLeft -= budget - max(left, 0)
	}
}

// ForJudgement returns the environment for one judgement. With
// FollowLinks, its link resolver remembers what it looked up, for this
// judgement only: files change between commands, and a Policy may judge
// several commands at once.
func (e *Env) ForJudgement() *Env {
	if e == nil || !e.FollowLinks || e.Resolve != nil {
		return e
	}
	c := *e
	c.Resolve = Resolver()
	c.gitCreds = &credCache{m: map[string]bool{}}
	left := maxJudgementWalk
	c.walkLeft = &left
	return &c
}

// Effect is a path a part touches, resolved to an absolute path.
type Effect struct {
	Path      word.Word // absolute, cleaned where the text allows
	Written   string    // as written in the command
	Access    Access
	Op        string
	Recursive bool
	Redirect  bool
	// Names: only names and metadata are read (ls, stat, find), not
	// contents. SkipHidden: a recursive read that passes over entries
	// named .* below Path (rg, tree). See argspec.Effect.
	Names, SkipHidden bool
	// Whole: a recursive read that gives on every file's whole content
	// (argspec.Effect.Whole), looked through by readsWholeTree.
	Whole *argspec.WholeRead
	// Under lists the directories a Path known only at run time lies
	// under as written: the literal directory before its first unknown
	// part (/home/u/.ssh for ~/.ssh/$k), or for a relative path each
	// directory the part may run in. The value may still hold ".." and go
	// elsewhere, so Under only ever makes a deny or ask rule match
	// "maybe", never an allow rule.
	Under []string
	// DotGlob: a glob in the path may match names starting with '.'
	// (shellparse.Cmd.DotGlob).
	DotGlob bool
	// Guessed: the catalogue does not know the program, and this is an
	// operand that might be a path it reads or writes. A configured allow
	// of the command covers it (see Policy.Judge).
	Guessed bool
}

func (e Effect) String() string {
	s := e.Access.String() + " " + e.Path.String()
	if e.Op != "" {
		s = e.Op + " " + e.Path.String()
	}
	if e.Recursive {
		s += " (recursive)"
	}
	return s
}

// Part is one command as the policy sees it.
type Part struct {
	*shellparse.Cmd
	Norm    *argspec.Cmd
	Effects []Effect
	// Known is false when the catalogue does not know what the program
	// does to its operands.
	Known bool
	// Unreviewed are the variables the command line sets for the program
	// (X=v prog, or exported: shellparse's Cmd.Exported) that the
	// catalogue does not judge
	// (argspec.UnreviewedEnv): a program the built-in rules allow was
	// not reviewed for them.
	Unreviewed []string
	env        *Env
	trees      map[string]foundTree // treeBelow's reads
	wholes     map[string]wholeTree // readsWholeTree's
}

// NewPart prepares a command for judging: its normalised argv and the
// paths it touches.
func NewPart(c *shellparse.Cmd, env *Env) *Part {
	p := &Part{Cmd: c, env: env, Known: true}
	if len(c.Argv) > 0 {
		p.Norm = argspec.Normalize(c.Argv, false)
		var effs []argspec.Effect
		known := true
		switch {
		case !c.Wrapper && c.Opaque == "":
			effs, known = argspec.Effects(p.Norm)
			p.Known = known
		case c.Wrapper:
			// The command it runs is judged on its own; the files the
			// wrapper itself opens are its own (xargs -a FILE), and so is
			// a script it runs, whose text it reads (source .env reads
			// .env, whatever its commands are).
			effs = argspec.WrapperEffects(p.Norm)
			if c.CodeArg > 0 && c.CodeArg < len(c.Argv) {
				effs = append(effs, argspec.Effect{Path: c.Argv[c.CodeArg], Access: argspec.Read})
			}
		}
		for _, e := range effs {
			n := len(p.Effects)
			p.addEffect(e.Path, Effect{Access: e.Access, Op: e.Op, Recursive: e.Recursive, Names: e.Names, SkipHidden: e.SkipHidden, Whole: e.Whole})
			if !known && e.Access == argspec.Unknown {
				for i := n; i < len(p.Effects); i++ {
					p.Effects[i].Guessed = true
				}
			}
		}
	}
	if len(c.Argv) > 0 && len(c.Assigns)+len(c.Exported) > 0 {
		names, values := make([]string, 0, len(c.Assigns)+len(c.Exported)), make([]word.Word, 0, len(c.Assigns)+len(c.Exported))
		for _, a := range c.Assigns {
			names, values = append(names, a.Name), append(values, a.Value)
		}
		for _, a := range c.Exported {
			if !slices.Contains(names, a.Name) {
				names, values = append(names, a.Name), append(values, a.Value)
			}
		}
		prog, _ := c.Argv[0].Static()
		p.Unreviewed = argspec.UnreviewedEnv(argspec.ProgName(prog), names, values, shellparse.ReviewedVar)
	}
	// What a variable makes a tool write (GOCACHE=DIR): the walker
	// reports each such assignment as a part of its own, wherever the text
	// sets it (shellparse's carriedEnv), and only that part carries it.
	for _, a := range c.Assigns {
		if len(c.Argv) > 0 {
			break
		}
		if def := argspec.EnvDefault(a.Name); def != "" && env != nil && env.Home != "" {
			if v, ok := a.Value.Static(); ok && filepath.Clean(v) == filepath.Join(env.Home, def) {
				continue // export GOPATH=$HOME/go: where go writes anyway
			}
		}
		for _, e := range argspec.EnvEffects(a.Name, a.Value) {
			p.addEffect(e.Path, Effect{Access: e.Access, Op: e.Op, Recursive: e.Recursive, Whole: e.Whole})
		}
	}
	for _, r := range c.Redirs {
		switch {
		case r.Writes() && r.Reads():
			p.addEffect(r.Target, Effect{Access: Read | argspec.Write, Redirect: true})
		case r.Writes():
			p.addEffect(r.Target, Effect{Access: argspec.Write, Redirect: true})
		case r.Reads():
			p.addEffect(r.Target, Effect{Access: Read, Redirect: true})
		}
	}
	return p
}

// Read is read access.
const Read = argspec.Read

// addEffect adds the effect like on the path w, made absolute.
func (p *Part) addEffect(w word.Word, like Effect) {
	under := p.under(w)
	// The path as written, made absolute but not cleaned, for each
	// directory in resolve's order: links are followed in it.
	var raws []string
	if ws, ok := w.Static(); ok && p.env != nil && p.env.Resolve != nil {
		if filepath.IsAbs(ws) {
			raws = []string{ws}
		} else if !p.Cwd.Unknown {
			for _, d := range p.Cwd.Dirs {
				raws = append(raws, d+"/"+ws)
			}
		}
	}
	for i, abs := range p.resolve(w) {
		e := like
		e.Path, e.Written, e.DotGlob = abs, w.String(), p.DotGlob
		if len(abs.Segs) == 1 && abs.Segs[0].Kind == word.Hole {
			e.Under = under
		}
		p.Effects = append(p.Effects, e)
		if p.env.Resolve == nil {
			continue
		}
		// A path through a symbolic link also touches the link's target.
		if s, ok := abs.Static(); ok {
			raw := s
			if i < len(raws) {
				raw = raws[i]
			}
			real, ok := p.env.Resolve(raw)
			switch {
			case ok && real != s:
				e.Path = word.FromLit(real)
				p.Effects = append(p.Effects, e)
			case !ok && hasDotDot(raw):
				// x/../f where x is not there yet: where it leads is
				// known only once the text has made x (a link, maybe).
				e.Path = word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: w.String()}}}
				p.Effects = append(p.Effects, e)
			}
		}
	}
	if p.env == nil || p.env.Resolve == nil {
		return
	}
	// So does a glob's match that is a link, or that goes through one
	// (cat k* where key leads to ~/.ssh/id_ed25519; cat l/../*): its
	// matches are absolute, as the shell joined them, never cleaned.
	for _, m := range w.Matches {
		if !filepath.IsAbs(m) {
			continue
		}
		if real, ok := p.env.Resolve(m); ok && real != cleanPath(m) {
			e := like
			e.Path, e.Written, e.DotGlob = word.FromLit(real), w.String(), p.DotGlob
			p.Effects = append(p.Effects, e)
		}
	}
}

// hasDotDot reports whether a path has a ".." component.
func hasDotDot(path string) bool { return physpath.HasDotDot(path) }

// resolve makes a path word absolute against each directory the part may
// run in.
func (p *Part) resolve(w word.Word) []word.Word {
	if len(w.Segs) == 0 {
		return nil
	}
	for _, s := range w.Segs {
		// find's {} is a path below its starting points (secrets.go's
		// belowFindRoots), unless they are data; xargs's is data.
		if s.Kind == word.Hole && (s.Text != "{}" || s.Data) {
			// A value known only at run time can hold "..", or be
			// absolute: the path could be anywhere.
			data := w.HasData() || !strings.HasPrefix(w.Prefix(), "/") && p.Cwd.Unknown && p.Cwd.Data
			var found []string
			if len(w.Segs) == 1 {
				found = s.Found // $(find …) alone: what find gives (secrets.go's findSteps)
			}
			return []word.Word{{Segs: []word.Seg{{Kind: word.Hole, Data: data, Text: w.String(), Found: found}}}}
		}
	}
	if strings.HasPrefix(w.Prefix(), "/") {
		return []word.Word{cleanWord(w)}
	}
	if p.Cwd.Unknown || len(p.Cwd.Dirs) == 0 {
		// Relative to a directory not known here: it could be anywhere.
		if len(p.Cwd.Written) == 0 {
			return []word.Word{{Segs: []word.Seg{{Kind: word.Hole, Data: p.Cwd.Data, Text: "$PWD/" + w.String()}}}}
		}
		// cd "$D"/.ssh; cat *: $D/.ssh/*, in each directory as written.
		var out []word.Word
		for _, d := range p.Cwd.Written {
			out = append(out, word.Word{Segs: []word.Seg{{Kind: word.Hole, Data: p.Cwd.Data, Text: d + "/" + w.String()}}})
		}
		return out
	}
	var out []word.Word
	for _, d := range p.Cwd.Dirs {
		j := word.FromLit(d + "/")
		j.AddWord(w)
		j.Matches = nil
		for _, m := range w.Matches {
			if filepath.IsAbs(m) {
				j.Matches = append(j.Matches, m)
			} else {
				j.Matches = append(j.Matches, filepath.Join(d, m))
			}
		}
		out = append(out, cleanWord(j))
	}
	return out
}

// under returns the directories a path word with a part known only at
// run time lies under as written (Effect.Under): its literal directory
// prefix, made absolute against each directory the part may run in.
func (p *Part) under(w word.Word) []string {
	prefix := w.Prefix()
	if w.IsStatic() {
		return nil
	}
	dir := ""
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dir = prefix[:i+1]
	}
	if strings.HasPrefix(dir, "/") {
		return []string{cleanPath(dir)}
	}
	if p.Cwd.Unknown {
		return nil
	}
	var out []string
	for _, d := range p.Cwd.Dirs {
		out = append(out, cleanPath(filepath.Join(d, dir)))
	}
	return out
}

// cleanWord cleans the static parts of an absolute path word: "/etc/../x"
// is "/x". A ".." after a hole could go anywhere: the whole path becomes
// unknown below its known prefix.
func cleanWord(w word.Word) word.Word {
	if s, ok := w.Static(); ok {
		return word.FromLit(cleanPath(s))
	}
	// Clean the literal prefix up to its last '/'.
	prefix := w.Prefix()
	cut := strings.LastIndexByte(prefix, '/')
	if cut < 0 {
		return w
	}
	rest, _ := w.TrimPrefix(prefix[:cut+1])
	// A ".." later in the word makes the rest unknowable.
	for _, s := range rest.Segs {
		if s.Kind == word.Lit && (strings.Contains(s.Text, "/..") || strings.HasPrefix(s.Text, "..")) {
			rest = word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: rest.String()}}}
			break
		}
	}
	head := cleanPath(prefix[:cut+1])
	if !strings.HasSuffix(head, "/") {
		head += "/"
	}
	out := word.FromLit(head)
	out.AddWord(rest)
	out.Matches = nil
	for _, m := range w.Matches {
		out.Matches = append(out.Matches, cleanPath(m))
	}
	return out
}

func cleanPath(s string) string {
	c := filepath.Clean(s)
	if strings.HasPrefix(c, "//") {
		c = "/" + strings.TrimLeft(c, "/")
	}
	return c
}

// ProgPaths returns the absolute paths the program word may name, for
// rules written with a path ("./scripts/ci.sh").
func (p *Part) ProgPaths() []word.Word {
	if len(p.Argv) == 0 {
		return nil
	}
	w := p.Argv[0]
	if s, ok := w.Static(); ok && !strings.Contains(s, "/") {
		return nil // found through PATH: not a path rule's business
	}
	return p.resolve(w)
}

// Resolver returns a Resolve function that follows symbolic links in the
// existing part of an absolute path as the kernel does (physpath); the
// rest is kept as written. It remembers what it looked up, so it is for
// one judgement at a time (see Env.ForJudgement), not for concurrent use.
func Resolver() func(string) (string, bool) { return physpath.New() }

// ProjectRootIn returns the project root for a command run in dir: the
// git root above dir, else dir. The home directory and its ancestors are
// never a project (a dotfiles repository at ~ does not make every file of
// the home a project file; a shell started in ~ or in / is in no project),
// nor is a credential directory (a repository at ~/.ssh):
// ok is false when the answer would be one of them, and root is then dir,
// where relative rule paths still start. Symbolic links are followed on
// both sides, so a home reached through a link is still the home.
func ProjectRootIn(dir, home string) (root string, ok bool) {
	return projectRootIn(dir, home, gitRoot)
}

func projectRootIn(dir, home string, gitRoot func(string) (string, bool)) (root string, ok bool) {
	homes := []string{}
	if home != "" && filepath.IsAbs(home) {
		homes = append(homes, filepath.Clean(home))
		if real, err := filepath.EvalSymlinks(home); err == nil && real != homes[0] {
			homes = append(homes, real)
		}
	}
	// contains reports whether d is one of the homes or an ancestor of one.
	contains := func(d string) bool {
		ds := []string{filepath.Clean(d)}
		for _, h := range homes {
			if strings.HasPrefix(ds[0], h+"/") && !credentialDir(h, ds[0]) {
				// The common case, a project below the home: no link
				// inside the home leads back above it.
				return false
			}
		}
		if real, err := filepath.EvalSymlinks(d); err == nil && real != ds[0] {
			ds = append(ds, real)
		}
		for _, h := range homes {
			for _, d := range ds {
				if d == h || d == "/" || strings.HasPrefix(h, d+"/") || credentialDir(h, d) {
					return true
				}
			}
		}
		return false
	}
	if g, ok := gitRoot(dir); ok && !contains(g) {
		return g, true
	} // else no repository, or one at ~ (or above): dir alone, if anything
	return dir, !contains(dir)
}

// ProjectRoots returns ProjectRoot(dir) and ProjectRootIn(dir, home),
// looking for the repository once.
func ProjectRoots(dir, home string) (configRoot, project string, inProject bool) {
	g, found := gitRoot(dir)
	if configRoot = dir; found {
		configRoot = g
	}
	project, inProject = projectRootIn(dir, home, func(string) (string, bool) { return g, found })
	return configRoot, project, inProject
}

// gitRoot returns the nearest directory at or above dir holding .git.
func gitRoot(dir string) (string, bool) {
	for d := dir; ; {
		if isRepo(d) {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

func isRepo(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// ProjectRoot returns the git root above dir, else dir: where the
// project's configuration file is looked for. The root judged as the
// project is ProjectRootIn's.
func ProjectRoot(dir string) string {
	if g, ok := gitRoot(dir); ok {
		return g
	}
	return dir
}
