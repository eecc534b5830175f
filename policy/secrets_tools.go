package policy

import (
	"regexp"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// Read-only commands of tools that print the secrets they hold: what they
// print goes to the model as a file's content would.

// printsClusterSecrets matches kubectl get of Secrets in a form that shows
// their data (-o yaml, json, jsonpath, a template, custom columns): the
// plain table and -o name/wide show names, types and counts, and kubectl
// describe shows only each key's size.
func printsClusterSecrets(p *Part) word.Tri {
	c := p.Norm
	if c == nil || c.Prog != "kubectl" || len(c.Sub) == 0 || c.Sub[0] != "get" {
		return word.No
	}
	// --raw PATH prints what the API holds there: Secrets' data for a
	// path through /secrets.
	for _, r := range optionWords(p, "--raw") {
		s, ok := r.Static()
		if !ok {
			return word.Maybe
		}
		if d, ok := argspec.PercentDecode(s); ok {
			s = d
		}
		if strings.Contains(strings.ToLower(s), "secret") {
			return word.Yes // the API server decodes the path: /api/v1/%73ecrets
		}
	}
	outs := c.Values("--output")
	if len(optionWords(p, "--template")) > 0 {
		// --template without -o is a go-template: {{.data.password}}.
		outs = append(outs, word.FromLit("go-template"))
	}
	if len(outs) == 0 {
		return word.No
	}
	shows := word.No
	for _, o := range outs {
		s, ok := o.Static()
		switch {
		case !ok:
			shows = word.Maybe
		case s != "name" && s != "wide":
			return secretResources(c.Args)
		}
	}
	if shows == word.Maybe {
		return triAnd(shows, secretResources(c.Args))
	}
	return word.No
}

// optionWords are the values of a long option in a part's words (--opt V
// or --opt=V), whether or not the program's options are known here; a
// word --opt=… with a part not known here is a value not known here.
func optionWords(p *Part, name string) []word.Word {
	out := argspec.OptionValues(p.Argv[1:], name)
	for _, a := range p.Argv[1:] {
		if !a.IsStatic() && strings.HasPrefix(a.Prefix(), name+"=") {
			out = append(out, word.Unknown(a.String()))
		}
	}
	return out
}

// secretResources reports whether kubectl get's resource words name
// Secrets: secret, secrets, secret/NAME, a list with one (pods,secrets),
// secrets.v1 and the like; a word not known here may.
func secretResources(args []word.Word) word.Tri {
	if len(args) == 0 {
		return word.No // -f FILE or -k DIR: their kinds are in the files
	}
	out := word.No
	for _, a := range args {
		s, ok := a.Static()
		if !ok {
			out = word.Maybe
			continue
		}
		for _, r := range strings.Split(s, ",") {
			kind, _, _ := strings.Cut(strings.ToLower(r), "/")
			kind, _, _ = strings.Cut(kind, ".")
			if kind == "secret" || kind == "secrets" {
				return word.Yes
			}
		}
	}
	return out
}

func triAnd(a, b word.Tri) word.Tri {
	if a == word.No || b == word.No {
		return word.No
	}
	if a == word.Yes && b == word.Yes {
		return word.Yes
	}
	return word.Maybe
}

// inspectField is a field reference in a Go template ({{.Config.Env}}).
var inspectField = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\.[A-Za-z_]\w*(\.[A-Za-z_]\w*)*|(^|[^\w.\]])\.($|[^\w.])`)
})

// printsContainerEnv matches docker inspect (and docker container/image
// inspect) printing a container's or image's environment, where
// passwords and tokens are passed: with no --format, or a format that
// shows .Config.Env, something holding it (.Config, . itself), or
// something under it.
func printsContainerEnv(p *Part) word.Tri {
	c := p.Norm
	if c == nil || c.Prog != "docker" || len(c.Sub) == 0 {
		return word.No
	}
	switch {
	case c.Sub[0] == "inspect":
	case len(c.Sub) > 1 && (c.Sub[0] == "container" || c.Sub[0] == "image") && c.Sub[1] == "inspect":
	case len(c.Args) > 0 && (c.Sub[0] == "container" || c.Sub[0] == "image") && c.Args[0].String() == "inspect":
	default:
		return word.No
	}
	// The format option, read from the words after "inspect" as pflag
	// reads them (--format F, --format=F, -f F, -fF).
	var formats []word.Word
	after := false
	for i := 1; i < len(p.Argv); i++ {
		w := p.Argv[i]
		t, _ := w.Static()
		if !after {
			after = t == "inspect"
			continue
		}
		switch {
		case t == "--":
			i = len(p.Argv)
		case t == "--format" || t == "-f":
			if i+1 < len(p.Argv) {
				formats = append(formats, p.Argv[i+1])
				i++
			}
		case strings.HasPrefix(w.Prefix(), "--format="):
			f, _ := w.TrimPrefix("--format=")
			formats = append(formats, f)
		case strings.HasPrefix(w.Prefix(), "-f") && len(w.Prefix()) > 2 && !strings.HasPrefix(w.Prefix(), "--"):
			f, _ := w.TrimPrefix("-f")
			formats = append(formats, f)
		case !w.IsStatic() && !strings.HasPrefix(w.Prefix(), "-") && w.Prefix() == "":
			// a word known only at run time may be -f and its format
			return word.Maybe
		}
	}
	if len(formats) == 0 {
		return word.Yes
	}
	for _, f := range formats {
		s, ok := f.Static()
		if !ok {
			return word.Maybe
		}
		if s == "json" || s == "pretty" {
			return word.Yes
		}
		for _, m := range inspectField().FindAllString(s, -1) {
			ref := strings.TrimLeft(m, " \t({|,$=")
			if !strings.HasPrefix(ref, ".") || len(strings.TrimRight(ref, " \t)}|,")) == 1 {
				return word.Yes // . itself: everything
			}
			ref = strings.TrimRight(ref, " \t)}|,")
			for _, env := range []string{".Config.Env", ".ContainerConfig.Env"} {
				if ref == env || strings.HasPrefix(env, ref+".") || strings.HasPrefix(ref, env+".") {
					return word.Yes
				}
			}
		}
	}
	return word.No
}
