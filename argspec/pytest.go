package argspec

import (
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// pytestEffects are the files pytest's options make it write or delete
// (pytest 7–8, with the plugins whose report options are common:
// pytest-cov, pytest-html, pytest-reportlog). pytest's argparse takes no
// abbreviations, and an option's value never starts with '-', so the
// words are read as they stand.
//
// --basetemp DIR: pytest removes DIR, whole, before the run when it
// exists ("Warning: this directory will be removed if it exists"; checked
// with pytest 7.2: a file in DIR is gone after a run with tmp_path).
// -o cache_dir=DIR: the cache is written there, and --cache-clear first
// removes its d and v directories (Cache.clear_cache; checked with pytest
// 7.2: other files in DIR stay).
//
// A word known only at run time where an option may stand could be any
// of these, with any directory: it is reported as a recursive delete of a
// path not known here.
func pytestEffects(args []word.Word) []Effect {
	var effs []Effect
	cacheClear := false
	var cacheDirs []word.Word
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') {
				effs = append(effs, Effect{Path: word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: args[i].String()}}}, Access: Write, Op: "delete", Recursive: true})
			}
			continue
		}
		if t == "--" {
			break
		}
		name, val, attached := strings.Cut(t, "=")
		value := func() (word.Word, bool) {
			if attached {
				return word.FromLit(val), true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return word.Word{}, false
		}
		if strings.HasPrefix(t, "-o") && !strings.HasPrefix(t, "--") {
			// -o k=v, -ok=v: an ini option for this run.
			var v word.Word
			if t == "-o" {
				if i+1 >= len(args) {
					continue
				}
				i++
				v = args[i]
			} else {
				v = word.FromLit(t[2:])
			}
			if dir, ok := iniCacheDir(v); ok {
				cacheDirs = append(cacheDirs, dir)
			}
			effs = append(effs, iniAddopts(v)...)
			effs = append(effs, iniLogFile(v)...)
			continue
		}
		switch name {
		case "--basetemp":
			if v, ok := value(); ok {
				effs = append(effs, Effect{Path: v, Access: Write, Op: "delete", Recursive: true})
			}
		case "--junit-xml", "--junitxml", "--log-file", "--report-log", "--html", "--resultlog", "--result-log":
			if v, ok := value(); ok {
				effs = append(effs, Effect{Path: v, Access: Write})
			}
		case "--cov-report":
			// TYPE:DEST writes DEST (html: a directory of files).
			if v, ok := value(); ok {
				s := v.Prefix()
				if typ, _, ok := strings.Cut(s, ":"); ok {
					dest := word.Word{Segs: append([]word.Seg(nil), v.Segs...)}
					dest.Segs[0].Text = dest.Segs[0].Text[len(typ)+1:]
					effs = append(effs, Effect{Path: dest, Access: Write, Recursive: typ == "html"})
				} else if _, static := v.Static(); !static {
					effs = append(effs, Effect{Path: word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: v.String()}}}, Access: Write, Recursive: true})
				}
			}
		case "--override-ini":
			if v, ok := value(); ok {
				if dir, ok := iniCacheDir(v); ok {
					cacheDirs = append(cacheDirs, dir)
				}
				effs = append(effs, iniAddopts(v)...)
				effs = append(effs, iniLogFile(v)...)
			}
		case "--debug":
			// Only attached: --debug alone writes pytestdebug.log here.
			if attached {
				effs = append(effs, Effect{Path: word.FromLit(val), Access: Write})
			}
		case "--cache-clear":
			cacheClear = true
		}
	}
	for _, d := range cacheDirs {
		effs = append(effs, Effect{Path: d, Access: Write, Recursive: true})
		if cacheClear {
			for _, sub := range []string{"d", "v"} {
				effs = append(effs, Effect{Path: join(d, word.FromLit(sub)), Access: Write, Op: "delete", Recursive: true})
			}
		}
	}
	return effs
}

// iniCacheDir reads cache_dir=DIR from an -o value. A value whose key is
// not known here may be cache_dir: its directory is not known.
func iniCacheDir(v word.Word) (word.Word, bool) {
	p := v.Prefix()
	key, _, ok := strings.Cut(p, "=")
	if !ok {
		if _, static := v.Static(); static {
			return word.Word{}, false // no '=': pytest refuses it
		}
		if strings.HasPrefix("cache_dir", strings.TrimSpace(p)) {
			return word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: v.String()}}}, true
		}
		return word.Word{}, false
	}
	if strings.TrimSpace(key) != "cache_dir" {
		return word.Word{}, false
	}
	dir := word.Word{Segs: append([]word.Seg(nil), v.Segs...)}
	dir.Segs[0].Text = dir.Segs[0].Text[len(key)+1:]
	return dir, true
}

// iniLogFile reads -o log_file=FILE: pytest truncates and writes FILE
// (checked with pytest 7.2).
func iniLogFile(v word.Word) []Effect {
	key, _, ok := strings.Cut(v.Prefix(), "=")
	if !ok || strings.TrimSpace(key) != "log_file" {
		return nil
	}
	f := word.Word{Segs: append([]word.Seg(nil), v.Segs...)}
	f.Segs[0].Text = f.Segs[0].Text[len(key)+1:]
	return []Effect{{Path: f, Access: Write}}
}

// iniAddopts reads -o addopts=OPTIONS as more of pytest's options (checked
// with pytest 7.2: -o addopts=--basetemp=DIR removes DIR). A value whose
// key is not known here may be addopts: any option.
func iniAddopts(v word.Word) []Effect {
	p := v.Prefix()
	key, _, ok := strings.Cut(p, "=")
	if !ok {
		if _, static := v.Static(); !static && strings.HasPrefix("addopts", strings.TrimSpace(p)) {
			return []Effect{{Path: word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: v.String()}}}, Access: Write, Op: "delete", Recursive: true}}
		}
		return nil
	}
	if strings.TrimSpace(key) != "addopts" {
		return nil
	}
	if t, static := v.Static(); static {
		var args []word.Word
		for _, f := range strings.Fields(t[len(key)+1:]) {
			args = append(args, word.FromLit(f))
		}
		return pytestEffects(args)
	}
	return []Effect{{Path: word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: v.String()}}}, Access: Write, Op: "delete", Recursive: true}}
}
