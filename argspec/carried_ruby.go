package argspec

import (
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// bundleCarried: bundle exec COMMAND runs it with the bundle; another
// Gemfile is code.
func bundleCarried(r *carry) {
	args := r.argv[1:]
	// --gemfile before or after the subcommand (bundle install
	// --gemfile=G, checked with Bundler 2.3: G's code ran), up to what
	// bundle exec runs.
	for _, a := range args {
		t, _ := a.Static()
		if t == "exec" {
			break
		}
		if t == "--gemfile" || strings.HasPrefix(t, "--gemfile=") {
			r.Opaque("bundle --gemfile evaluates another Gemfile, which is ruby code")
			return
		}
	}
	for i, a := range args {
		t, _ := a.Static()
		if t == "exec" {
			rest := args[i+1:]
			for len(rest) > 0 {
				if o, _ := rest[0].Static(); o == "--keep-file-descriptors" || o == "--no-keep-file-descriptors" {
					rest = rest[1:]
					continue
				}
				break
			}
			r.Argv(rest, "bundle exec", true)
			return
		}
		if !strings.HasPrefix(t, "-") {
			return
		}
	}
}

// rakeCarried: rake runs the project's Rakefile. -e runs ruby code, -f
// another Rakefile, -r/-I/-R load other files; NAME=value operands set
// the environment of the tasks.
func rakeCarried(r *carry) {
	args := r.argv[1:]
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			r.Opaque("rake with an argument not known here")
			continue
		}
		name, _, _ := strings.Cut(t, "=")
		switch {
		case name == "-e" || name == "--execute" || name == "-E" || name == "--execute-continue" || name == "-p" || name == "--execute-print" ||
			strings.HasPrefix(t, "-e") && len(t) > 2 && !strings.HasPrefix(t, "--"):
			r.Opaque("rake " + name + " runs inline ruby code")
		case name == "-f" || name == "--rakefile" || name == "-g" || name == "--system":
			r.Opaque("rake " + name + " runs another Rakefile")
		case name == "-C" || name == "--directory" || strings.HasPrefix(t, "-C") && !strings.HasPrefix(t, "--"):
			// Anywhere on the line (rake test -C DIR, checked with rake
			// 13.0: DIR's Rakefile ran).
			for _, v := range OptionValues(args[i:i+min(2, len(args)-i)], "-C", "--directory") {
				if r.outside(v) {
					r.Opaque("rake " + name + " " + v.String() + " runs the Rakefile there")
				}
			}
		case name == "-r" || name == "--require" || name == "-I" || name == "--libdir" || name == "-R" || name == "--rakelibdir" || name == "--rakelib":
			_, val, hasVal := strings.Cut(t, "=")
			v, ok := optionValue(args, &i, val, hasVal)
			if !ok {
				v = word.FromLit("")
			}
			if r.outside(v) {
				r.Opaque("rake " + name + " loads ruby code from " + v.String())
			}
		case !strings.HasPrefix(t, "-"):
			if n, _, val, ok := assignName(t); ok && (n == "TEST" || n == "TESTOPTS") && r.outside(word.FromLit(val)) {
				// rake's test task loads the files TEST names.
				r.Opaque("rake " + n + "=" + val + " loads tests from outside the working directory")
			}
			if n, _, val, ok := assignName(t); ok && word.IsName(n) {
				// rake sets ENV[NAME] for its tasks and the programs they run.
				r.Setenv(n, word.FromLit(val))
			}
		}
	}
}

// rspec loads its spec files, -r requires and an options file; rubocop
// loads -r requires and a config whose require: lists code.
var (
	rspecLoader   = &codeLoader{valued: "-e --example -E --example-matches -t --tag -f --format -o --out -P --pattern --exclude-pattern --seed --order", code: "-r --require -I -O --options --default-path -P --pattern", operands: true}
	rubocopLoader = &codeLoader{valued: "-f --format -o --out --only --except --exclude-limit --cache-root --fail-level -s --stdin", code: "-r --require -c --config --plugin", operands: true}
)

// rubyEnv: another Gemfile, library directories outside the working
// directory, and options read by rake and rspec.
func (r *carry) rubyEnv(a envVar) bool {
	switch a.Name {
	case "BUNDLE_GEMFILE", "RAKEOPT", "SPEC_OPTS":
		r.Opaque("setting " + a.Name + " makes ruby tools load code or options from " + a.Value.String())
	case "RUBYLIB":
		r.searchPath(a, "ruby loads libraries")
	default:
		return false
	}
	return true
}
