package argspec

import (
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/word"
)

// Access is what a command does to a path.
type Access uint8

const (
	Read    Access = 1
	Write   Access = 2
	Unknown        = Read | Write // a program the catalogue does not know
)

func (a Access) String() string {
	switch a {
	case Read:
		return "read"
	case Write:
		return "write"
	}
	return "read/write"
}

// Effect is one path a command touches.
type Effect struct {
	Path   word.Word // as written: relative paths are relative to the command's working directory
	Access Access
	// Op refines Write: "delete", "chmod", "chown", "create", "extract",
	// "truncate", "move", "format" (rewritten in place, meaning kept: gofmt
	// -w), "discard" (uncommitted changes lost: git checkout -- F),
	// "discard?" (that, when Path names a file: git checkout NAME), or ""
	// for a plain write.
	Op        string
	Recursive bool // the whole tree under Path
	// Names is set when only names and metadata are read, not contents:
	// ls, stat, du, tree, find. A listing of ~/.ssh shows which keys there
	// are, not what they say.
	Names bool
	// SkipHidden is set on a recursive read that passes over every entry
	// named .* below Path (rg and ag without --hidden, tree and ls -R
	// without -a): ~/.ssh is not read by rg pattern ~.
	SkipHidden bool
	// Whole is set on a recursive read that gives on the whole content of
	// every file below Path (see whole.go): tar c, zip -r, grep -r ''.
	Whole *WholeRead
}

// ReadsStdin reports whether a command may read its standard input: it
// is not one that never does (ls, mkdir, …), nor a reader given files to
// read instead (cat FILE, wc -l FILE, grep PATTERN FILE).
func ReadsStdin(argv []word.Word) bool {
	c := Normalize(argv, false)
	switch c.Prog {
	case "echo", "printf", "cd", "pwd", "export", "unset", "set", "shift", "true", "false", ":", "test", "[",
		"local", "declare", "typeset", "readonly", "return", "exit", "type", "alias", "unalias", "shopt",
		"umask", "let", "wait", "trap", "hash", "ls", "mkdir", "touch", "rmdir",
		"chmod", "chown", "sleep", "uname", "whoami", "id", "basename", "dirname", "realpath",
		"readlink", "printenv", "hostname", "nproc", "stat", "df", "which":
		return false
	case "rm", "cp", "mv", "ln":
		// They ask a question, and read the answer (a buffer's worth),
		// with -i (rm: -I) or --interactive; otherwise only when their
		// input is a terminal, which a shell's script input is not.
		for _, a := range argv[1:] {
			s, ok := a.Static()
			switch {
			case !ok, strings.HasPrefix(s, "--inter"):
				return true
			case strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.ContainsAny(s, "iI"):
				return true
			}
		}
		return false
	}
	if c.Open {
		return true
	}
	// A file named "-" or one of the process's own (/dev/stdin,
	// /dev/fd/0, /proc/self/fd/0), as an operand or an option's value
	// (grep -f -, file -P bytes=5 -, date -f -): its input.
	for _, a := range c.Args {
		if s, ok := a.Static(); !ok || namesInput(s) {
			return true
		}
	}
	for _, o := range c.Opts {
		if o.Value != nil {
			if s, ok := o.Value.Static(); !ok || namesInput(s) || strings.Contains(s, "=-") {
				return true
			}
		}
	}
	files := c.Args
	if c.Raw {
		// No spec: an option may take the word after it as its value
		// (head -n 5 reads its input), so only a command without options
		// names files for sure.
		flagsOnly := c.Prog == "cat" || c.Prog == "tac" || c.Prog == "wc" || c.Prog == "rev" // no option takes a value
		files = nil
		for _, a := range c.Args {
			s, ok := a.Static()
			switch {
			case !ok || s == "-" || strings.HasPrefix(s, "--files0-from"):
				return true
			case strings.HasPrefix(s, "-") && !flagsOnly:
				return true
			case !strings.HasPrefix(s, "-"):
				files = append(files, a)
			}
		}
	}
	switch {
	case readers(c.Prog):
	case c.Prog == "grep" || c.Prog == "egrep" || c.Prog == "fgrep" || c.Prog == "rg":
		if !c.HasAny("--regexp", "--file") && len(files) > 0 {
			files = files[1:] // the pattern
		}

	default:
		return true
	}
	if len(files) == 0 {
		return true
	}
	for _, f := range files {
		if s, ok := f.Static(); !ok || s == "-" || s == "/dev/stdin" {
			return true
		}
	}
	return false
}

// namesInput reports whether a file name may be a process's standard
// input: "-", or a name under /dev or /proc.
func namesInput(s string) bool { return s == "-" || ProcessFile(s) }

// ProcessFile reports whether path is under /dev or /proc, where what a
// name opens depends on the process that opens it (/dev/stdin,
// /dev/fd/N, /proc/self/…): the guard opening it sees its own.
func ProcessFile(path string) bool {
	p := filepath.Clean(path)
	return p == "/dev" || p == "/proc" || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/proc/")
}

// readers read every operand.
func readers(name string) bool {
	switch name {
	case "cat", "tac", "head", "tail", "less", "more", "wc", "nl", "od", "xxd", "hexdump", "strings",
		"file", "stat", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum",
		"cksum", "sum", "base64", "base32", "cut", "paste", "diff", "cmp", "comm", "rev", "fold", "fmt",
		"column", "ls", "du", "bat", "batcat", "readlink", "realpath", "tree", "shasum", "zcat", "bzcat",
		"xzcat", "zless", "expand", "unexpand", "join", "pr", "split", "csplit", "tsort", "look",
		"numfmt", "iconv", "yq", "source", ".", "lsattr", "getfacl", "sqlite3", "cloc":
		return true
	}
	return false
}

// patternFirst read operands after a leading pattern or program, unless
// the pattern came by option.
func patternFirst(name string) ([]string, bool) {
	switch name {
	case "grep":
		return []string{"--regexp", "--file"}, true
	case "egrep":
		return []string{"-e", "-f"}, true
	case "fgrep":
		return []string{"-e", "-f"}, true
	case "rg":
		return []string{"--regexp", "--file"}, true
	case "ag":
		return []string{}, true
	case "ack":
		return []string{}, true
	case "sed":
		return []string{"--expression", "--file"}, true
	}
	return nil, false
}

// noPaths are programs whose operands are not paths.
func noPaths(name string) bool {
	switch name {
	case "echo", "printf", "true", "false", ":", "test", "[", "[[", "sleep", "date", "whoami", "id",
		"uname", "hostname", "pwd", "env", "printenv", "which", "type", "command", "seq", "yes", "expr",
		"basename", "dirname", "kill", "pkill", "ps", "pgrep", "uptime", "nproc", "tty", "locale",
		"exit", "return", "shift", "set", "shopt", "export", "unset", "declare", "local", "readonly",
		"typeset", "alias", "unalias", "hash", "wait", "jobs", "fg", "bg", "disown", "umask", "ulimit",
		"times", "trap", "getopts", "read", "let", "break", "continue", "history", "help", "caller",
		"compgen", "complete", "dirs", "popd", "pushd", "cd", "logout", "suspend", "enable", "mapfile",
		"readarray", "eval", "builtin", "exec", "bind", "fc", "tput", "stty", "clear", "reset", "cal",
		"groups", "users", "who", "w", "last", "free", "df", "lsblk", "lscpu", "lsof", "netstat", "ss",
		"ip", "ifconfig", "ping", "dig", "nslookup", "host", "curl", "wget", "git", "docker", "kubectl",
		"helm", "terraform":
		return true
	}
	return false
}

// linkTargets returns what relative symbolic link targets name: they are
// relative to the link's directory, not to the working directory (ln -s
// ../test z/l points at test). The link's directory is the destination
// or the directory holding it (which, is not known here), so both.
func linkTargets(c *Cmd, args []word.Word) []Effect {
	dirs := c.Values("--target-directory")
	sources := args
	if len(dirs) == 0 {
		if len(args) < 2 {
			return nil // ln -s TARGET: the link is in the working directory
		}
		dest := args[len(args)-1]
		sources = args[:len(args)-1]
		d, ok := dest.Static()
		if !ok {
			dirs = []word.Word{dest}
		} else {
			dirs = []word.Word{word.FromLit(d), word.FromLit(path.Dir(d))}
		}
	}
	var effs []Effect
	for _, s := range sources {
		t, ok := s.Static()
		if ok && path.IsAbs(t) {
			continue // already judged as it stands
		}
		for _, d := range dirs {
			ds, dok := d.Static()
			if !ok || !dok {
				effs = append(effs, Effect{Path: word.Unknown("a symbolic link's target, relative to a directory not known here"), Access: Write, Op: "link", Recursive: true})
				continue
			}
			if j := path.Join(ds, t); j != path.Clean(t) { // that one is judged already
				effs = append(effs, Effect{Path: word.FromLit(j), Access: Write, Op: "link", Recursive: true})
			}
		}
	}
	return effs
}

// Effects returns the paths a command touches. known is false when the
// catalogue has no entry for the program, or when the program's entry
// lists every option it has (Spec.Complete) and the command has another
// one (an option of a newer release, a misspelling the program may read
// another way): its operands and option values are then returned with
// Unknown access as well.
func Effects(c *Cmd) (effs []Effect, known bool) {
	effs, known = effects(c)
	if !known || c.Spec == nil || !c.Spec.Complete {
		return effs, known
	}
	for _, o := range c.Opts {
		if o.Known {
			continue
		}
		// What it reads or writes may not be any word of the command at
		// all (curl --expand-output '{{v}}' writes where a variable says).
		effs = append(effs, Effect{Path: word.Unknown("a file " + o.Name + " may name (" + c.Prog + "'s catalogue does not know the option)"), Access: Write})
		for _, a := range c.Args {
			effs = append(effs, Effect{Path: a, Access: Unknown})
		}
		for _, o := range c.Opts {
			if o.Value != nil {
				effs = append(effs, Effect{Path: *o.Value, Access: Unknown})
			}
		}
		return effs, false
	}
	return effs, true
}

func effects(c *Cmd) (effs []Effect, known bool) {
	add := func(w word.Word, a Access, op string, rec bool) {
		effs = append(effs, Effect{Path: w, Access: a, Op: op, Recursive: rec})
	}
	addAll := func(ws []word.Word, a Access, op string, rec bool) {
		for _, w := range ws {
			add(w, a, op, rec)
		}
	}
	args := c.Args
	// sed compiles its -e scripts as it reads its options: the w files of
	// those before --version are opened (ReadSed).
	if c.HasAny("--help", "--version") && c.Spec != nil && c.Prog != "sed" {
		return nil, true
	}
	switch c.Prog {
	case "pytest", "py.test":
		// What its options write, and its operands as any program's.
		effs = append(effs, pytestEffects(args)...)
		addAll(nonOptions(args), Unknown, "", false)
		return effs, false
	case "rm":
		addAll(args, Write, "delete", c.Has("--recursive"))
	case "rmdir":
		addAll(args, Write, "delete", false)
	case "shred":
		op := ""
		if c.HasAny("-u", "--remove") {
			op = "delete"
		}
		addAll(args, Write, op, false)
	case "touch", "mkdir", "truncate":
		addAll(args, Write, "create", false)
		addAll(c.Values("--reference"), Read, "", false)
	case "tee":
		addAll(args, Write, "", false)
	case "cp", "install", "mv", "ln":
		if slices.ContainsFunc(c.Args, MayBeOption) {
			// cp * out/: a file named --target-directory=.. (or -t DIR,
			// -S SUFFIX) that the command makes first is an option when
			// the glob expands (a red team's): the files may go anywhere.
			add(word.UnknownData("(where "+c.Prog+" writes when a word that may expand to an option such as --target-directory=DIR does)"), Write, "", true)
		}
		srcAccess, srcOp := Read, ""
		if c.Prog == "mv" {
			srcAccess, srcOp = Write, "move"
		}
		// cp -d and -P copy a link as a link: like a tree copied, what
		// lands there may lead anywhere (a red team's copy of a link to
		// .., written through).
		rec := c.HasAny("--recursive", "--archive") || c.Prog == "mv" || c.Prog == "cp" && c.HasAny("--no-dereference", "-d")
		// A link is a second name for its target: what is written through
		// it is written to the target (ln -s test x; echo > x/f writes
		// test/f), so linking is judged as writing the target, and a
		// symbolic link (to a directory, perhaps) as writing all under it.
		symbolic := c.Prog == "ln" && c.Has("--symbolic") || c.Prog == "cp" && c.Has("--symbolic-link")
		srcRec := rec
		if c.Prog == "ln" || symbolic || c.Prog == "cp" && c.Has("--link") {
			srcAccess, srcOp, srcRec = Write, "link", rec || symbolic
			if symbolic {
				effs = append(effs, linkTargets(c, args)...)
			}
		}
		if c.Prog == "install" && c.Has("--directory") {
			addAll(args, Write, "create", false)
			break
		}
		// Into a directory DIR, each SOURCE is written as DIR/basename:
		// a rule about a file there (.claude/settings.json) must see
		// that name, and a source whose name is not known here may be
		// any name in DIR (a tree written into it).
		into := func(dir word.Word, srcs []word.Word) {
			d, dok := dir.Static()
			for _, src := range srcs {
				s, sok := src.Static()
				switch {
				case !dok:
					// A directory named by a glob (.cla?de) or at run
					// time: what lands in it is a tree written into it.
					add(dir, Write, "", true)
				case sok && strings.Trim(s, "/") != "" && path.Base(s) != "." && path.Base(s) != "..":
					add(word.FromLit(path.Join(d, path.Base(s))), Write, "", rec)
				default:
					add(dir, Write, "", true)
				}
			}
		}
		if dirs := c.Values("--target-directory"); len(dirs) > 0 {
			addAll(args, srcAccess, srcOp, srcRec)
			addAll(dirs, Write, "", rec)
			for _, d := range dirs {
				into(d, args)
			}
			break
		}
		switch {
		case len(args) == 1 && c.Prog == "ln":
			// ln TARGET makes a link named after it in the working directory.
			add(word.FromLit("."), Write, "", false)
			add(args[0], srcAccess, srcOp, srcRec)
		case len(args) >= 2:
			addAll(args[:len(args)-1], srcAccess, srcOp, srcRec)
			// A symbolic link's name stands for all below it: ln -s ev
			// .claude makes .claude/settings.json ev's.
			add(args[len(args)-1], Write, "", rec || symbolic)
			if !c.Has("--no-target-directory") {
				into(args[len(args)-1], args[:len(args)-1])
			}
		default:
			addAll(args, Unknown, "", rec)
		}
	case "chmod", "chown", "chgrp":
		op := c.Prog
		if op == "chgrp" {
			op = "chown"
		}
		targets := args
		if len(c.Values("--reference")) == 0 && len(targets) > 0 {
			targets = targets[1:] // the mode or owner
		}
		addAll(targets, Write, op, c.Has("--recursive"))
	case "dd":
		addAll(c.Values("of"), Write, "", false)
		addAll(c.Values("if"), Read, "", false)
	case "sed":
		call := ReadSed(c)
		addAll(call.Scripts, Read, "", false)
		for _, f := range call.Write {
			add(word.FromLit(f), Write, "", false)
		}
		for _, f := range call.Read {
			add(word.FromLit(f), Read, "", false)
		}
		// A script not read with certainty (call.Unsure) is a part of its
		// own that the walker reports: its writes are not known here.
		if call.InPlace {
			addAll(call.Inputs, Write, "", false)
		} else {
			addAll(call.Inputs, Read, "", false)
		}
	case "awk", "gawk", "mawk", "nawk":
		// Its argv has no spec (c.Raw): ReadAwk reads the options.
		call := ReadAwk(c.Args)
		addAll(call.Files, Read, "", false)
		for _, f := range call.Write {
			if f == "" {
				add(word.UnknownData("a file the awk program names at run time"), Write, "", false)
				continue
			}
			add(word.FromLit(f), Write, "", false)
		}
		for _, f := range call.Read {
			if f == "" {
				add(word.UnknownData("a file the awk program names at run time"), Read, "", false)
				continue
			}
			add(word.FromLit(f), Read, "", false)
		}
		addAll(call.Inputs, Read, "", false)
	case "gofmt", "goimports", "shfmt", "clang-format", "prettier", "black", "rustfmt":
		var writes bool
		switch c.Prog {
		case "black":
			writes = !c.HasAny("--check", "--diff", "--code")
		case "rustfmt":
			writes = !c.Has("--check")
		default:
			writes = c.HasAny("-w", "--write", "-i")
		}
		if writes {
			addAll(args, Write, "format", true)
		} else {
			addAll(args, Read, "", true)
		}
		// Files the formatter itself writes: prettier's cache, gofmt's
		// and goimports' profiles.
		if c.Raw {
			addAll(OptionValues(c.Args, "-cpuprofile", "-memprofile", "--cache-location"), Write, "", false)
		} else {
			addAll(c.Values("--cache-location"), Write, "", false)
			addAll(c.Values("--cpuprofile"), Write, "", false) // gofmt, goimports (single-dash, named as long)
			addAll(c.Values("--memprofile"), Write, "", false)
		}
	case "sort":
		addAll(c.Values("--output"), Write, "", false)
		addAll(c.Values("--files0-from"), Read, "", false)
		effs = append(effs, listedFiles(c.Values("--files0-from"), false)...)
		addAll(args, Read, "", false)
	case "uniq":
		if len(args) > 0 {
			add(args[0], Read, "", false)
		}
		if len(args) > 1 {
			add(args[1], Write, "", false)
		}
	case "tar":
		files := c.Values("--file")
		dirs := c.Values("--directory")
		switch {
		case c.Has("--extract"):
			if len(dirs) == 0 {
				dirs = []word.Word{word.FromLit(".")}
			}
			addAll(dirs, Write, "extract", true)
			addAll(files, Read, "", false)
			if c.HasAny("--absolute-names", "--keep-directory-symlink", "--dereference") {
				// Members' absolute names and ..s kept (-P), or links
				// already there followed (-h, --keep-directory-symlink):
				// anywhere (a red team's tar xPf wrote out of the tree).
				add(word.UnknownData("(where tar -P, -h or --keep-directory-symlink puts an archive's members: their absolute names and .., or the links already there, followed)"), Write, "extract", true)
			}
		case c.HasAny("--create", "--append", "--update", "--catenate", "--delete"):
			addAll(files, Write, "", false)
			effs = append(effs, listedFiles(c.Values("--files-from"), true)...)
			archives := !c.HasAny("--catenate", "--delete") // their operands are archives, or members
			// -C applies to the operands after it, relative to the one
			// before: with several, an operand is read below any of them.
			var bases [][]word.Word
			switch {
			case len(dirs) == 1:
				bases = [][]word.Word{{dirs[0]}}
			case len(dirs) > 1:
				bases = [][]word.Word{nil}
				for k, d := range dirs {
					if ds, ok := d.Static(); k > 0 && (!ok || !strings.HasPrefix(ds, "/")) {
						d = word.UnknownData("a directory tar -C " + d.String() + " names, after another -C")
					}
					bases = append(bases, []word.Word{d})
				}
			default:
				bases = [][]word.Word{nil}
			}
			members := append(args, c.Values("--add-file")...)
			// --remove-files deletes what it stored, trees and all.
			remove := archives && c.Has("--remove-files")
			if remove {
				for _, l := range listedFiles(c.Values("--files-from"), true) {
					effs = append(effs, Effect{Path: l.Path, Access: Write, Op: "delete", Recursive: true})
				}
			}
			for _, m := range members {
				for _, b := range bases {
					a := m
					if len(b) > 0 {
						a = join(b[0], m)
					}
					if archives {
						effs = append(effs, Effect{Path: a, Access: Read, Recursive: true, Whole: tarWhole(c)})
					} else {
						add(a, Read, "", true)
					}
					if remove {
						effs = append(effs, Effect{Path: a, Access: Write, Op: "delete", Recursive: true})
					}
				}
			}
		default:
			addAll(files, Read, "", false)
		}
		effs = append(effs, tarOptionEffects(c)...)
	case "rsync":
		effs = append(effs, listedFiles(c.Values("--files-from"), true)...)
		if len(args) >= 2 {
			for _, a := range args[:len(args)-1] {
				add(a, Read, "", true)
			}
			op := ""
			if c.HasAny("--delete", "--del", "--delete-before", "--delete-during", "--delete-delay", "--delete-after", "--delete-excluded") {
				op = "delete"
			}
			add(args[len(args)-1], Write, op, true)
		}
		if c.Has("--remove-source-files") {
			addAll(args[:max(len(args)-1, 0)], Write, "delete", true)
		}
	case "find":
		if c.Has("-delete") {
			addAll(findRoots(args), Write, "delete", true)
		} else {
			// find prints names; what -exec runs is judged on its own.
			for _, r := range findRoots(args) {
				effs = append(effs, Effect{Path: r, Access: Read, Recursive: true, Names: true})
			}
		}
		for _, n := range []string{"-fprint", "-fprint0", "-fls", "-fprintf"} {
			for _, o := range c.Opts {
				if o.Name == n && o.Value != nil {
					add(*o.Value, Write, "", false)
				}
			}
		}
		effs = append(effs, findFiles0From(c)...)
	case "curl":
		effs = append(effs, curlEffects(c, args)...)
	case "wget":
		effs = append(effs, wgetEffects(c)...)
	case "unzip":
		dirs := c.Values("-d")
		if len(dirs) == 0 {
			dirs = []word.Word{word.FromLit(".")}
		}
		if len(args) > 0 {
			add(args[0], Read, "", false)
		}
		if !c.HasAny("-l", "-t", "-v", "-z", "-Z", "-p", "-c") {
			addAll(dirs, Write, "extract", true)
			for _, o := range c.Opts {
				if !o.Known {
					// -: keeps members' ../ (a red team's ../../pwned-zip);
					// any option not read here may.
					add(word.UnknownData("(where unzip "+o.Name+" puts an archive's members, which may lead out of -d's directory)"), Write, "extract", true)
					break
				}
			}
		}
	case "zip":
		return zipEffects(c), true
	case "ssh-keygen":
		// -l (fingerprint) and -y (public key) read the key file and
		// print what is not secret (Names: no contents shown, even of a
		// private key); every other mode makes or changes
		// keys, and is left to the unknown-program reading below.
		if c.Raw && rawFlag(c, "", "-l", "-y", "-lf", "-yf") {
			for i, a := range c.Args {
				s, _ := a.Static()
				switch {
				case (s == "-f" || s == "-lf" || s == "-yf") && i+1 < len(c.Args):
					effs = append(effs, Effect{Path: c.Args[i+1], Access: Read, Names: true})
				case strings.HasPrefix(s, "-f") && len(s) > 2:
					effs = append(effs, Effect{Path: word.FromLit(s[2:]), Access: Read, Names: true})
				}
			}
			return effs, true
		}
		addAll(nonOptions(args), Unknown, "", false)
		return effs, false
	case "git":
		return gitEffects(c), true
	case "kubectl":
		return kubectlEffects(c), true
	case "helm":
		return helmEffects(c), true
	case "diff":
		return diffEffects(c), true
	default:
		if c.Raw {
			w, whole := readerWrites(c.Prog, args)
			if whole {
				return w, true
			}
			effs = append(effs, w...)
		}
		if noPaths(c.Prog) {
			return effs, true
		}
		if c.Prog == "jq" || c.Prog == "gojq" {
			return append(effs, jqEffects(args)...), true // after jqModuleEffects (readerWrites)
		}
		if readers(c.Prog) {
			raw := c.Raw
			if raw {
				args = nonOptions(args)
			}
			// ls -R and tree walk the tree, du too (and counts what is
			// hidden); none of them shows contents. ls and tree pass over
			// .* entries unless told to show them (-a, -A).
			rec, hidden := false, false
			switch c.Prog {
			case "du":
				rec, hidden = true, true
			case "tree":
				rec, hidden = true, rawFlag(c, "a", "--all")
			case "ls":
				rec = rawFlag(c, "R", "--recursive")
				hidden = rawFlag(c, "aAf", "--all", "--almost-all")
			}
			for _, a := range args {
				// tree --fromfile F prints F's lines as a tree of names.
				names := namesOnly(c.Prog) && !(c.Prog == "tree" && rawFlag(c, "", "--fromfile"))
				effs = append(effs, Effect{Path: a, Access: Read, Recursive: rec, Names: names, SkipHidden: rec && !hidden})
			}
			return effs, true
		}
		if opts, ok := patternFirst(c.Prog); ok {
			if c.Raw {
				args = nonOptions(args)
			}
			byOpt := c.Prog == "rg" && c.Has("--files") // rg --files DIR: no pattern
			for _, o := range opts {
				byOpt = byOpt || c.Has(o)
			}
			var operand []word.Word
			if !byOpt && len(args) > 0 {
				operand, args = args[:1], args[1:]
			}
			// rg, ag and ack search directories by default. rg and ag pass
			// over hidden files unless told not to, or unless an ignore
			// file takes them back in (!.env in a .gitignore, .ignore,
			// .git/info/exclude, git's global excludes wherever HOME or
			// XDG_CONFIG_HOME say), which the command itself may write
			// first: what they pass over is not known here, so nothing
			// is (skip stays false). grep -r reads everything.
			rec, skip := false, false
			switch c.Prog {
			case "rg", "ag":
				rec = true
			case "ack":
				rec = !rawFlag(c, "", "-n", "--no-recurse")
			default:
				rec = c.HasAny("--recursive", "--dereference-recursive") || directoriesRecurse(c) ||
					c.Raw && rawFlag(c, "rR", "--recursive", "--dereference-recursive") // egrep, fgrep
			}
			// -q, -l, -L, -c show whether, where or how often a pattern
			// matches: no line of the files (grep -q ^KEY= .env).
			names := c.HasAny("--quiet", "--files-with-matches", "--files-without-match", "--count", "--count-matches", "--files") ||
				c.Raw && rawFlag(c, "qlLc", "--quiet", "--silent", "--files-with-matches", "--files-without-matches", "--count")
			names = names && c.Prog != "sed" && !strings.HasSuffix(c.Prog, "awk")
			// Only about names, though, when the pattern reaches no value:
			// grep -q "GITHUB_TOKEN=$p$c" /proc/self/environ in a loop
			// gives a token away a letter at a time (a red team's).
			names = names && namesOnlyPattern(c, operand)
			var whole *WholeRead
			if rec && !names && c.Prog != "sed" && searchPrintsAll(c, operand) {
				whole = grepWhole(c)
			}
			if rec && len(args) == 0 && c.Prog != "sed" && !c.Open {
				// grep -r, rg, ag and ack given no file search the working
				// directory (rg and ag read a piped input instead, which is
				// less than this).
				args = []word.Word{word.FromLit(".")}
			}
			for _, a := range args {
				effs = append(effs, Effect{Path: a, Access: Read, Recursive: rec, SkipHidden: rec && skip, Names: names, Whole: whole})
				if rec && !names && (c.Prog == "grep" || c.Prog == "rg") && includesDotenv(c) {
					// grep -r KEY --include=.env .: a search aimed at the
					// dotenv files below, which it prints lines of.
					effs = append(effs, Effect{Path: word.Word{Segs: []word.Seg{{Kind: word.Lit, Text: strings.TrimSuffix(a.String(), "/") + "/"},
						{Kind: word.Hole, Text: "…"}, {Kind: word.Lit, Text: "/.env"}}}, Access: Read})
				}
			}
			if c.Prog != "sed" && c.Prog != "ack" && c.Prog != "ag" { // ag -f is --follow
				// A pattern file's lines are shown: rg prints a line that is
				// no regular expression in its error (rg -f .env), and any
				// line that matches tells what it holds.
				for _, v := range gitValues(c, "--file", "-f") {
					effs = append(effs, Effect{Path: v, Access: Read})
				}
			}
			return effs, true
		}
		// A program the catalogue does not know may read or write any of
		// its operands, and any option's value (go build -o /usr/bin/x,
		// go test -coverprofile=F, cargo --target-dir D): all of them
		// are possible paths.
		if c.Spec == nil {
			effs = append(effs, toolEffects(c.Prog, args)...)
			addAll(nonOptions(args), Unknown, "", false)
			addAll(attachedValues(args), Unknown, "", false)
			return effs, false
		}
		addAll(args, Unknown, "", false)
		for _, o := range c.Opts {
			if o.Value != nil {
				add(*o.Value, Unknown, "", false)
			}
		}
		return effs, false
	}
	return effs, true
}

// includesDotenv reports a grep --include or rg --glob that picks dotenv
// files out of a tree (.env, '*.env', '.env*'), not one that takes every
// file (*).
func includesDotenv(c *Cmd) bool {
	for _, v := range gitValues(c, "--include", "--glob", "--iglob", "-g") {
		g, ok := v.Static()
		if !ok && !v.HasHole() {
			g, ok = v.String(), true // an unquoted glob bash left as it is: --include=*.go
		}
		if !ok {
			return true
		}
		if strings.HasPrefix(g, "!") || strings.Trim(g, "*") == "" {
			continue // an exclusion, or every file
		}
		for _, name := range []string{".env", ".env.local", ".envrc", ".env.production"} {
			if m, _ := path.Match(strings.TrimPrefix(g, "**/"), name); m {
				return true
			}
		}
	}
	return false
}

// MayBeOption reports whether a word may start with '-' at run time: a
// glob or expansion at its start (*, $x), not a literal prefix like
// src/*.py or ./*.
func MayBeOption(w word.Word) bool {
	if w.IsStatic() {
		return false
	}
	for _, s := range w.Segs {
		if s.Kind != word.Lit {
			return true
		}
		if s.Text != "" {
			return strings.HasPrefix(s.Text, "-")
		}
	}
	return true
}

// namesOnlyPattern reports whether a grep's (or rg's) patterns can only
// match a line's start up to a name and its '=' (^NAME=, ^export NAME),
// so that whether or how often they match tells which variables a file
// sets, not what they hold.
func namesOnlyPattern(c *Cmd, operand []word.Word) bool {
	if c.Prog == "rg" && c.Has("--files") {
		return true // the files it would search, listed
	}
	if c.Raw || c.Open || c.Prog != "grep" && c.Prog != "rg" {
		return false
	}
	if c.HasAny("--invert-match", "--file", "--fixed-strings") {
		return false
	}
	pats := append(append([]word.Word(nil), operand...), c.Values("--regexp")...)
	if len(pats) == 0 {
		return false
	}
	for _, p := range pats {
		s, ok := p.Static()
		if !ok || !nameAnchored(s) {
			return false
		}
	}
	return true
}

// nameAnchored: ^NAME, ^NAME=, ^export NAME=, NAME letters, digits and _;
// or a pattern every line matches ("", ^, $), which counts lines.
func nameAnchored(s string) bool {
	if s == "" || s == "^" || s == "$" {
		return true
	}
	s, ok := strings.CutPrefix(s, "^")
	if !ok {
		return false
	}
	s = strings.TrimPrefix(s, "export ")
	s = strings.TrimSuffix(s, "=")
	return word.IsName(s)
}

// attachedValues are the values of options written with them in one word
// (--out=FILE, -coverprofile=FILE) in an argv read without a spec.
func attachedValues(ws []word.Word) []word.Word {
	var out []word.Word
	for _, w := range ws {
		p := w.Prefix()
		if !strings.HasPrefix(p, "-") {
			continue
		}
		if i := strings.IndexByte(p, '='); i > 0 {
			if v, ok := w.TrimPrefix(p[:i+1]); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// findRoots returns find's starting points ("." when none is given).
func findRoots(args []word.Word) []word.Word {
	if len(args) == 0 {
		return []word.Word{word.FromLit(".")}
	}
	return args
}

func gitEffects(c *Cmd) []Effect {
	sub := ""
	if len(c.Sub) > 0 {
		sub = c.Sub[0]
	}
	// The options' files count whatever the subcommand does with its
	// operands (git restore --staged --pathspec-from-file=.env).
	effs := append(gitOperandEffects(c, sub), gitOptionEffects(c, sub)...)
	// git -C DIR runs in DIR: relative paths (--output, pathspecs) are
	// DIR's. Several -C are each relative to the one before.
	if dirs := c.Values("-C"); len(dirs) > 0 {
		base, known := "", true
		for _, d := range dirs {
			s, ok := d.Static()
			if !ok {
				known = false
				break
			}
			if path.IsAbs(s) {
				base = s
			} else {
				base = path.Join(base, s)
			}
		}
		for i, e := range effs {
			s, ok := e.Path.Static()
			switch {
			case !known:
				effs[i].Path = word.UnknownData("(a path below git -C's directory, which is not known here)")
			case ok && !path.IsAbs(s) && !strings.HasPrefix(s, "~"):
				effs[i].Path = word.FromLit(path.Join(base, s))
			case !ok:
				effs[i].Path = word.UnknownData("(a path below git -C " + base + ")")
			}
		}
	}
	return effs
}

func gitOperandEffects(c *Cmd, sub string) []Effect {
	var effs []Effect
	paths := c.Args
	switch sub {
	case "commit", "tag", "merge", "notes":
		// -F FILE (and commit's --template) read FILE into the message,
		// which the log then shows.
		if c.Spec != nil {
			for _, canon := range []string{c.Spec.Opt("-F"), c.Spec.Opt("-t")} {
				if canon == "" || sub != "commit" && canon == c.Spec.Opt("-t") {
					continue
				}
				for _, v := range c.Values(canon) {
					if s, ok := v.Static(); ok && s == "-" {
						continue
					}
					effs = append(effs, Effect{Path: v, Access: Read})
				}
			}
		}
	case "checkout", "restore":
		// git checkout [BRANCH] -- PATHS and git checkout BRANCH PATHS
		// discard changes in those paths; git checkout BRANCH switches.
		// git restore --staged alone sets only the index (unstages).
		if sub == "restore" && c.Has("--staged") && !c.Has("--worktree") {
			return nil
		}
		if sub == "checkout" && !c.HasAny("--patch") {
			switch {
			case c.DashDash >= 0:
				paths = paths[c.DashDash:]
			case len(paths) == 1 && !c.HasAny("-b", "-B", "--orphan", "--detach"):
				// git checkout NAME: a branch or commit when git resolves
				// it as one, else a pathspec whose changes are discarded
				// ("discard?": the policy looks whether such a path is
				// there). After -b, --detach and the like it is a start
				// point only.
				for _, p := range gitPathspecs(c, paths) {
					op := "discard?"
					if p.many || !p.path.IsStatic() {
						op = "discard"
					}
					effs = append(effs, Effect{Path: p.path, Access: Write, Op: op, Recursive: true})
				}
				return effs
			case len(paths) <= 1:
				return nil
			default:
				paths = paths[1:]
			}
		}
		for _, p := range gitPathspecs(c, paths) {
			// The files are rewritten as the index or a commit holds them
			// (a plain write, which may make links), and what they held
			// that no commit holds is gone ("discard").
			effs = append(effs, Effect{Path: p.path, Access: Write, Recursive: true},
				Effect{Path: p.path, Access: Write, Op: "discard", Recursive: true})
		}
	case "mv":
		// git mv SRC... DST renames in the work tree (and the index): a
		// directory moves with all it holds, and -f overwrites DST.
		if c.Has("--dry-run") {
			return nil
		}
		for _, p := range paths {
			effs = append(effs, Effect{Path: p, Access: Write, Recursive: true})
		}
	case "rm":
		if c.Has("--cached") || c.Has("--dry-run") {
			return nil
		}
		for _, p := range gitPathspecs(c, paths) {
			effs = append(effs, Effect{Path: p.path, Access: Write, Op: "delete", Recursive: c.Has("-r") || p.many})
		}
	case "clean":
		if c.Has("--dry-run") || !c.Has("--force") {
			return nil
		}
		if len(paths) == 0 {
			paths = []word.Word{word.FromLit(".")}
		}
		for _, p := range gitPathspecs(c, paths) {
			effs = append(effs, Effect{Path: p.path, Access: Write, Op: "delete", Recursive: true})
		}
	case "log", "diff", "show":
		for _, v := range c.Values("--output") {
			effs = append(effs, Effect{Path: v, Access: Write})
		}
	}
	switch sub {
	case "diff":
		// git diff --no-index A B compares (and prints) two files; the
		// paths after "--" are printed as they changed.
		switch {
		case c.Has("--no-index"):
			// Two directories are compared file by file, and a file
			// only one has is printed whole (git diff --no-index e ~).
			for _, p := range paths {
				effs = append(effs, Effect{Path: p, Access: Read, Recursive: true, Whole: &WholeRead{}})
			}
		case c.DashDash >= 0:
			for _, p := range paths[c.DashDash:] {
				effs = append(effs, Effect{Path: p, Access: Read})
			}
		case len(paths) == 1 || len(paths) > 2 || len(paths) == 2 && !mayLieOutside(paths[0]) && !mayLieOutside(paths[1]):
			// Without "--", an operand that names a file is a path (git
			// diff .env, git diff HEAD .env, git diff --cached .env).
			for _, p := range paths {
				effs = append(effs, Effect{Path: p, Access: Read})
			}
		case len(paths) == 2 && (mayLieOutside(paths[0]) || mayLieOutside(paths[1])):
			// Two operands, one of them outside the work tree (git diff
			// /dev/null .env): git diffs them as --no-index does. (git
			// diff HEAD . compares a revision.)
			for _, p := range paths {
				effs = append(effs, Effect{Path: p, Access: Read, Recursive: true, Whole: &WholeRead{}})
			}
		}
	case "log", "show", "blame", "grep", "annotate":
		// Paths after "--" are read: log -p and blame print what they
		// held, grep what matches in them.
		dd := c.DashDash
		if c.Raw { // a subcommand without an option table: "--" is a word
			dd = -1
			for i, p := range paths {
				if s, ok := p.Static(); ok && s == "--" {
					dd = i + 1
					break
				}
			}
		}
		if dd >= 0 && sub != "blame" && sub != "annotate" {
			for _, p := range paths[dd:] {
				effs = append(effs, Effect{Path: p, Access: Read})
			}
		} else if sub == "log" || sub == "show" {
			// Without "--", an operand that names a file is a path (git
			// log -p .env, git show HEAD .env): each is read as one; a
			// revision's name reads nothing there (REV:PATH is below).
			for _, p := range paths {
				if _, _, rev := p.Cut(":"); !rev {
					effs = append(effs, Effect{Path: p, Access: Read})
				}
			}
		} else if (sub == "blame" || sub == "annotate") && len(paths) > 0 {
			effs = append(effs, Effect{Path: paths[len(paths)-1], Access: Read})
		}
	}
	if sub == "grep" {
		effs = append(effs, gitGrepEffects(c)...)
	}
	switch sub {
	case "show", "cat-file", "diff":
		// REV:PATH prints PATH as committed (git show HEAD:.env), and
		// :N:PATH as staged (git show :0:.env). The path is the
		// repository's; the working directory is taken for the root,
		// which is where agents run git.
		for _, p := range paths {
			if _, rest, ok := p.Cut(":"); ok && len(rest.Segs) > 0 && rest.String() != "" {
				if s, ok := rest.Static(); ok && len(s) > 2 && s[0] >= '0' && s[0] <= '3' && s[1] == ':' {
					rest = word.FromLit(s[2:])
				}
				effs = append(effs, Effect{Path: rest, Access: Read})
			}
		}
	}
	return effs
}

// mayLieOutside reports whether an operand may name a path outside the
// working directory's tree: absolute, ~, .. or not known here.
func mayLieOutside(w word.Word) bool {
	s, ok := w.Static()
	return !ok || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || s == ".." || strings.HasPrefix(s, "../") || strings.Contains(s, "/../")
}

// gitGrepEffects are git grep's whole reads (whole.go): with a pattern
// every line may match it prints the files it searches whole, the
// tracked ones (and untracked ones, --untracked; all, --no-index) below
// its pathspecs or the working directory, read here as every file there.
// A revision's tree (git grep ” HEAD) is not looked into.
func gitGrepEffects(c *Cmd) []Effect {
	if c.HasAny("--files-with-matches", "--name-only", "--files-without-match", "--count", "--quiet") {
		return nil
	}
	args := c.Args
	var operand []word.Word
	if !c.HasAny("-e", "-f") && len(args) > 0 {
		operand, args = args[:1], args[1:]
	}
	// Read as grep's: -e is --regexp; -f, -v, --not and -W print what
	// a pattern does not choose.
	as := &Cmd{Prog: "grep", Open: c.Open}
	for _, o := range c.Opts {
		switch o.Name {
		case "-e":
			as.Opts = append(as.Opts, Opt{Name: "--regexp", Value: o.Value, Known: true})
		case "-f", "--invert-match", "--not", "--function-context":
			as.Opts = append(as.Opts, Opt{Name: "--invert-match", Known: true})
		}
	}
	if !c.Raw && !searchPrintsAll(as, operand) {
		return nil
	}
	dd := c.DashDash - (len(c.Args) - len(args))
	var roots []word.Word
	switch {
	case dd >= 0 && dd <= len(args):
		if dd > 0 {
			roots = append(roots, word.UnknownData("the tree of a revision git grep searches"))
		}
		roots = append(roots, args[dd:]...)
	case len(args) > 0 && !c.Has("--no-index"):
		// Each may be a revision (git grep '' HEAD) as well as a path.
		roots = append(append(roots, args...), word.UnknownData("the tree of a revision git grep searches"))
	default:
		roots = args
	}
	if len(roots) == 0 {
		roots = []word.Word{word.FromLit(".")}
	}
	var effs []Effect
	for _, r := range roots {
		effs = append(effs, Effect{Path: r, Access: Read, Recursive: true, Whole: &WholeRead{}})
	}
	return effs
}

// nonOptions drops words that look like options from a raw argv.
func nonOptions(ws []word.Word) []word.Word {
	var out []word.Word
	for _, w := range ws {
		if s, ok := w.Static(); ok && strings.HasPrefix(s, "-") && s != "-" {
			continue
		}
		out = append(out, w)
	}
	return out
}

// join joins a directory word and a relative path word.
func join(dir, p word.Word) word.Word {
	if strings.HasPrefix(p.Prefix(), "/") {
		return p
	}
	out := word.Word{}
	out.AddWord(dir)
	out.AddLit("/")
	out.AddWord(p)
	return out
}

// namesOnly reports whether a reader shows names and metadata of its
// operands, never their contents (wc reads them, and shows counts).
func namesOnly(prog string) bool {
	switch prog {
	case "ls", "stat", "du", "tree", "realpath", "readlink", "lsattr", "getfacl", "file", "wc":
		return true
	}
	return false
}

// rawFlag reports whether an argv read without a spec (or with one, for
// options it does not know) has one of the short flags, alone or in a
// cluster (-laR), or one of the long ones (--all, --all=x). Words after
// "--" are operands.
func rawFlag(c *Cmd, shorts string, longs ...string) bool {
	words := c.Args
	if !c.Raw {
		words = nil
		for _, o := range c.Opts {
			words = append(words, word.FromLit(o.Name))
		}
	}
	for _, w := range words {
		s, ok := w.Static()
		if !ok {
			continue
		}
		if s == "--" {
			break
		}
		for _, l := range longs {
			if s == l || strings.HasPrefix(s, l+"=") {
				return true
			}
		}
		if len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsAny(s[1:], shorts) && shorts != "" {
			return true
		}
	}
	return false
}

// directoriesRecurse reports grep -d recurse (--directories=recurse).
func directoriesRecurse(c *Cmd) bool {
	for _, v := range c.Values("--directories") {
		// grep takes any unique abbreviation of read, recurse and skip
		// (argmatch): only those of read and skip do not recurse.
		s, ok := v.Static()
		if !ok || s == "" || !(len(s) >= 3 && strings.HasPrefix("read", s) || strings.HasPrefix("skip", s)) {
			return true
		}
	}
	return false
}

// zipEffects reads zip's argv: zip [options] ARCHIVE [FILES…] [-x|-i
// PATTERNS…]. The archive is written; the files are read, whole trees
// of them with -r (or -R, --recurse-paths).
func zipEffects(c *Cmd) []Effect {
	var effs []Effect
	if rawFlag(c, "@", "--names-stdin") {
		effs = append(effs, listedFiles([]word.Word{word.FromLit("-")}, false)...)
	}
	valued := map[string]bool{"-b": true, "-n": true, "-t": true, "-tt": true, "-P": true, "-O": true, "-Z": true,
		"-s": true, "-sp": false, "-U": false, "-I": false, "--password": true, "--out": true, "--temp-path": true,
		"--suffixes": true, "--compression-method": true, "--split-size": true, "-ll": false}
	// zip takes a long option's unique abbreviation (--recurse-path);
	// --recurse-pa… is read as both.
	rec := rawFlag(c, "rR", "--recurse-paths", "--recurse-patterns") || prefixOpt(c, "--recurse-p")
	move := rawFlag(c, "m", "--move") || prefixOpt(c, "--mo")
	archive := true
	patterns := false
	for i := 0; i < len(c.Args); i++ {
		w := c.Args[i]
		s, static := w.Static()
		if static && strings.HasPrefix(s, "-") && len(s) > 1 {
			patterns = s == "-x" || s == "-i" || s == "--exclude" || s == "--include"
			if valued[s] {
				i++
			}
			continue
		}
		if patterns && !archive {
			continue // -x/-i patterns run to the next option
		}
		if archive {
			effs = append(effs, Effect{Path: w, Access: Read | Write})
			archive = false
			continue
		}
		if static && s == "-" {
			// zip ARCHIVE -: the data read from stdin, stored.
			continue
		}
		var whole *WholeRead
		if rec {
			whole = &WholeRead{Follow: !rawFlag(c, "y", "--symlinks")} // zip stores what links lead to
		}
		if rawFlag(c, "R", "--recurse-patterns") || prefixOpt(c, "--recurse-pat") {
			w = word.FromLit(".") // -R: the operands are patterns matched below it
		}
		effs = append(effs, Effect{Path: w, Access: Read, Recursive: rec, Whole: whole})
		if move {
			// -m deletes what it stored (with -r, whole trees).
			effs = append(effs, Effect{Path: w, Access: Write, Op: "delete", Recursive: rec})
		}
	}
	return effs
}

// WrapperEffects returns the paths a wrapper (a program that runs another
// command, judged on its own) opens itself: xargs -a FILE reads FILE and
// passes its contents on as arguments; strace -o, time -o, script and
// flock write files of their own.
func WrapperEffects(c *Cmd) []Effect {
	if c != nil && c.Prog == "coverage" {
		// coverage run --data-file=FILE replaces FILE with its database.
		var effs []Effect
		for _, v := range OptionValues(c.Args, "--data-file") {
			effs = append(effs, Effect{Path: v, Access: Write})
		}
		return effs
	}
	if c == nil || c.Raw {
		return nil
	}
	var effs []Effect
	switch c.Prog {
	case "xargs":
		for _, v := range c.Values("--arg-file") {
			effs = append(effs, Effect{Path: v, Access: Read})
		}
	case "strace", "ltrace":
		for _, v := range c.Values("-o") {
			if v.CouldStartWith('|') || v.CouldStartWith('!') {
				// -o '|cmd' pipes the trace into a command the guard
				// does not read.
				v = word.Unknown("the command strace -o pipes to")
			}
			effs = append(effs, Effect{Path: v, Access: Write})
		}
	case "time":
		for _, v := range c.Values("--output") {
			effs = append(effs, Effect{Path: v, Access: Write})
		}
	case "script":
		// script [FILE] writes the session to FILE (./typescript).
		out := word.FromLit("typescript")
		if len(c.Args) > 0 {
			out = c.Args[0]
		}
		effs = append(effs, Effect{Path: out, Access: Write})
		for _, o := range []string{"--log-io", "--log-in", "--log-out", "--log-timing", "--timing"} {
			for _, v := range c.Values(o) {
				effs = append(effs, Effect{Path: v, Access: Write})
			}
		}
	case "flock":
		// flock FILE CMD opens (and creates) FILE; flock FD locks an
		// open descriptor.
		if len(c.Args) > 0 {
			if s, ok := c.Args[0].Static(); !ok || strings.Trim(s, "0123456789") != "" {
				effs = append(effs, Effect{Path: c.Args[0], Access: Write, Op: "create"})
			}
		}
	}
	return effs
}

// curlEffects are the files curl reads and writes, from curl's manual for
// each option that names one. "-" is standard input or output; "%" (the
// trace options) standard error.
func curlEffects(c *Cmd, args []word.Word) []Effect {
	l := &optionFiles{c: c, stdio: []string{"-", "%"}}
	add, each := l.add, l.each
	// With globbing on, #N in an -o name is what the URL's Nth glob
	// matched: the name is known only up to it.
	globbing := !c.Has("--globoff")
	for _, v := range c.Values("--output") {
		if t, ok := v.Static(); ok && globbing && strings.Contains(t, "#") {
			v = prefixThenHole(t, strings.IndexByte(t, '#'), "a name made from the URL's glob")
		}
		add(v, Write, false)
	}
	each(Write, "--dump-header", "--cookie-jar", "--trace", "--trace-ascii", "--stderr", "--libcurl", "--etag-save")
	// Caches curl reads and rewrites.
	each(Read, "--hsts", "--alt-svc", "--ssl-sessions")
	each(Write, "--hsts", "--alt-svc", "--ssl-sessions")
	each(Read, "--upload-file", "--config", "--etag-compare", "--netrc-file", "--cacert", "--capath", "--crlfile",
		"--proxy-cacert", "--proxy-capath", "--proxy-crlfile", "--knownhosts", "--random-file", "--egd-file", "--pubkey")
	// A certificate or key, with :password after it for some types.
	each(Read, "--key", "--proxy-key", "--httpsig-key")
	for _, o := range []string{"--cert", "--proxy-cert"} {
		for _, v := range c.Values(o) {
			add(beforeColon(v), Read, false)
		}
	}
	// -O writes into the output directory; so does -o NAME when there is
	// one (curl --output-dir ~ -o .bashrc).
	if c.HasAny("--remote-name", "--remote-name-all") || len(c.Values("--output-dir")) > 0 {
		dirs := c.Values("--output-dir")
		if len(dirs) == 0 {
			dirs = []word.Word{word.FromLit(".")}
		}
		for _, d := range dirs {
			add(d, Write, true)
		}
	}
	// Data from a file: @FILE (-d, --data-ascii, --data-binary, --json),
	// [NAME]@FILE (--data-urlencode, --variable), NAME=@FILE and
	// NAME=<FILE (-F, with ;type=… after it), @FILE of headers (-H,
	// --proxy-header), @FILE of the -w format.
	for _, o := range []string{"--data", "--data-ascii", "--data-binary", "--json", "--header", "--proxy-header", "--write-out"} {
		for _, v := range c.Values(o) {
			if rest, ok := v.TrimPrefix("@"); ok {
				add(rest, Read, false)
			}
		}
	}
	for _, o := range []string{"--data-urlencode", "--variable"} {
		for _, v := range c.Values(o) {
			if p := v.Prefix(); strings.HasPrefix(p, "@") || !v.IsStatic() && !strings.ContainsAny(p, "=@") {
				// @FILE, or a word whose start is not known: it may be one.
				if rest, ok := v.TrimPrefix("@"); ok {
					add(rest, Read, false)
				} else {
					add(v, Read, false)
				}
			} else if before, rest, ok := v.Cut("@"); ok && !strings.Contains(before, "=") {
				add(rest, Read, false)
			}
		}
	}
	for _, v := range c.Values("--form") {
		if _, rest, ok := v.Cut("="); ok {
			if f, ok := rest.TrimPrefix("@"); ok {
				add(beforeSemicolon(f), Read, false)
			} else if f, ok := rest.TrimPrefix("<"); ok {
				add(beforeSemicolon(f), Read, false)
			}
		}
	}
	// A cookie option without "=" names a file of cookies.
	for _, v := range c.Values("--cookie") {
		if !strings.Contains(v.Prefix(), "=") {
			add(v, Read, false)
		}
	}
	// -w %output{FILE} (or {>>FILE}) writes what follows it to FILE.
	for _, v := range c.Values("--write-out") {
		t, ok := v.Static()
		if !ok {
			if strings.Contains(v.String(), "%output") || v.HasHole() {
				l.effs = append(l.effs, Effect{Path: word.Unknown("a file named in -w %output{…}"), Access: Write})
			}
			continue
		}
		for {
			i := strings.Index(t, "%output{")
			if i < 0 {
				break
			}
			t = t[i+len("%output{"):]
			j := strings.IndexByte(t, '}')
			if j < 0 {
				break
			}
			add(word.FromLit(strings.TrimPrefix(t[:j], ">>")), Write, false)
			t = t[j+1:]
		}
	}
	// file: URLs are local files, read and printed; a URL whose start is
	// known only at run time may be one, as cat "$f" may read anything.
	urls := append(append([]word.Word(nil), args...), c.Values("--url")...)
	for _, u := range urls {
		p := strings.ToLower(u.Prefix())
		var f word.Word
		switch {
		case strings.HasPrefix(p, "file://localhost/"):
			f, _ = u.TrimPrefix(u.Prefix()[:len("file://localhost")])
		case strings.HasPrefix(p, "file:///"):
			f, _ = u.TrimPrefix(u.Prefix()[:len("file://")])
		case strings.HasPrefix(p, "file:/") && !strings.HasPrefix(p, "file://"):
			f, _ = u.TrimPrefix(u.Prefix()[:len("file:")]) // file:/etc/passwd
		case strings.HasPrefix(p, "file:"):
			f = word.UnknownData("the path of a file: URL")
		case !strings.Contains(p, ":"):
			if prefixOpt(c, "--proto-def") || rawFlag(c, "", "--proto-default") {
				// --proto-default file: a URL without a scheme is a path.
				f = word.UnknownData("a URL curl reads with a default protocol")
				break
			}
			if u.IsStatic() {
				continue // host[:port]/path: curl takes it as http
			}
			f = word.Unknown("a URL known only at run time, which may be file:")
		default:
			continue
		}
		// URL globbing ({a,b}, [1-9]) names other files than the text:
		// which ones is not worked out here.
		if t, ok := f.Static(); ok && globbing && strings.ContainsAny(t, "{}[]") {
			f = word.UnknownData("a path curl's URL glob expands (" + t + ")")
		}
		add(f, Read, false)
		// curl opens the path decoded (%76 is v) and without a
		// fragment: each reading is a read.
		if t, ok := f.Static(); ok {
			if i := strings.IndexAny(t, "#?"); i >= 0 {
				t = t[:i] // curl opens the path without a query or fragment
				add(word.FromLit(t), Read, false)
			}
			if d, ok := PercentDecode(t); !ok {
				add(word.UnknownData("a file: URL's path that does not decode"), Read, false)
			} else if d != t {
				add(word.FromLit(d), Read, false)
			}
		}
	}
	return l.effs
}

// PercentDecode decodes %XX escapes as net/url's PathUnescape does (and
// fails where it fails: a '%' without two hex digits). It is here so that
// argspec does not link net/url, whose net/netip initialisation every
// command would pay for.
func PercentDecode(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		hi, ok1 := unhex(s[i+1])
		lo, ok2 := unhex(s[i+2])
		if !ok1 || !ok2 {
			return "", false
		}
		b = append(b, hi<<4|lo)
		i += 2
	}
	return string(b), true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// prefixThenHole is t up to i, then a hole.
func prefixThenHole(t string, i int, what string) word.Word {
	w := word.FromLit(t[:i])
	w.Add(word.Seg{Kind: word.Hole, Text: what})
	return w
}

func beforeColon(w word.Word) word.Word {
	if s, ok := w.Static(); ok {
		if i := strings.IndexByte(s, ':'); i > 0 {
			return word.FromLit(s[:i])
		}
	}
	return w
}

func beforeSemicolon(w word.Word) word.Word {
	if s, ok := w.Static(); ok {
		if i := strings.IndexByte(s, ';'); i >= 0 {
			return word.FromLit(s[:i])
		}
	}
	return w
}

// wgetEffects are the files wget reads and writes, from its manual for
// each option that names one.
func wgetEffects(c *Cmd) []Effect {
	l := &optionFiles{c: c, stdio: []string{"-"}}
	add, each := l.add, l.each
	each(Write, "--output-document", "--output-file", "--append-output", "--save-cookies", "--rejected-log")
	each(Read, "--post-file", "--body-file", "--load-cookies", "--config", "--ca-certificate", "--certificate",
		"--private-key", "--crl-file", "--egd-file", "--hsts-file")
	each(Write, "--hsts-file")
	for _, v := range c.Values("--ca-directory") {
		add(v, Read, true)
	}
	// --warc-file=NAME writes NAME.warc.gz (and NAME-meta…, NAME.cdx).
	for _, v := range c.Values("--warc-file") {
		v.Add(word.Seg{Kind: word.Hole, Text: "the suffix wget adds to a WARC file's name"})
		add(v, Write, false)
	}
	// -i names a file of URLs, or a URL to fetch the list from.
	for _, v := range c.Values("--input-file") {
		if p := strings.ToLower(v.Prefix()); !strings.HasPrefix(p, "http://") && !strings.HasPrefix(p, "https://") && !strings.HasPrefix(p, "ftp://") {
			add(v, Read, false)
		}
	}
	// -e runs a .wgetrc command: one that sets where wget writes, what it
	// sends or a program it runs (output_document, post_file, use_askpass)
	// is judged as a write to a place not known here; robots=off and the
	// like change nothing on disk.
	for _, v := range c.Values("--execute") {
		t, ok := v.Static()
		name, _, _ := strings.Cut(t, "=")
		name = strings.NewReplacer("_", "", "-", "", " ", "", "\t", "").Replace(strings.ToLower(name))
		switch {
		case ok && (name == "robots" || name == "tries" || name == "timeout" || name == "wait" || name == "verbose" || name == "quiet" || name == "useragent" || name == "checkcertificate"):
		default:
			l.effs = append(l.effs, Effect{Path: word.Unknown("what the .wgetrc command " + v.String() + " sets"), Access: Write})
		}
	}
	if len(c.Values("--output-document")) == 0 {
		dirs := c.Values("--directory-prefix")
		if len(dirs) == 0 {
			dirs = []word.Word{word.FromLit(".")}
		}
		for _, d := range dirs {
			add(d, Write, true)
		}
	}
	return l.effs
}

// jqEffects are the files jq reads: its operands after the filter (the
// first operand, unless -f/--from-file makes it a file of the filter),
// and --slurpfile's and --rawfile's; --arg and --argjson take a name and
// a value, and after --args or --jsonargs operands are values.
func jqEffects(args []word.Word) []Effect {
	var effs []Effect
	read := func(w word.Word) { effs = append(effs, Effect{Path: w, Access: Read}) }
	var operands []word.Word
	fromFile, values := false, false
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		switch {
		case !ok || t == "-" || !strings.HasPrefix(t, "-"):
			operands = append(operands, args[i])
		case t == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case t == "--arg" || t == "--argjson":
			i += 2
		case t == "--slurpfile" || t == "--rawfile":
			if i+2 < len(args) {
				read(args[i+2])
			}
			i += 2
		case t == "--indent" || t == "-L" || t == "--library-path":
			i++
		case t == "--args" || t == "--jsonargs":
			values = true
		case t == "--from-file" || strings.HasPrefix(t, "-") && !strings.HasPrefix(t, "--") && strings.Contains(t, "f"):
			fromFile = true
		}
	}
	if len(operands) == 0 {
		return effs
	}
	if fromFile {
		read(operands[0]) // the filter's file
	}
	if values {
		return effs
	}
	for _, w := range operands[1:] {
		read(w)
	}
	return effs
}

// optionFiles collects the files a program's options name; the names in
// stdio are its standard input or output, not files.
type optionFiles struct {
	c     *Cmd
	stdio []string
	effs  []Effect
}

func (l *optionFiles) add(w word.Word, a Access, rec bool) {
	if s, ok := w.Static(); ok && slices.Contains(l.stdio, s) {
		return
	}
	l.effs = append(l.effs, Effect{Path: w, Access: a, Recursive: rec})
}

// each adds the values of the options opts, with access a.
func (l *optionFiles) each(a Access, opts ...string) {
	for _, o := range opts {
		for _, v := range l.c.Values(o) {
			l.add(v, a, false)
		}
	}
}

// gitValues are the values of a git subcommand's option, by its spec
// when it has one, else from the raw words (--name=V, --name V, -nV).
func gitValues(c *Cmd, names ...string) []word.Word {
	if c.Raw {
		return OptionValues(c.Args, names...)
	}
	var out []word.Word
	seen := map[string]bool{}
	for _, n := range names {
		if c.Spec != nil && !strings.HasPrefix(n, "--") {
			n = c.Spec.Opt(n)
		}
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, c.Values(n)...)
		}
	}
	return out
}

// gitPathspec is what a git pathspec may name: a path, or, for one with
// glob characters, the directory below which all it matches lies (many);
// magic (:/, :(top), :!x, :(glob)…) and --pathspec-from-file may name
// anything in the work tree, a path not known here.
type gitPathspec struct {
	path word.Word
	many bool
}

func gitPathspecs(c *Cmd, paths []word.Word) []gitPathspec {
	var out []gitPathspec
	for _, p := range paths {
		s, ok := p.Static()
		switch {
		case ok && c.Has("--icase-pathspecs"):
			out = append(out, gitPathspec{path: word.UnknownData("(a case-insensitive git pathspec, " + s + ", which may name a file of another case)")})
		case !ok:
			out = append(out, gitPathspec{path: p})
		case strings.HasPrefix(s, ":"):
			out = append(out, gitPathspec{path: word.UnknownData("(a git pathspec with magic, " + s + ", which may name any file of the work tree)")})
		case strings.ContainsAny(s, "*?[\\"):
			// git's globs match across "/": below the literal prefix's
			// directory (te* is anything in ".").
			prefix := s[:strings.IndexAny(s, "*?[\\")]
			dir := "."
			if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
				dir = prefix[:i+1]
			}
			out = append(out, gitPathspec{path: word.FromLit(dir), many: true})
		default:
			out = append(out, gitPathspec{path: p})
		}
	}
	if len(c.Values("--pathspec-from-file")) > 0 {
		out = append(out, gitPathspec{path: word.UnknownData("(the pathspecs of --pathspec-from-file)")})
	}
	return out
}

// gitOptionEffects are the files that options of git's read-only
// subcommands name (checked with git 2.39):
//   - --output=FILE is a diff option, and every subcommand that takes
//     diff or revision options writes FILE: log, show, diff, but also
//     diff-tree, diff-index, whatchanged, reflog show, stash show,
//     rev-list and shortlog, which the built-in rules allow.
//   - blame --contents FILE prints FILE's lines as not committed yet;
//     -S FILE and --ignore-revs-file FILE print the lines they cannot
//     read ("bad graft data: LINE", "invalid object name: LINE").
//   - config --file FILE (and -f) reads an INI file that need not be
//     git's (~/.pypirc) and prints it with --list or --get; setting a
//     key writes it.
func gitOptionEffects(c *Cmd, sub string) []Effect {
	var effs []Effect
	add := func(ws []word.Word, a Access) {
		for _, w := range ws {
			if s, ok := w.Static(); ok && s == "-" {
				continue
			}
			effs = append(effs, Effect{Path: w, Access: a})
		}
	}
	if sub != "log" && sub != "diff" && sub != "show" { // those are read above
		add(gitValues(c, "--output"), Write)
	}
	// --pathspec-from-file FILE reads FILE, and git prints a line of it
	// that matches nothing ("error: pathspec 'LINE' did not match").
	add(gitValues(c, "--pathspec-from-file"), Read)
	switch sub {
	case "blame", "annotate":
		add(gitValues(c, "--contents", "-S", "--ignore-revs-file"), Read)
	case "config":
		files := gitValues(c, "--file", "-f")
		add(files, Read)
		if len(files) > 0 && gitConfigWrites(c) {
			add(files, Write)
		}
	}
	return effs
}

// gitConfigWrites reports whether a git config command may change the
// file it names: not a --get, --list or get/list subcommand.
func gitConfigWrites(c *Cmd) bool {
	if c.HasAny("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "--get-color", "--get-colorbool") {
		return false
	}
	if len(c.Args) > 0 {
		if s, ok := c.Args[0].Static(); ok && (s == "get" || s == "list") {
			return false
		}
	}
	return len(c.Args) != 1
}

// listedFiles are the reads of the files that lists name (tar -T LIST,
// sort --files0-from=LIST, rsync --files-from=LIST, zip -@): their names
// are data the program reads at run time (word.Seg.Data), which may be
// any file's (a directory's whole tree, recursive).
func listedFiles(lists []word.Word, recursive bool) []Effect {
	var effs []Effect
	for _, l := range lists {
		effs = append(effs, Effect{Path: word.UnknownData("the files " + l.String() + " names"), Access: Read, Recursive: recursive})
	}
	return effs
}

// tarOptionEffects are the files tar's options name (GNU tar 1.34), in
// any mode, listing included: --index-file writes the listing, -g
// reads and rewrites its snapshot, --volno-file is written; -T FILE's
// lines are names, and each one that is no file is printed in the error
// (tar -cf /dev/null -T ~/.aws/credentials); the owner and group maps
// are read. The options that run a program (-I, --to-command,
// --checkpoint-action, -F, --rsh-command, --rmt-command) are the
// built-in rules' to ask about.
func tarOptionEffects(c *Cmd) []Effect {
	var effs []Effect
	each := func(a Access, opts ...string) {
		for _, o := range opts {
			for _, v := range c.Values(o) {
				if s, ok := v.Static(); ok && s == "-" {
					continue
				}
				effs = append(effs, Effect{Path: v, Access: a})
			}
		}
	}
	each(Write, "--index-file", "--volno-file", "--listed-incremental")
	each(Read, "--listed-incremental", "--files-from", "--owner-map", "--group-map")
	return effs
}

// findFiles0From is the file of starting points find -files0-from
// reads (findutils 4.9): its NUL-separated names, and a file of text is
// one name, are printed in the error for each that is no file (find
// -files0-from ~/.aws/credentials showed the key).
func findFiles0From(c *Cmd) []Effect {
	var effs []Effect
	for _, o := range c.Opts {
		if o.Name == "-files0-from" && o.Value != nil {
			if s, ok := o.Value.Static(); ok && s == "-" {
				continue
			}
			effs = append(effs, Effect{Path: *o.Value, Access: Read})
		}
	}
	return effs
}

// lessEffects are the files less's options name (less 590, whose long
// options may be abbreviated and whose short ones cluster, -Sk FILE):
// -o and -O (--log-file, --LOG-FILE) write their file; -k FILE
// (--lesskey-file, --lesskey-src, --lesskey-content) is a lesskey file
// whose #env section may set LESSOPEN, a command less runs even when it
// only copies its input to a pipe (checked: less --lesskey-src=F f | cat
// ran it); -T FILE (--tag-file) is read, and -t TAG opens the file the
// tags file names for TAG, which is known only at run time.
func lessEffects(args []word.Word) []Effect {
	var effs []Effect
	value := func(v word.Word, letter string) {
		s, _ := v.Static()
		switch letter {
		case "k":
			effs = append(effs, Effect{Path: v, Access: Read},
				Effect{Path: word.Unknown("a program the lesskey file " + v.String() + " may name (#env LESSOPEN)"), Access: Write})
		case "kc":
			effs = append(effs, Effect{Path: word.Unknown("a program the lesskey text may name (#env LESSOPEN)"), Access: Write})
		case "o", "O":
			if s != "-" {
				effs = append(effs, Effect{Path: v, Access: Write})
			}
		case "T":
			effs = append(effs, Effect{Path: v, Access: Read})
		case "t":
			effs = append(effs, Effect{Path: word.Unknown("the file the tags file names for " + v.String()), Access: Read})
		}
	}
	prefixOf := func(name string, longs ...string) bool {
		for _, l := range longs {
			if len(name) >= 2 && strings.HasPrefix(l, name) {
				return true
			}
		}
		return false
	}
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			continue
		}
		next := func() (word.Word, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return word.Word{}, false
		}
		switch {
		case t == "--":
			return effs
		case strings.HasPrefix(t, "--"):
			name, val, eq := strings.Cut(t[2:], "=")
			letter := ""
			switch {
			case prefixOf(name, "lesskey-file", "lesskey-src"):
				letter = "k"
			case prefixOf(name, "lesskey-content"):
				letter = "kc"
			case prefixOf(name, "log-file", "LOG-FILE"):
				letter = "o"
			case prefixOf(name, "tag-file"):
				letter = "T"
			case name == "tag" || name == "ta":
				letter = "t"
			default:
				continue
			}
			if eq {
				value(word.FromLit(val), letter)
			} else if v, ok := next(); ok {
				value(v, letter)
			}
		case strings.HasPrefix(t, "-") && len(t) > 1:
			// Letters up to the first that takes a value, which is the
			// rest of the word or the next word.
			for j := 1; j < len(t); j++ {
				if !strings.ContainsRune("bhjkoOpPtTxyzD#\"", rune(t[j])) {
					continue
				}
				if rest := t[j+1:]; rest != "" {
					value(word.FromLit(rest), t[j:j+1])
				} else if v, ok := next(); ok {
					value(v, t[j:j+1])
				}
				break
			}
		}
	}
	return effs
}

// kubectlEffects are the files kubectl's options name (kubectl 1.32):
//   - --kubeconfig FILE is read, and a user's exec credential plugin in
//     it is a command kubectl runs before it talks to the server
//     (kubectl get pods --kubeconfig=./kc.yaml ran it);
//   - --profile-output is written (with --profile), --cache-dir too;
//   - -o go-template-file=F (jsonpath-file, templatefile, and --template
//     F with them) is read and printed: a template of plain text is
//     printed as it stands, for every object;
//   - -f FILE and -k DIR, and the client certificate, key and
//     authority, are read.
func kubectlEffects(c *Cmd) []Effect {
	var effs []Effect
	add := func(v word.Word, a Access, rec bool) {
		if s, ok := v.Static(); ok && s == "-" {
			return
		}
		effs = append(effs, Effect{Path: v, Access: a, Recursive: rec})
	}
	for _, v := range c.Values("--kubeconfig") {
		add(v, Read, false)
		effs = append(effs, Effect{Path: word.Unknown("a program the kubeconfig " + v.String() + " may name (a user's exec credential plugin)"), Access: Write})
	}
	for _, v := range c.Values("--profile-output") {
		add(v, Write, false)
	}
	for _, v := range c.Values("--cache-dir") {
		add(v, Write, true)
	}
	for _, o := range []string{"--certificate-authority", "--client-certificate", "--client-key"} {
		for _, v := range c.Values(o) {
			add(v, Read, false)
		}
	}
	for _, o := range c.Opts {
		if o.Value == nil {
			continue
		}
		switch o.Name {
		case "--filename", "-f":
			add(*o.Value, Read, c.Has("--recursive"))
		case "--kustomize", "-k":
			add(*o.Value, Read, true)
		case "--output", "-o":
			v := *o.Value
			if rest, ok := v.TrimPrefix("="); ok {
				v = rest // -o=FORMAT
			}
			for _, kind := range []string{"go-template-file", "jsonpath-file", "templatefile"} {
				if f, ok := v.TrimPrefix(kind + "="); ok {
					add(f, Read, false)
				} else if s, ok := v.Static(); !ok || s != kind {
					continue
				}
				for _, t := range c.Values("--template") {
					add(t, Read, false)
				}
			}
			if !o.Value.IsStatic() && !strings.Contains(o.Value.Prefix(), "=") {
				// -o "$fmt" may be any of them, naming any file.
				effs = append(effs, Effect{Path: word.Unknown("a template file -o " + o.Value.String() + " may name"), Access: Read})
			}
		}
	}
	return effs
}

// diffEffects are the files diff reads (GNU diffutils 3.8). A directory
// operand is compared file by file and the differences printed, so it
// is read as a tree: diff ~ DIR prints each file the two share (~/.netrc
// against an empty DIR/.netrc), and -r, with -N, every file. The
// operands may come by --from-file and --to-file too; -X names a file of
// patterns.
func diffEffects(c *Cmd) []Effect {
	var effs []Effect
	add := func(w word.Word, rec bool) {
		if s, ok := w.Static(); ok && s == "-" {
			return
		}
		effs = append(effs, Effect{Path: w, Access: Read, Recursive: rec})
	}
	// Two directories are compared file by file, and what differs in
	// each pair of files is printed (diff config ../other prints both
	// .env files); with -N a file only one side has is printed whole.
	// Every operand is a whole read (of a file, the file itself).
	whole := &WholeRead{}
	for _, a := range c.Args {
		if s, ok := a.Static(); ok && s == "-" {
			continue
		}
		effs = append(effs, Effect{Path: a, Access: Read, Recursive: true, Whole: whole})
	}
	for _, o := range []string{"--from-file", "--to-file"} {
		for _, v := range c.Values(o) {
			add(v, true)
		}
	}
	for _, v := range c.Values("--exclude-from") {
		add(v, false)
	}
	return effs
}

// magicFiles splits file -m's colon-separated list.
func magicFiles(ws []word.Word) []word.Word {
	var out []word.Word
	for _, w := range ws {
		if s, ok := w.Static(); ok {
			for _, f := range strings.Split(s, ":") {
				if f != "" {
					out = append(out, word.FromLit(f))
				}
			}
			continue
		}
		out = append(out, w)
	}
	return out
}

// xxdOperands are xxd's infile and outfile (vim 9's xxd.c): options come
// first, until "--" or the first word that is none; -c, -g, -l, -o, -s
// and -n take a value, attached (-c8) or in the next word (-c 8, -cols
// 8, -s -16); the others are flags (-capitalize, -r, -p, -i).
func xxdOperands(args []word.Word) []word.Word {
	i := 0
	for ; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok || t == "-" || !strings.HasPrefix(t, "-") {
			break
		}
		if t == "--" {
			i++
			break
		}
		if strings.HasPrefix(t, "-capitalize") || len(t) < 2 || !strings.ContainsRune("cglosn", rune(t[1])) {
			continue
		}
		switch t {
		case "-c", "-cols", "-g", "-groupsize", "-l", "-len", "-o", "-offset", "-s", "-seek", "-n", "-name":
			i++ // the value is the next word
		}
	}
	if i > len(args) {
		return nil
	}
	return args[i:]
}

// jqImport matches a jq program's import and include directives, with
// the metadata object that may follow (import "m" as $m {search: "D"}).
var jqImport = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:import|include)\s+"((?:[^"\\]|\\.)*)"(?:\s+as\s+\$?[A-Za-z_][A-Za-z0-9_]*)?\s*(\{[^;]*\})?`)
})

var jqString = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`) })

// jqModuleEffects are the files a jq program's modules come from (jq
// 1.6): import "NAME" as $d reads NAME.json from the search path and
// prints it ($d), include and import as m read NAME.jq. The search path
// is -L's directories (-L DIR, -LDIR, --library-path), and a directive's
// own {search: "DIR"} or ["D1", "D2"]: jq -n 'import "config" as $c
// {search: "~/.docker"}; $c' printed the registry credentials, allowed.
// Each such directory is read as a tree, and an absolute NAME as the
// files it names. (The search path's defaults, ~/.jq and jq's own lib,
// and a program known only at run time are not followed.)
func jqModuleEffects(args []word.Word) []Effect {
	var effs []Effect
	var prog string
	haveProg := false
	var dirs []word.Word
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			if !haveProg && !strings.HasPrefix(args[i].Prefix(), "-") {
				haveProg = true // a program not known here
			}
			continue
		}
		switch {
		case t == "--arg" || t == "--argjson" || t == "--slurpfile" || t == "--rawfile":
			i += 2
		case t == "-L" || t == "--library-path" || t == "--indent":
			if i+1 < len(args) && t != "--indent" {
				dirs = append(dirs, args[i+1])
			}
			i++
		case strings.HasPrefix(t, "-L") && len(t) > 2:
			dirs = append(dirs, word.FromLit(t[2:]))
		case strings.HasPrefix(t, "--library-path="):
			dirs = append(dirs, word.FromLit(strings.TrimPrefix(t, "--library-path=")))
		case t == "-f" || t == "--from-file":
			haveProg = true // the program is a file's, read as an operand
			i++
		case t == "--args" || t == "--jsonargs":
		case strings.HasPrefix(t, "-") && t != "-":
		case !haveProg:
			prog, haveProg = t, true
		}
	}
	ms := jqImport().FindAllStringSubmatch(prog, -1)
	if len(ms) == 0 {
		return nil
	}
	for _, d := range dirs {
		effs = append(effs, Effect{Path: d, Access: Read, Recursive: true})
	}
	for _, m := range ms {
		// An absolute name is read as it is; so is a relative one, below
		// the working directory, unless the import names its own search
		// path (jq 1.6: import "../home/.docker/config" read it, with or
		// without -L; with {search: "/x"} it did not. A red team's).
		if strings.HasPrefix(m[1], "/") || !strings.Contains(m[2], "search") {
			effs = append(effs, Effect{Path: word.FromLit(m[1] + ".json"), Access: Read}, Effect{Path: word.FromLit(m[1] + ".jq"), Access: Read},
				Effect{Path: word.FromLit(m[1]), Access: Read, Recursive: true})
		}
		for _, s := range jqString().FindAllStringSubmatch(m[2], -1) {
			if s[1] != "search" {
				effs = append(effs, Effect{Path: jqSearchDir(s[1]), Access: Read, Recursive: true})
			}
		}
	}
	return effs
}

// jqSearchDir is a search directory as jq reads it: "~/" is the home
// and "$ORIGIN/" jq's own directory, neither known here.
func jqSearchDir(s string) word.Word {
	for _, p := range []string{"~/", "$ORIGIN/"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: strings.TrimSuffix(p, "/")}, {Kind: word.Lit, Text: "/" + rest}}}
		}
	}
	return word.FromLit(s)
}

// helmEffects are the files helm's global options name: --kubeconfig is
// a kubeconfig as kubectl's (kubectlEffects: an exec credential plugin in
// it is a command helm status, list and history run before they talk to
// the cluster, through the same client library), --kube-ca-file is read
// and --repository-cache written. (Not run against a real helm: none
// was installed where this was checked.)
func helmEffects(c *Cmd) []Effect {
	var effs []Effect
	for _, v := range c.Values("--kubeconfig") {
		effs = append(effs, Effect{Path: v, Access: Read},
			Effect{Path: word.Unknown("a program the kubeconfig " + v.String() + " may name (a user's exec credential plugin)"), Access: Write})
	}
	for _, v := range c.Values("--kube-ca-file") {
		effs = append(effs, Effect{Path: v, Access: Read})
	}
	for _, v := range c.Values("--repository-cache") {
		effs = append(effs, Effect{Path: v, Access: Write, Recursive: true})
	}
	return effs
}

// treeEffects are the files tree's options name besides -o (tree 2.1):
// -R runs tree again in each directory below the level -L stops at,
// with -o 00Tree.html, so every directory under an operand gets that
// file (tree -R -L 1 d wrote d/a/00Tree.html); --infofile F is read and
// its comments printed beside the names they match, --gitfile F read.
// (--fromfile F prints F's lines: its operands are contents then.)
func treeEffects(c *Cmd, args []word.Word) []Effect {
	var effs []Effect
	if rawFlag(c, "R") {
		var ops []word.Word
		for i := 0; i < len(args); i++ {
			t, ok := args[i].Static()
			switch {
			case ok && t == "--":
				ops = append(ops, args[i+1:]...)
				i = len(args)
			case ok && strings.HasPrefix(t, "-") && len(t) > 1:
				// The last letter of a cluster may take the next word
				// (-RL 1, -I pat); long options take --opt=V or the
				// next word.
				if strings.ContainsAny(t[len(t)-1:], "LPIHTo") && !strings.HasPrefix(t, "--") ||
					slices.Contains([]string{"--charset", "--filelimit", "--timefmt", "--sort", "--infofile", "--gitfile", "--hintro", "--houtro"}, t) {
					i++
				}
			case ok || !strings.HasPrefix(args[i].Prefix(), "-"):
				ops = append(ops, args[i])
			}
		}
		if len(ops) == 0 {
			ops = []word.Word{word.FromLit(".")}
		}
		for _, o := range ops {
			effs = append(effs, Effect{Path: o, Access: Write, Op: "create", Recursive: true})
		}
	}
	for _, f := range OptionValues(args, "--infofile", "--gitfile") {
		effs = append(effs, Effect{Path: f, Access: Read})
	}
	return effs
}

// pagerEffects are the commands a pager option names: ag runs its
// --pager even when its output is no terminal (ag --pager=CMD x . ran
// CMD; --pag too, getopt_long's abbreviation), bat with --paging=always.
// A command is no file: it is a write to a place known only at run
// time, so it asks.
func pagerEffects(cmds []word.Word, prog string) []Effect {
	var effs []Effect
	for _, v := range cmds {
		effs = append(effs, Effect{Path: word.Unknown("what " + prog + "'s pager " + v.String() + " does"), Access: Write})
	}
	return effs
}

// batEffects are what bat's options write or run besides its operands
// (bat 0.22): --pager's command; --generate-config-file writes bat's
// configuration (~/.config/bat/config, or $BAT_CONFIG_PATH); bat cache
// --build and --clear write and remove its cache under the home.
func batEffects(c *Cmd, prog string, args []word.Word) []Effect {
	effs := pagerEffects(OptionValues(args, "--pager"), prog)
	if rawFlag(c, "", "--generate-config-file") {
		effs = append(effs, Effect{Path: word.Unknown("bat's configuration file (~/.config/bat/config)"), Access: Write})
	}
	if ops := nonOptions(args); len(ops) > 0 && rawFlag(c, "bc", "--build", "--clear") {
		if s, ok := ops[0].Static(); ok && s == "cache" {
			effs = append(effs, Effect{Path: word.Unknown("bat's cache (~/.cache/bat) and themes"), Access: Write, Op: "delete", Recursive: true})
		}
	}
	return effs
}

// clocEffects are what cloc's options run, read and write besides its
// reports (cloc 1.96): --extract-with=CMD runs CMD on each archive and
// --vcs=CMD runs CMD for the list of files (cloc --vcs='CMD' ran it);
// --config F reads more options from F, which may be those; --sdir D is
// a scratch directory cloc leaves its files in; --list-file and the
// language definitions are read.
func clocEffects(args []word.Word) []Effect {
	var effs []Effect
	for _, v := range perlValues(args, "--extract-with", "--vcs") {
		if s, ok := v.Static(); ok && (s == "git" || s == "svn" || s == "auto") {
			continue // cloc's own ways of listing a repository's files
		}
		effs = append(effs, Effect{Path: word.Unknown("what the command " + v.String() + " cloc runs does"), Access: Write})
	}
	for _, v := range perlValues(args, "--config") {
		effs = append(effs, Effect{Path: v, Access: Read},
			Effect{Path: word.Unknown("what a command cloc's options in " + v.String() + " name does"), Access: Write})
	}
	for _, v := range perlValues(args, "--sdir") {
		effs = append(effs, Effect{Path: v, Access: Write, Recursive: true})
	}
	for _, v := range perlValues(args, "--list-file", "--exclude-list-file", "--read-lang-def", "--force-lang-def") {
		if s, ok := v.Static(); ok && s == "-" {
			continue
		}
		effs = append(effs, Effect{Path: v, Access: Read})
	}
	return effs
}
