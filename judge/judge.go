// Package judge is the guard's entry point for a decision: bash text in,
// a verdict for every command that would run out.
//
// [Judge] reads the text with shellparse, prepares each command with
// policy.NewPart and asks the policy. The verdict of the whole text is the
// strictest verdict of its parts. Text that cannot be read reliably is
// never allowed: it is an ask, with parse_error saying why.
// Judge never panics on any input and executes nothing but the Python
// analyser of Request.Python (an interpreter that only parses the code).
//
// A long text is judged on several goroutines: its commands are judged as
// the walk settles them, and parts that differ only in position are
// judged once. Every part gets the verdict judging one part after another
// would give it (the tests compare the two). Judge is safe for concurrent
// use with one policy.
package judge

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shellparse"
	"github.com/guard-exec/guard-exec/word"
)

// Request is a text to judge and the world it would run in.
type Request struct {
	Source        string
	Name          string // the script's file name, for file:line
	Cwd           string
	Getenv        func(string) string
	Params        []string // $0, $1, … when known
	ParamsUnknown bool
	// Traced: the shell runs with xtrace on from the start (bash -x).
	Traced bool
	// SetOn: the set -o options the shell starts with (shellparse.Options).
	SetOn []string
	// Glob expands patterns (nil: the file system's, shellparse.FileGlobber).
	Glob shellparse.Globber
	// Explain records, for every part, each rule that matched and the
	// paths it touches; without it only refused parts carry their effects.
	// It lists every part in Result.Commands.
	Explain bool
	// AllParts lists every part in Result.Commands, the allowed ones too
	// (without it a sample of them), without the detail Explain adds.
	AllParts bool
	// ReadScript reads the shell scripts commands run, whose commands are
	// then judged (see shellparse.Options.ReadScript); nil reads them from
	// the file system (shellparse.ReadScriptFile).
	ReadScript func(path string) ([]byte, error)
	// NoScripts leaves every script opaque, as if it could not be read.
	NoScripts bool
	// Python reads the code python commands run (a *pycode.Analyser);
	// nil leaves it opaque. It runs the interpreter to parse the code,
	// so Judge executes nothing only without it.
	Python shellparse.PythonAnalyser
}

// MatchInfo is one rule that matched a part, for explanations.
type MatchInfo struct {
	Rule     string `json:"rule"`
	Source   string `json:"source"`
	Decision string `json:"decision"`
	Aspect   string `json:"aspect"`
	Certain  bool   `json:"certain"`
	Spec     int    `json:"specificity"`
	Won      bool   `json:"won,omitempty"`
	Note     string `json:"note,omitempty"`
}

// PartResult is the verdict on one command.
type PartResult struct {
	Argv       []string    `json:"argv"`
	Normalized string      `json:"normalized,omitempty"`
	Decision   string      `json:"decision"`
	Rule       string      `json:"rule"`
	Source     string      `json:"source"`
	Reason     string      `json:"reason"`
	Instead    string      `json:"instead,omitempty"`
	Via        []string    `json:"via,omitempty"`
	Effects    []string    `json:"effects,omitempty"`
	Opaque     string      `json:"opaque,omitempty"`
	Cwd        []string    `json:"cwd,omitempty"`
	Line       int         `json:"line,omitempty"`
	Matches    []MatchInfo `json:"matches,omitempty"`

	Verdict *policy.Verdict `json:"-"`
	Input   *policy.Part    `json:"-"`
	text    string          // Text, made once for a part and its twins
}

// Result is the verdict on a whole text.
type Result struct {
	Decision   string        `json:"decision"`
	Reason     string        `json:"reason"`
	Instead    string        `json:"instead,omitempty"`
	ParseError string        `json:"parse_error,omitempty"`
	Line       int           `json:"line,omitempty"`
	Commands   []*PartResult `json:"commands"`
	Notices    []string      `json:"notices,omitempty"`
	// Funcs names the shell functions the text defines (see
	// shellparse.Result.Funcs).
	Funcs []string `json:"-"`
	// Omitted counts allowed parts left out of Commands (only without
	// Request.Explain).
	Omitted int `json:"omitted,omitempty"`

	Decided policy.Decision `json:"-"`
}

// maxAllowedParts is how many allowed parts a Result lists without
// Request.Explain.
const maxAllowedParts = 64

// Judge decides a text.
func Judge(pol *policy.Policy, req Request) (res *Result) {
	defer func() {
		// A bug must never turn into an allow.
		if r := recover(); r != nil {
			res = &Result{Decided: policy.Ask, Decision: "ask", ParseError: fmt.Sprintf("internal error while reading the command: %v", r),
				Reason: "the guard could not read this command reliably", Commands: []*PartResult{}}
		}
	}()
	getenv := req.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	glob := req.Glob
	if glob == nil {
		glob = shellparse.FileGlobber()
	}
	// A loop's body is walked more than once and a script repeats its
	// patterns: each is listed once per judgement.
	type listed struct {
		matches  []string
		complete bool
	}
	type globKey struct {
		pattern string
		mode    shellparse.GlobMode
	}
	globs := map[globKey]listed{}
	listGlob := glob
	glob = func(p string, mode shellparse.GlobMode) ([]string, bool) {
		l, ok := globs[globKey{p, mode}]
		if !ok {
			l.matches, l.complete = listGlob(p, mode)
			globs[globKey{p, mode}] = l
		}
		return l.matches, l.complete
	}
	opts := shellparse.Options{
		Cwd: req.Cwd, Getenv: getenv, Params: req.Params, ParamsUnknown: req.ParamsUnknown, Traced: req.Traced, SetOn: req.SetOn,
		Glob: glob, Name: req.Name, Python: req.Python,
	}
	// Where anyone may write: the temporary directories, whatever TMPDIR
	// says, as PATH entries are judged (shellparse untrustedPath).
	opts.Local = shellparse.TempDirs()
	if e := pol.Env; e != nil {
		if e.Project != "" {
			opts.Local = append(opts.Local, e.Project)
		}
		opts.Local = append(opts.Local, e.Temp...)
	}
	if !req.NoScripts {
		opts.ReadScript = req.ReadScript
		if opts.ReadScript == nil {
			opts.ReadScript = shellparse.ReadScriptFile
		}
		// A script a rule names is allowed as it is: it is not read, and
		// its content stays the rule's business (README).
		// It runs on the walking goroutine, and only for commands that
		// run a script.
		var env *policy.Env
		// allowedAsIs: a rule with a command allows c as it is (a
		// built-in guess, --help is only a help query, does not name it).
		allowedAsIs := func(c *shellparse.Cmd, personsOnly bool) bool {
			if env == nil {
				env = pol.Env.ForJudgement()
			}
			v := pol.Decide(policy.NewPart(c, env), false)
			return v.Decision == policy.Allow && v.Rule != nil && v.Rule.Command != "" && (!personsOnly || v.Rule.Layer != policy.Builtin)
		}
		opts.AllowedOpaque = func(c *shellparse.Cmd) bool { return allowedAsIs(c, false) }
		// A program file in the project is allowed as it is only by a
		// rule of the person's: the built-in ones are about the programs
		// the catalogue knows by those names.
		opts.AllowedLocal = func(c *shellparse.Cmd) bool { return allowedAsIs(c, true) }
	}
	var reads []scriptRead
	if opts.ReadScript != nil {
		opts.ScriptRead = func(r shellparse.FileRead, carrier *shellparse.Cmd) { reads = append(reads, scriptRead{r, carrier}) }
	}
	var parsed *shellparse.Result
	var cmds []*shellparse.Cmd // nil for a twin's copy let go (judgedPart.pos)
	var judged []judgedPart
	var err error
	if runtime.GOMAXPROCS(0) > 1 && len(req.Source) >= streamBytes {
		parsed, cmds, judged, err = streamJudge(pol, opts, req.Source, req.Explain)
	} else if parsed, err = shellparse.Parse(req.Source, opts); err == nil {
		cmds = parsed.Cmds
	}
	res = &Result{Commands: []*PartResult{}, Notices: pol.Notices}
	if err != nil {
		pe, _ := err.(*shellparse.ParseError)
		// Never allowed; a person may still decide (bash would run the
		// statements before a syntax error, so nothing runs unasked).
		res.Decided, res.Decision = policy.Ask, "ask"
		res.Reason = "the command could not be read reliably: " + err.Error()
		res.ParseError = err.Error()
		res.Instead = "fix the syntax error"
		if pe != nil {
			res.Line = pe.Pos.Line
			if pe.Differential {
				res.Instead = "write it more plainly, so that bash and the guard read the same commands"
			}
			if pe.TooLarge {
				res.Instead = "split it into smaller commands or scripts"
			}
		}
		return res
	}
	res.Funcs = parsed.Funcs
	var strictest *PartResult
	allowed := 0
	if judged == nil {
		judged = judgeAll(pol, parsed.Cmds, req.Explain)
	}
	if extra := append(changedScripts(reads, judged), readsOfMadeTrees(judged)...); len(extra) > 0 {
		cmds = append(cmds[:len(cmds):len(cmds)], extra...)
		judged = append(judged, judgeAll(pol, extra, req.Explain)...)
	}
	described := map[*policy.Part]*PartResult{} // by judgedPart.p
	for i, c := range cmds {
		p, v := judged[i].p, judged[i].v // p may be a twin's
		// A twin has the same words (shellparse.Cmd.Key covers them).
		if len(p.Cmd.Argv) == 0 && v.Decision == policy.Allow && len(p.Effects) == 0 {
			continue // an assignment with nothing to say
		}
		if v.Decision == policy.Allow && !req.Explain && !req.AllParts {
			// A hurried caller (the shell) needs the refused parts; of the
			// allowed ones a sample is enough for the audit log.
			if allowed++; allowed > maxAllowedParts {
				res.Omitted++
				continue
			}
		}
		if c == nil {
			c = judged[i].own()
		}
		own := p
		if p.Cmd != c {
			cp := *p
			cp.Cmd = c // its own position
			own = &cp
		}
		var jp *PartResult
		if twin := described[p]; twin != nil {
			cp := *twin // the same in all but position
			cp.Input, cp.Line = own, c.Pos.Line
			jp = &cp
		} else {
			jp = describe(own, v, req.Explain || v.Decision != policy.Allow)
			jp.text = jp.Text()
			described[p] = jp
		}
		res.Commands = append(res.Commands, jp)
		if strictest == nil || v.Decision > strictest.Verdict.Decision ||
			v.Decision == strictest.Verdict.Decision && strictest.Verdict.Rule == nil && v.Rule != nil {
			strictest = jp
		}
	}
	res.Decided = policy.Allow
	if strictest != nil {
		res.Decided = strictest.Verdict.Decision
		res.Reason, res.Instead, res.Line = strictest.Reason, strictest.Instead, strictest.Line
	}
	res.Decision = res.Decided.String()
	if res.Decided == policy.Allow {
		res.Reason = "every part is allowed"
		if len(res.Commands) == 1 {
			res.Reason = res.Commands[0].Reason
		}
		res.Instead = ""
	}
	return res
}

// readsOfMadeTrees returns a part that asks for each part that reads what
// a file holds below a directory another part of the same text writes a
// tree into (an archive extracted, a directory copied or moved there): an
// archive or a tree can hold a symbolic link to any file, and the read then
// reads that file, which the guard cannot see before the tree is there
// (tar x -C d; cat d/key; cp -a dir copy; cat copy/l).
func readsOfMadeTrees(judged []judgedPart) []*shellparse.Cmd {
	// The trees, by directory ("" for one known only at run time): a
	// read looks up each directory above it, so a long script costs its
	// reads times their depth.
	trees := map[string][]*policy.Part{}
	for _, j := range judged {
		for _, e := range j.p.Effects {
			if e.Op != "extract" && (e.Access&argspec.Write == 0 || !e.Recursive || e.Op != "") {
				continue
			}
			s, ok := e.Path.Static()
			if !ok {
				s = "" // anywhere
			}
			s = strings.TrimSuffix(s, "/")
			trees[s] = append(trees[s], j.p)
		}
	}
	if len(trees) == 0 {
		return nil
	}
	var out []*shellparse.Cmd
	asked := map[*policy.Part]bool{}
	links := map[*policy.Part]bool{} // copiesLinks, once a read below asks it
	mayLink := func(p *policy.Part) bool {
		l, ok := links[p]
		if !ok {
			l = copiesLinks(p)
			for _, e := range p.Effects {
				l = l || e.Op == "extract"
			}
			links[p] = l
		}
		return l
	}
	for _, j := range judged {
		if asked[j.p] {
			continue
		}
		for _, e := range j.p.Effects {
			// A write below goes where a link there leads too (a red team
			// moved a directory holding a link to ../.. and wrote through
			// it, out of the project).
			writes := e.Access&argspec.Write != 0
			if !writes && (e.Access&policy.Read == 0 || e.Names || e.Op != "") {
				continue
			}
			path, ok := e.Path.Static()
			if !ok {
				// A glob below a tree (cat y/*): its literal directory.
				path = ""
				if pre := e.Path.Prefix(); strings.HasPrefix(pre, "/") {
					path = pre[:strings.LastIndexByte(pre, '/')+1]
					if path != "/" {
						path = strings.TrimSuffix(path, "/")
					}
				}
			}
			for d := path; ; d = filepath.Dir(d) {
				if d == "/" {
					d = ""
				}
				for _, by := range trees[d] {
					if by == j.p || !mayLink(by) || writes && d == path && (e.Op == "create" && makesDirs(j.p) || e.Op == "delete" || e.Op == "move") {
						// The tree's own root: made (mkdir -p d before cp
						// -r src d/), removed or moved (rm d, mv d e act
						// on a link itself, not where it leads). touch and
						// truncate create through a link (a red team's cp
						// -a of a relative link, then truncate -s0).
						continue
					}
					c := *j.p.Cmd
					c.Wrapper, c.CodeArg = false, -1
					where := d
					if where == "" {
						where = "a directory known only at run time"
					}
					c.Opaque = "reads " + e.Path.String() + ", below " + where + ", where another part of this command writes a tree (an archive extracted, a directory copied or moved): what it puts there may be a link to any file, or a secret it carried"
					if writes {
						c.Opaque = "writes " + path + ", below " + where + ", where another part of this command writes a tree (an archive extracted, a directory copied or moved): what it puts there may be a link to anywhere"
					}
					out = append(out, &c)
					asked[j.p] = true
					break
				}
				if asked[j.p] || d == "" || d == "." {
					break
				}
			}
			if asked[j.p] {
				break
			}
		}
	}
	return out
}

// makesDirs reports a part whose "create" makes directories, which, unlike
// touch or truncate, does not follow a link already at the name: mkdir,
// install -d.
func makesDirs(p *policy.Part) bool {
	return p.Norm != nil && (p.Norm.Prog == "mkdir" || p.Norm.Prog == "install")
}

// copiesLinks reports whether a part that copies or moves trees may make
// a symbolic link, or carry a secret to a name the guard does not see:
// some tree it reads or moves may hold one (or is not there yet, so the
// command may make it; or is not known here, or is too large to look
// through).
func copiesLinks(p *policy.Part) bool {
	for _, e := range p.Effects {
		if e.Op != "move" && (e.Access&policy.Read == 0 || !e.Recursive) {
			continue
		}
		root, ok := e.Path.Static()
		if !ok {
			return true
		}
		seen, links := 0, false
		err := filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			// A link may lead anywhere, and a secret carried along is
			// read there under a name the guard does not see (mv keys y;
			// cat y/*).
			if seen++; seen > maxTreeLook || d.Type()&fs.ModeSymlink != 0 || policy.SecretName(d.Name()) {
				links = true
				return filepath.SkipAll
			}
			return nil
		})
		if links || err != nil {
			return true
		}
	}
	return false
}

// maxTreeLook bounds the entries copiesLinks looks through.
const maxTreeLook = 4096

// scriptRead is a file the walk judged a part by, and the command that
// runs it.
type scriptRead struct {
	shellparse.FileRead
	carrier *shellparse.Cmd
}

// changedScripts returns a part that asks for each file a part was
// judged by that another part of the same text may write: the guard
// judged the file as it is now, and bash runs it as it is then
// (`echo … > x.sh; ./x.sh`). The write whose content was judged (cat >
// x.sh <<'EOF' before x.sh exists) changes nothing. Writes the guard does
// not know of (a program that rewrites it) are not seen.
func changedScripts(reads []scriptRead, judged []judgedPart) []*shellparse.Cmd {
	var out []*shellparse.Cmd
	asked := map[*shellparse.Cmd]bool{} // one question for each command that runs them
	stats := statCache{}
	for _, r := range reads {
		if asked[r.carrier] {
			continue
		}
		for _, j := range judged {
			// A twin's part stands for a command let go: the same Writes
			// (shellparse.Cmd.Key covers it).
			if w := j.p.Cmd.Writes; w != nil && r.Written != nil && *w == *r.Written {
				continue
			}
			// An allowed program the catalogue does not know was allowed
			// by a rule of the person's, which covers where its operands
			// might go (policy: coversGuesses); one that names the script
			// still counts.
			covered := !j.p.Known && j.v.Decision == policy.Allow
			if !writesUnder(j.p, r.FileRead, covered, stats) {
				continue
			}
			c := *r.carrier
			c.Wrapper, c.CodeArg = false, -1
			c.Opaque = r.What + ", which a part of this command may change before it runs (the guard read it as it is now)"
			out = append(out, &c)
			asked[r.carrier] = true
			break
		}
	}
	return out
}

// writesUnder reports whether p may change the content of what r names:
// write it, or a directory it is in (for a stem, a path that extends it).
// With covered, a guessed operand counts only where it names the path.
func writesUnder(p *policy.Part, r shellparse.FileRead, covered bool, stats statCache) bool {
	path := r.Path
	for _, e := range p.Effects {
		if e.Access&argspec.Write == 0 || e.Op == "chmod" || e.Op == "chown" {
			continue // a mode or an owner is not content
		}
		cands := e.Path.Matches
		if s, ok := e.Path.Static(); ok {
			cands = append(cands, s)
		} else if covered && e.Guessed {
			continue
		} else if pre := e.Path.Prefix(); strings.HasPrefix(path, pre) || strings.HasPrefix(pre, path) {
			return true // a value known only at run time, or a pattern
		}
		for _, s := range cands {
			if s == path || strings.HasPrefix(path, strings.TrimSuffix(s, "/")+"/") {
				return true
			}
			if !r.Stem && r.Modules == nil && !r.AnyModule && stats.same(s, path) {
				return true // another name of the same file: a hard link
			}
			if r.Stem && (strings.HasPrefix(s, path+"/") || importable(strings.TrimPrefix(s, path+"."), s)) {
				return true // NAME/__init__.py, NAME.py, NAME.cpython-312-x86_64-linux-gnu.so
			}
			if (r.Modules != nil || r.AnyModule) && shadowsModule(r, s) {
				return true
			}
		}
	}
	return false
}

// A statCache remembers what paths are, for one judgement: every write of
// a long script is compared with every file read.
type statCache map[string]os.FileInfo

// same reports whether two paths name one file now (a hard link).
func (c statCache) same(a, b string) bool {
	fa, fb := c.stat(a), c.stat(b)
	return fa != nil && fb != nil && os.SameFile(fa, fb)
}

func (c statCache) stat(p string) os.FileInfo {
	fi, ok := c[p]
	if !ok {
		fi, _ = os.Stat(p)
		c[p] = fi
	}
	return fi
}

// shadowsModule reports whether a file written at s stands for a module
// of r's in its directory: DIR/NAME.py (.pyc, .so, .TAG.so) or
// DIR/NAME/__init__.py.
func shadowsModule(r shellparse.FileRead, s string) bool {
	dir, base := filepath.Dir(s), filepath.Base(s)
	switch name, ext, ok := strings.Cut(base, "."); {
	case base == "__init__.py":
		dir, base = filepath.Dir(dir), filepath.Base(dir)
	case !ok:
		// NAME itself: a directory moved or unpacked there is a package
		// (a red team renamed evd/ to _json/ and imported json).
	case !importable(ext, s):
		return false
	default:
		base = name
	}
	return dir == r.Path && (r.AnyModule || r.Modules[base])
}

// importable reports whether ext, what follows a module's name and a dot
// in path, makes a file python imports for that name: NAME.py, a
// sourceless NAME.pyc, an extension module NAME.so or NAME.TAG.so, and in
// __pycache__ NAME.TAG.pyc.
func importable(ext, path string) bool {
	if ext == path || strings.Contains(ext, "/") {
		return false // not NAME.…, or not a file directly there
	}
	return ext == "py" || strings.HasSuffix("."+ext, ".pyc") || strings.HasSuffix("."+ext, ".so")
}

// judgedPart is a command's part and verdict. p is the part first judged
// with the command's key: the command's own, or an earlier twin's, the
// same in all but position (p.Cmd is then the twin). Twins also share
// their description. A part of its own is made only for a command that is
// described: a long script repeats its commands, and a copy for each
// (kept until the end) was 5 MB in 3 MB of script.
//
// A long text's command that has a twin is let go once judged (its place
// in the list is nil, see streamJudge): pos, its position, is all that
// the twin's command lacks of it.
type judgedPart struct {
	p   *policy.Part
	v   *policy.Verdict
	pos shellparse.Pos
}

// own returns the command let go for its twin's: the twin's but for its
// position, which is all shellparse.Cmd.Key leaves out.
func (j judgedPart) own() *shellparse.Cmd {
	c := *j.p.Cmd
	c.Pos = j.pos
	return &c
}

// judgeAll judges each command, in order, on this goroutine.
func judgeAll(pol *policy.Policy, cmds []*shellparse.Cmd, explain bool) []judgedPart {
	out := make([]judgedPart, len(cmds))
	newJudger(pol, explain).judge(cmds, out)
	return out
}

// A text of at least streamBytes is judged while it is read: after each
// top-level statement the walk hands its commands (settled by then, see
// shellparse.Options.Committed) to a goroutine that judges them on the
// other core. Once the walk ends, both judge what is left.
const streamBytes = 8 << 10

// streamBatch is how many commands a goroutine judges at a time.
const streamBatch = 64

// A batch is a run of commands, judged into out by one goroutine.
type batch struct {
	cmds []*shellparse.Cmd
	out  []judgedPart
}

// parseAndJudge reads src and judges its commands as they are read, as
// streamJudge does, with every command in the Result's Cmds. On error the
// verdicts mean nothing.
func parseAndJudge(pol *policy.Policy, opts shellparse.Options, src string, explain bool) (*shellparse.Result, []judgedPart, error) {
	parsed, cmds, judged, err := streamJudge(pol, opts, src, explain)
	if err != nil {
		return nil, nil, err
	}
	for i, c := range cmds {
		if c == nil {
			cmds[i] = judged[i].own()
		}
	}
	parsed.Cmds = cmds
	return parsed, judged, nil
}

// streamJudge reads src and judges its commands as they are read, and
// returns them with their verdicts. A command whose twin was judged
// before it is let go once judged (nil in the list, see judgedPart): the
// walk hands each over for good (shellparse.Options.Release), so that a
// long script's many repeated commands are not all kept to the end, where
// most are only counted. On error the verdicts mean nothing.
func streamJudge(pol *policy.Policy, opts shellparse.Options, src string, explain bool) (*shellparse.Result, []*shellparse.Cmd, []judgedPart, error) {
	queue := make(chan *batch, 256)
	var batches []*batch
	var wg sync.WaitGroup
	panics := make(chan any, 2)
	consume := func() {
		defer wg.Done()
		defer func() {
			if r := recover(); r != nil {
				panics <- r
				for range queue { // keep the walk from blocking on a full queue
				}
			}
		}()
		j := newJudger(pol, explain)
		for b := range queue {
			b.out = make([]judgedPart, len(b.cmds))
			j.judge(b.cmds, b.out)
			for k, c := range b.cmds {
				if b.out[k].p.Cmd != c {
					b.out[k].pos, b.cmds[k] = c.Pos, nil
				}
			}
		}
	}
	wg.Add(1)
	go consume()
	// pending are the commands handed over (each once) not yet in a
	// batch; each batch has its own part of the array, which the walk
	// appends beyond.
	var pending []*shellparse.Cmd
	handed := 0
	send := func(cmds []*shellparse.Cmd, all bool) {
		pending = append(pending, cmds...)
		handed += len(cmds)
		for len(pending) >= streamBatch || all && len(pending) > 0 {
			hi := min(streamBatch, len(pending))
			b := &batch{cmds: pending[:hi:hi]}
			batches = append(batches, b)
			queue <- b
			pending = pending[hi:]
		}
	}
	opts.Committed = func(cmds []*shellparse.Cmd) { send(cmds, false) }
	opts.Release = true
	parsed, err := shellparse.Parse(src, opts)
	if err == nil && !parsed.Rewalked {
		send(parsed.Cmds[handed:], true) // any reported after the last commit
	}
	close(queue)
	wg.Add(1)
	consume() // this goroutine takes its share of what is left
	wg.Wait()
	select {
	case r := <-panics:
		panic(r) // Judge's recover turns it into an ask
	default:
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if parsed.Rewalked {
		// The text was walked again (shellparse's may-analysis): what was
		// judged as it streamed belongs to the first walk. The second walk
		// released nothing.
		return parsed, parsed.Cmds, judgeAll(pol, parsed.Cmds, explain), nil
	}
	judged := make([]judgedPart, 0, len(parsed.Cmds))
	cmds := make([]*shellparse.Cmd, 0, len(parsed.Cmds))
	for _, b := range batches {
		judged = append(judged, b.out...)
		cmds = append(cmds, b.cmds...)
	}
	return parsed, cmds, judged, nil
}

// A judger judges commands on one goroutine. Commands that differ only in
// position are judged once: a script repeats its commands (echo, ls, git
// status …) in branches and loops. The verdict and the part's analysis
// are shared, read-only. Each judger has its own symlink resolver (not
// safe for concurrent use) and memo.
type judger struct {
	pol     *policy.Policy
	env     *policy.Env
	explain bool
	memo    map[string]judgedPart
	key     []byte
}

func newJudger(pol *policy.Policy, explain bool) *judger {
	return &judger{pol: pol, env: pol.Env.ForJudgement(), explain: explain, memo: map[string]judgedPart{}}
}

// judge judges cmds into out.
func (jr *judger) judge(cmds []*shellparse.Cmd, out []judgedPart) {
	for i, c := range cmds {
		jr.key = c.AppendKey(jr.key[:0]) // the buffer is reused
		j, seen := jr.memo[string(jr.key)]
		if !seen {
			j.p = policy.NewPart(c, jr.env)
			j.v = jr.pol.Decide(j.p, jr.explain)
			jr.memo[string(jr.key)] = j
		}
		out[i] = j
	}
}

func describe(p *policy.Part, v *policy.Verdict, detail bool) *PartResult {
	jp := &PartResult{Argv: word.Strings(p.Argv), Decision: v.Decision.String(), Reason: v.Reason, Instead: v.Instead,
		Verdict: v, Input: p, Line: p.Pos.Line, Opaque: p.Opaque}
	if jp.Argv == nil {
		jp.Argv = []string{}
	}
	if p.Norm != nil && !p.Norm.Raw {
		jp.Normalized = p.Norm.String()
	}
	if v.Rule != nil {
		jp.Rule, jp.Source = v.Rule.Label(), v.Rule.Source
	}
	if jp.Reason == "" {
		jp.Reason = v.Decision.String()
	}
	for _, l := range p.Via {
		jp.Via = append(jp.Via, l.String())
	}
	if len(p.Argv) == 0 && len(p.Assigns) > 0 {
		for _, a := range p.Assigns {
			jp.Argv = append(jp.Argv, a.Name+"="+a.Value.String())
		}
	}
	if !detail {
		return jp
	}
	for _, e := range p.Effects {
		jp.Effects = append(jp.Effects, e.String())
	}
	if p.Cwd.Unknown {
		jp.Cwd = append(jp.Cwd, "(not known)")
	}
	jp.Cwd = append(jp.Cwd, p.Cwd.Dirs...)
	for _, m := range v.Matches {
		jp.Matches = append(jp.Matches, MatchInfo{
			Rule: m.Rule.Label(), Source: m.Rule.Source, Decision: m.Rule.Decision.String(), Aspect: m.Aspect,
			Certain: m.Tri == word.Yes, Spec: m.Rule.Specificity(), Won: m.Won, Note: m.Note,
		})
	}
	return jp
}

// AbsoluteDeny reports whether the absolute denylist forbids, or may
// forbid, a part of the text: such text never runs in audit mode. Text
// that could not be read may hold anything (bash runs the statements
// before a syntax error), so it counts.
func (r *Result) AbsoluteDeny() bool {
	if r.ParseError != "" {
		return true
	}
	for _, p := range r.Commands {
		if p.Verdict != nil && p.Verdict.AbsoluteDeny != word.No {
			return true
		}
	}
	return false
}

// Refused returns the parts that are not allowed.
func (r *Result) Refused() []*PartResult {
	var out []*PartResult
	for _, p := range r.Commands {
		if p.Verdict != nil && p.Verdict.Decision != policy.Allow {
			out = append(out, p)
		}
	}
	return out
}

// Text renders a part's command for people.
func (p *PartResult) Text() string {
	if p.text != "" {
		return p.text
	}
	t := strings.Join(p.Argv, " ")
	if p.Input != nil {
		t = p.Input.String()
	}
	if strings.TrimSpace(t) == "" && p.Opaque != "" {
		// Code with no command of its own (arithmetic on unknown values,
		// an eval of unknown text): say what it is.
		return "(" + p.Opaque + ")"
	}
	return t
}
