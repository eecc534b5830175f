package pycode

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/guard-exec/guard-exec/internal/sha256"
)

// analyseProgram is the analysis program the interpreter runs (-c), with
// the code to read on its standard input.
//
//go:embed analyse.py
var analyseProgram string

// facts is what the analysis program reports about one text.
type facts struct {
	OK bool `json:"ok"`
	// Cache (mode cacheN): "same", "differs" or "unused" (sameCode).
	Cache   string   `json:"cache"`
	Error   string   `json:"error"`
	Version []int    `json:"version"`
	Stdlib  []string `json:"stdlib"`
	// Startup are the modules python imports by name before the code
	// runs (sitecustomize, what .pth files import); nil: not known.
	Startup []string `json:"startup"`
	Trunc   bool     `json:"truncated"`
	// ArgvStable: nothing in the code changes sys.argv or passes it
	// around, so sys.argv[N] is the command's word N.
	ArgvStable bool `json:"argv_stable"`
	Imports    []struct {
		Module string  `json:"module"`
		Name   *string `json:"name"`
		As     *string `json:"as"`
		Line   int     `json:"line"`
		Level  int     `json:"level"`
		Class  bool    `json:"cls"` // in a class body: a class attribute
	} `json:"imports"`
	Refs []struct {
		Chain  []string `json:"chain"`
		Line   int      `json:"line"`
		Ctx    string   `json:"ctx"`
		Called bool     `json:"called"`
		ArgOf  *string  `json:"argof"` // the name of the function it is an argument of
	} `json:"refs"`
	Calls []*call `json:"calls"`
	Attrs []struct {
		Name   string `json:"name"`
		Line   int    `json:"line"`
		Called bool   `json:"called"`
		Own    bool   `json:"own"` // of a method's own object (self._x)
	} `json:"attrs"`
	Defs []struct {
		Kind     string   `json:"kind"`
		Name     string   `json:"name"`
		Line     int      `json:"line"`
		Keywords []string `json:"keywords"`
		Own      bool     `json:"own"` // kind attr: stored into the code's own object (self.x = …)
	} `json:"defs"`
	Stores []struct {
		Chain []string `json:"chain"`
		Line  int      `json:"line"`
	} `json:"stores"`
	// Formats are calls of .format/.format_map: the strings formatted
	// (nil: not known).
	Formats []struct {
		Line int      `json:"line"`
		Strs []string `json:"strs"`
	} `json:"formats"`
	// Rebound are the names bound other than by an import.
	Rebound []string `json:"rebound"`
	// Subs are loads of a literal key of a dotted name (os.environ["X"]).
	Subs []struct {
		Chain []string `json:"chain"`
		Key   string   `json:"key"`
		Line  int      `json:"line"`
	} `json:"subs"`
}

// call is one call: Chain is the dotted name called (after the receiver
// On, when that is not a name; Recv describes a receiver that is a call).
type call struct {
	Chain []string       `json:"chain"`
	Line  int            `json:"line"`
	Args  []lit          `json:"args"`
	Kw    map[string]lit `json:"kw"`
	Star  bool           `json:"star"`
	On    string         `json:"on"`
	Recv  *call          `json:"recv"`
}

// lit is an argument: its literal value, or Dyn when it is known only at
// run time.
type lit struct {
	V     any    `json:"v"`
	Dyn   bool   `json:"dyn"`
	Name  string `json:"name"` // a plain name, when the argument is one
	Bytes bool   `json:"bytes"`
	Argv  *int   `json:"argv"` // sys.argv[N], when the argument is that
	// Res: the value is what the analysis found a name (or an f-string of
	// names) to hold, one of the values it may have (see analyse.py).
	Res bool `json:"res"`
}

func (l lit) unresolved() lit {
	if !l.Res {
		return l
	}
	return lit{Dyn: true, Name: l.Name}
}

func (l lit) str() (string, bool) {
	s, ok := l.V.(string)
	return s, ok && !l.Dyn
}

func (l lit) strs() ([]string, bool) {
	xs, ok := l.V.([]any)
	if !ok || l.Dyn {
		return nil, false
	}
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// Limits of one run of the analysis program.
const (
	maxSource = 1 << 20 // bytes of code read
	maxOutput = 8 << 20 // bytes of facts accepted
)

// errUnread says why code could not be read; its text is shown.
type errUnread struct{ why string }

func (e *errUnread) Error() string { return e.why }

// parse runs the interpreter's ast module on src and returns its facts.
func (a *Analyser) parse(interp, src string, inline bool) (*facts, error) {
	if len(src) > maxSource {
		return nil, &errUnread{fmt.Sprintf("the code is larger than %d bytes, the most the guard reads", maxSource)}
	}
	mode := "bytes"
	if inline {
		mode = "str"
	}
	return a.run(interp, mode, src)
}

// sameCode reports whether the interpreter would run a module's compiled
// cache pyc (its magic number and header match the source src, whose
// time is mtime and size size; a hash-based cache always counts) and
// whether the code it holds is what src compiles to at optimisation level
// opt. A cache it would not run is the same as none: true.
func (a *Analyser) sameCode(interp string, mtime, size int64, src, pyc string, opt int) (bool, error) {
	var b []byte
	b = binary.LittleEndian.AppendUint64(b, uint64(mtime))
	b = binary.LittleEndian.AppendUint64(b, uint64(size))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(src)))
	f, err := a.run(interp, fmt.Sprintf("cache%d", opt), string(b)+src+pyc)
	if err != nil {
		return false, err
	}
	return f.Cache == "same" || f.Cache == "unused", nil
}

// run runs the analysis program in mode on input and returns its facts.
func (a *Analyser) run(interp, mode, src string) (*facts, error) {
	key := interp + "\x00" + mode + "\x00" + src
	a.mu.Lock()
	if f, ok := a.cache[key]; ok {
		a.mu.Unlock()
		return f, nil
	}
	a.mu.Unlock()
	disk := a.diskKey(interp, mode+"\x00"+src)
	if b, ok := a.diskGet(disk); ok {
		f := &facts{}
		if json.Unmarshal(b, f) == nil && f.OK && !f.Trunc {
			a.remember(key, f)
			return f, nil
		}
	}
	timeout := a.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	// -I: no PYTHON* variables, no user site, no script directory on
	// sys.path; -S: no site module (no .pth files). Nothing of the code
	// is imported or run: the program only parses it.
	cmd := exec.CommandContext(ctx, interp, "-I", "-S", "-c", analyseProgram, mode)
	cmd.Stdin = strings.NewReader(src)
	var out limitedBuffer
	out.max = maxOutput
	cmd.Stdout = &out
	cmd.Stderr = nil
	cmd.Dir = "/"
	cmd.Env = a.environ()
	// Its own session: no terminal to prompt on, and the whole group is
	// killed on timeout.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 200 * time.Millisecond
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, &errUnread{fmt.Sprintf("%s took longer than %s to read it", interp, timeout)}
	}
	if out.over {
		return nil, &errUnread{"the analysis of the code is too large"}
	}
	if err != nil {
		return nil, &errUnread{fmt.Sprintf("%s could not read it (%v)", interp, err)}
	}
	f := &facts{}
	if err := json.Unmarshal(out.Bytes(), f); err != nil {
		return nil, &errUnread{fmt.Sprintf("%s gave no analysis (%v)", interp, err)}
	}
	if !f.OK {
		return nil, &errUnread{"python cannot read it: " + f.Error}
	}
	if f.Trunc {
		return nil, &errUnread{"the code has more names than the guard follows"}
	}
	a.remember(key, f)
	a.diskPut(disk, out.Bytes())
	return f, nil
}

func (a *Analyser) remember(key string, f *facts) {
	a.mu.Lock()
	if a.cache == nil {
		a.cache = map[string]*facts{}
	}
	a.cache[key] = f
	a.mu.Unlock()
}

// The facts of a text are a function of the interpreter and the text
// alone: kept in CacheDir under a hash of the analysis program, the
// interpreter (its path, the file it resolves to, that file's time and
// size) and the text, they can be reused by later guards. A changed
// interpreter or text is a new key.
const maxCached = 2000 // files; past it the cache starts over

func (a *Analyser) diskKey(interp, src string) string {
	if a.CacheDir == "" {
		return ""
	}
	real, err := filepath.EvalSymlinks(interp)
	if err != nil {
		return ""
	}
	fi, err := os.Stat(real)
	if err != nil {
		return ""
	}
	// The guard's own SHA-256: crypto/sha256 brings in the FIPS 140
	// module, a dozen package initialisations on every start.
	b := fmt.Appendf(nil, "%s\x00%s\x00%s\x00%d\x00%d\x00", analyseProgram, interp, real, fi.ModTime().UnixNano(), fi.Size())
	sum := sha256.Sum256(append(b, src...))
	return hex.EncodeToString(sum[:])
}

func (a *Analyser) diskGet(key string) ([]byte, bool) {
	if key == "" {
		return nil, false
	}
	b, err := os.ReadFile(filepath.Join(a.CacheDir, key+".json"))
	return b, err == nil
}

// diskPut keeps facts; failing to is no error (the next guard parses).
func (a *Analyser) diskPut(key string, b []byte) {
	if key == "" {
		return
	}
	if err := os.MkdirAll(a.CacheDir, 0o700); err != nil {
		return
	}
	if ents, err := os.ReadDir(a.CacheDir); err == nil && len(ents) >= maxCached {
		for _, e := range ents {
			os.Remove(filepath.Join(a.CacheDir, e.Name()))
		}
	}
	tmp, err := os.CreateTemp(a.CacheDir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(a.CacheDir, key+".json")) != nil {
		os.Remove(tmp.Name())
	}
}

// environ is the interpreter's environment: the guard's own, which picks
// the same interpreter a version manager (pyenv, asdf) would; the
// analysis runs with -I, so PYTHON* variables do not matter to it.
func (a *Analyser) environ() []string {
	if a.Environ != nil {
		return a.Environ()
	}
	return os.Environ()
}

type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		b.over = true
		return 0, errors.New("output too large")
	}
	return b.Buffer.Write(p)
}

// Interpreter finds the interpreter a command names: a bare name on PATH
// (as execvp would), a path against dir. It refuses one that lives where
// the code being judged could have put it (the working directory, the
// project, temporary directories): running that to parse would run
// unjudged code.
func (a *Analyser) Interpreter(name, dir string) (string, error) {
	var p string
	if strings.Contains(name, "/") {
		p = name
		if !filepath.IsAbs(p) {
			if dir == "" {
				return "", &errUnread{"the directory " + name + " is relative to is not known here"}
			}
			p = filepath.Join(dir, p)
		}
	} else {
		path := ""
		if a.Getenv != nil {
			path = a.Getenv("PATH")
		}
		for _, d := range filepath.SplitList(path) {
			if d == "" || !filepath.IsAbs(d) {
				continue // a relative PATH entry depends on the directory
			}
			c := filepath.Join(d, name)
			if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
				p = c
				break
			}
		}
		if p == "" {
			return "", &errUnread{name + " is not on PATH"}
		}
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", &errUnread{"no interpreter " + name + " here"}
	}
	for _, u := range append([]string{dir}, a.Untrusted...) {
		if u != "" && within(real, u) {
			return "", &errUnread{"the interpreter " + real + " is in " + u + ", where the code judged could have put it"}
		}
	}
	return p, nil
}

func within(p, dir string) bool {
	dir = filepath.Clean(dir)
	if dir == "/" {
		return false // the whole system is not a place the code wrote to
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}
