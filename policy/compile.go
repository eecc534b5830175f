package policy

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// compile prepares a rule for matching.
func (r *Rule) compile(env *Env) error {
	if r.pred != nil || r.predEffect != nil {
		return nil
	}
	if r.Command == "" && r.Path == "" && len(r.Flags) == 0 {
		return fmt.Errorf("a rule needs command, flags or path")
	}
	spec := 0
	if r.Command != "" || len(r.Flags) > 0 {
		cp, s, err := compileCommand(r.Command, r.Flags, env.Project, env.Home)
		if err != nil {
			return fmt.Errorf("command %q: %v", r.Command, err)
		}
		r.cmd, spec = cp, s
	}
	if r.Path != "" {
		abs := r.Path
		switch {
		case abs == "~" || strings.HasPrefix(abs, "~/"):
			abs = filepath.Join(env.Home, strings.TrimPrefix(abs, "~"))
			if strings.HasSuffix(r.Path, "/") {
				abs += "/"
			}
		case !filepath.IsAbs(abs):
			abs = filepath.Join(env.Project, abs)
		}
		if strings.HasSuffix(r.Path, "/**") && !strings.HasSuffix(abs, "/**") {
			abs += "/**"
		}
		abs = strings.TrimSuffix(abs, "/")
		if abs == "" {
			abs = "/"
		}
		p, err := word.CompilePath(abs)
		if err != nil {
			return fmt.Errorf("path %q: %v", r.Path, err)
		}
		r.path = p
		spec += pathSpec(abs)
		switch r.Access {
		case "", "any":
			r.acc = argspec.Read | argspec.Write
		case "read":
			r.acc, spec = argspec.Read, spec+1
		case "write":
			r.acc, spec = argspec.Write, spec+1
		default:
			return fmt.Errorf("access must be \"read\", \"write\" or \"any\", not %q", r.Access)
		}
	} else if r.Access != "" {
		return fmt.Errorf("access is only meaningful with path")
	}
	r.spec = spec
	return nil
}
