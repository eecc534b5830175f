package argspec

import (
	"path/filepath"
	"regexp"
	"sync"

	"github.com/guard-exec/guard-exec/word"
)

// EnvReads reports what of the environment a program's own language reads
// (and so may print): all of it (jq's env and $ENV, awk's for (k in
// ENVIRON), ENVIRON[k]), or the variables named by a literal (env.NAME,
// $ENV.NAME, ENVIRON["NAME"]). ok is false for a program whose language
// the catalogue does not read this way. Words known only at run time are
// passed over: a program that is not static asks on its own account.
func EnvReads(prog string, args []word.Word) (all bool, names []string, ok bool) {
	var re *regexp.Regexp
	switch filepath.Base(prog) {
	case "jq", "gojq":
		re = jqEnv()
	case "yq":
		re = yqEnv()
	case "busybox":
		if len(args) == 0 || args[0].String() != "awk" {
			return false, nil, false
		}
		re = awkEnv()
	case "awk", "gawk", "mawk", "nawk", "original-awk":
		re = awkEnv()
	default:
		return false, nil, false
	}
	for _, a := range args {
		t, static := a.Static()
		if !static {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(t, -1) {
			name := ""
			for _, g := range m[4:] {
				if name == "" {
					name = g
				}
			}
			if name == "" {
				all = true
			} else {
				names = append(names, name)
			}
		}
	}
	return all, names, true
}

// jqEnv and awkEnv find a program's uses of the environment: the whole of
// it, or the one variable named in group 4 (or 5, jq's ["NAME"]).
var (
	jqEnv = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(^|[^.$\w])(\$ENV|env)\b(\.([A-Za-z_]\w*)|\["([^"]*)"\])?`)
	})
	awkEnv = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|\W)(ENVIRON)\b(\[\s*"([^"]*)"\s*\])?`) })
	// yq is jq's wrapper (kislyuk: env, $ENV) or mikefarah's (env(NAME),
	// strenv(NAME), envsubst: all of it).
	yqEnv = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(^|[^.$\w])(\$ENV|env|strenv|envsubst)\b(\.([A-Za-z_]\w*)|\["([^"]*)"\]|\(\s*([A-Za-z_]\w*)\s*\))?`)
	})
)
