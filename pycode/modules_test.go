package pycode

import (
	"encoding/json"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// namespaceProbe imports each reviewed module and reports what its
// attributes are: modules (by their real name) and functions or classes
// defined in another module (by that module and name), with a package's
// submodules. It runs in the test only, never in the guard.
const namespaceProbe = `
import importlib, inspect, json, pkgutil, sys
out = {}
for m, names in json.loads(sys.stdin.read()):
    try:
        mod = importlib.import_module(m)
    except Exception:
        out[m] = None
        continue
    attrs = {}
    for n in (names if names is not None else dir(mod)):
        if n.startswith("_") or not hasattr(mod, n):
            continue
        v = getattr(mod, n)
        if inspect.ismodule(v):
            attrs[n] = {"module": v.__name__}
            continue
        vm = getattr(v, "__module__", None)
        if (inspect.isroutine(v) or inspect.isclass(v)) and isinstance(vm, str) and vm != m and not vm.startswith(m + "._") and vm != "builtins":
            attrs[n] = {"origin": vm, "name": getattr(v, "__name__", n)}
    subs = []
    if hasattr(mod, "__path__"):
        subs = [s.name for s in pkgutil.iter_modules(mod.__path__) if not s.name.startswith("_")]
    out[m] = {"attrs": attrs, "subs": subs}
print(json.dumps(out))
`

// acceptedForeign are functions and classes that reviewed modules take
// from modules the table does not review, and why each is harmless.
var acceptedForeign = map[string]string{
	"types.GenericAlias":          "the class of list[int]: typing only",
	"types.DynamicClassAttribute": "a descriptor for enum members",
	"gettext.ngettext":            "translates a message (reads the locale's catalogue)",
	"token.ISEOF":                 "token-number predicates",
	"token.ISNONTERMINAL":         "token-number predicates",
	"token.ISTERMINAL":            "token-number predicates",
	"_weakrefset.WeakSet":         "a set of weak references",
	"_thread.allocate_lock":       "threading.Lock",
	"_thread.get_ident":           "the current thread's id",
	"_thread.get_native_id":       "the current thread's id",
	"_thread.stack_size":          "the stack size of new threads",
	"_thread._excepthook":         "prints an uncaught exception of a thread",
	"_thread._ExceptHookArgs":     "the arguments of threading.excepthook",
	"_thread._local":              "threading.local",
	"_thread.RLock":               "a reentrant lock",
	"_codecs.lookup":              "finds a codec by name (codecs wrap streams the code has)",
	"_abc.get_cache_token":        "abc's cache token",
	"_blake2.blake2b":             "hashlib's hashes",
	"_blake2.blake2s":             "hashlib's hashes",
	"abc.ABCMeta":                 "abstract classes",
	"abc.abstractmethod":          "abstract classes",
}

// TestReviewedModulesReachOnlyReviewed holds the table to the modules as
// this machine's python3 has them: what a reviewed module holds that is
// itself a module, a submodule, or a function of another module is
// reached by the analysis through that name (pathlib.attrgetter is
// operator.attrgetter, enum.bltns is builtins, concurrent.futures.thread
// holds os), so each must be judged as what it is: reviewed, a module
// the walk follows by its own name, or denied where it is reached.
func TestReviewedModulesReachOnlyReviewed(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	var in [][2]any
	names := make([]string, 0, len(modules()))
	for n := range modules() {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		m := modules()[n]
		if m.all {
			in = append(in, [2]any{n, nil})
		} else {
			in = append(in, [2]any{n, m.allow})
		}
	}
	b, _ := json.Marshal(in)
	cmd := exec.Command(py, "-I", "-S", "-c", namespaceProbe)
	cmd.Stdin = strings.NewReader(string(b))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	var res map[string]*struct {
		Attrs map[string]struct{ Module, Origin, Name string }
		Subs  []string
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	allows := func(mod, attr string) bool {
		m, ok := modules()[mod]
		if !ok {
			return false
		}
		if m.all {
			_, denied := m.deny[attr]
			return !denied
		}
		for _, a := range m.allow {
			if a == attr {
				return true
			}
		}
		return false
	}
	for _, n := range names {
		r := res[n]
		if r == nil {
			continue // not in this python
		}
		m := modules()[n]
		denied := func(a string) bool { _, ok := m.deny[a]; return ok }
		for a, v := range r.Attrs {
			if denied(a) {
				continue
			}
			switch {
			case v.Module != "":
				// The walk takes n.a for the module named a (pathlib.os),
				// or looks n.a up in the table (collections.abc).
				sub := n + "." + a
				if v.Module == a && !strings.Contains(a, ".") {
					continue
				}
				if _, ok := modules()[sub]; ok && v.Module == sub {
					continue
				}
				if n == "os" && a == "path" {
					continue // os.path is the table's own entry
				}
				t.Errorf("%s.%s is the module %s: review it as %s, or deny it in %s", n, a, v.Module, sub, n)
			case v.Origin != "" && !m.all:
				// Listed one by one: each was reviewed by its name
				// (os.stat is posix.stat).
			case v.Origin != "":
				origin := v.Origin
				if strings.HasPrefix(origin, n+".") {
					continue // a package's own API, from its submodule (json.JSONDecoder)
				}
				if acceptedForeign[origin+"."+v.Name] != "" {
					continue
				}
				pub := strings.TrimPrefix(origin, "_") // _json is json's, _operator operator's
				if allows(origin, v.Name) || allows(pub, v.Name) || pub == "heapq" || pub == "bisect" {
					if pub == "heapq" || pub == "bisect" {
						if _, ok := modules()[pub]; !ok {
							t.Errorf("%s.%s is %s.%s, which the table does not review", n, a, origin, v.Name)
						}
					}
					continue
				}
				t.Errorf("%s.%s is %s.%s, which the table does not allow: deny it in %s, or review it", n, a, origin, v.Name, n)
			}
		}
		for _, s := range r.Subs {
			if _, ok := modules()[n+"."+s]; ok || denied(s) {
				continue
			}
			t.Errorf("%s has the submodule %s.%s: review it, or deny it in %s", n, n, s, n)
		}
	}
}

// entryProbe lists, for each module given, its top-level functions and
// classes that read sys.argv, call open(), or are named as a command
// line is (main, test …). It reads the modules' source with ast; it runs
// in the test only.
const entryProbe = `
import ast, importlib, inspect, json, sys
out = {}
for m in json.loads(sys.stdin.read()):
    try:
        src = inspect.getsource(importlib.import_module(m))
    except Exception:
        continue  # a built-in module: no source, no command line
    hits = {}
    for n in ast.parse(src).body:
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        why = set()
        if n.name in ("main", "_main", "test", "_test", "_script"):
            why.add("name")
        for x in ast.walk(n):
            if isinstance(x, ast.Attribute) and x.attr == "argv":
                why.add("argv")
            if isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and x.func.id == "open":
                why.add("open")
        if why:
            hits[n.name] = sorted(why)
    out[m] = hits
print(json.dumps(out))
`

// acceptedReaders are top-level names of modules approved whole that
// read sys.argv or open files, and why each is judged all the same.
var acceptedReaders = map[string]string{
	"argparse.ArgumentParser": "parses sys.argv; reads files only with fromfile_prefix_chars, judged (optionAttrs)",
	"shlex.shlex":             "opens files only through sourcehook (fileMethods) or source (optionAttrs)",
	"getpass.unix_getpass":    "opens the terminal, /dev/tty",
	"pathlib.Path":            "its methods are judged as reads and writes (pathReads, pathWrites)",
}

// TestEntryPointsDenied holds the table to the modules' source: a
// function of a module approved whole that reads sys.argv or opens files
// (base64.main reads the files sys.argv names) is asked about, by its
// name (cliEntryPoints, private), the table's deny, or is accepted above.
func TestEntryPointsDenied(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	var names []string
	for n, m := range modules() {
		if m.all {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	b, _ := json.Marshal(names)
	cmd := exec.Command(py, "-I", "-S", "-c", entryProbe)
	cmd.Stdin = strings.NewReader(string(b))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	var res map[string]map[string][]string
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if len(res["base64"]) == 0 {
		t.Fatalf("the probe found nothing in base64: %s", out)
	}
	for _, n := range names {
		for fn, why := range res[n] {
			_, denied := modules()[n].deny[fn]
			if cliEntryPoints[fn] || strings.HasPrefix(fn, "_") || denied || acceptedReaders[n+"."+fn] != "" {
				continue
			}
			t.Errorf("%s.%s (%v) reads the command line or files: deny it in %s, or accept it", n, fn, why, n)
		}
	}
}
