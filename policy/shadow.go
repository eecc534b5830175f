package policy

import (
	"fmt"

	"github.com/guard-exec/guard-exec/word"
)

// Shadowed lists rules of rs that can never decide anything: another rule
// matches everything they match and always wins over them.
func (pol *Policy) Shadowed(rs []*Rule) []string {
	var out []string
	for _, r := range pol.Rules() {
		r.ready() // rules are compiled on first use
	}
	for _, r := range rs {
		if !r.ready() || r.cmd == nil && r.path == nil {
			continue
		}
		if w := pol.absoluteOver(r); w != "" {
			out = append(out, w)
			continue
		}
		for _, o := range pol.Rules() {
			if o == r || !o.covers(r) {
				continue
			}
			if o.Absolute && o.Decision == Deny && r.Decision != Deny {
				out = append(out, fmt.Sprintf("%s: can never %s: the absolute rule %q forbids everything it matches", r.Source, r.Decision, o.Label()))
				break
			}
			if r.Key().Less(o.Key()) {
				what := "can never win"
				if o.Decision == r.Decision {
					what = "is redundant"
				}
				out = append(out, fmt.Sprintf("%s: %s: %s (%s) matches everything it matches and wins (%s)", r.Source, what, o.Source, o.Label(), tiebreak(o, r)))
				break
			}
		}
	}
	return out
}

// covers reports whether o matches at least everything r matches.
func (o *Rule) covers(r *Rule) bool {
	if o.pred != nil || o.predEffect != nil {
		return false
	}
	if (o.path == nil) != (r.path == nil) {
		return false
	}
	if o.path != nil {
		if o.acc&r.acc != r.acc || o.path.Match(patternWord(r.Path, r.path)) != word.Yes {
			return false
		}
		if o.cmd == nil {
			return true
		}
		if r.cmd == nil {
			return false
		}
	}
	oc, rc := o.cmd, r.cmd
	if oc == nil || rc == nil || len(oc.flags) > 0 && !subset(oc.flags, rc.flags) {
		return false
	}
	if oc.progLit == "" || oc.progLit != rc.progLit {
		if oc.prog == nil || rc.prog == nil || oc.prog.Match(rc.words[0]) != word.Yes {
			return false
		}
		return len(oc.rawArgs) == 0 && len(oc.flags) == 0
	}
	if oc.norm != nil && rc.norm != nil {
		if len(oc.subs) > len(rc.subs) || len(oc.args) > len(rc.args) {
			return false
		}
		for i, s := range oc.subs {
			if rc.subs[i] != s {
				return false
			}
		}
		for _, op := range oc.opts {
			found := false
			for _, rp := range rc.opts {
				if rp.name == op.name && (op.value == nil || rp.value != nil && op.value.Match(word.FromLit(rp.value.String())) == word.Yes) {
					found = true
				}
			}
			if !found {
				return false
			}
		}
		for i, a := range oc.args {
			if a.Match(rc.norm.Args[i]) != word.Yes {
				return false
			}
		}
		return true
	}
	if len(oc.rawArgs) > len(rc.rawArgs) {
		return false
	}
	for i, a := range oc.rawArgs {
		if a.Match(rc.words[i+1]) != word.Yes {
			return false
		}
	}
	return true
}

func subset(a, b []string) bool {
	for _, x := range a {
		found := false
		for _, y := range b {
			if x == y {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// patternWord turns a compiled path pattern back into a word whose values
// are the paths it matches.
func patternWord(_ string, p *word.Pattern) word.Word {
	var w word.Word
	src := p.String()
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '*':
			w.Add(word.Seg{Kind: word.Hole, Text: "*"})
			for i+1 < len(src) && src[i+1] == '*' {
				i++
			}
		case '?':
			w.Add(word.Seg{Kind: word.Quest})
		default:
			w.AddLit(string(src[i]))
		}
	}
	return w
}

// absoluteOver reports an allow or ask rule whose own command (or one of
// its match examples) the absolute denylist forbids: it can never apply.
func (pol *Policy) absoluteOver(r *Rule) string {
	if r.Decision == Deny || r.cmd == nil {
		return ""
	}
	examples := append([]string(nil), r.Match...)
	if ws, err := splitRule(r.Command); err == nil {
		literal := true
		for _, w := range ws {
			literal = literal && w.IsStatic()
		}
		if literal {
			examples = append(examples, r.Command)
		}
	}
	for _, ex := range examples {
		parts, err := pol.Parts(ex, "")
		if err != nil {
			continue
		}
		for _, p := range parts {
			v := pol.Decide(p, false)
			if v.Decision == Deny && v.Rule != nil && v.Rule.Absolute {
				return fmt.Sprintf("%s: can never %s %q: the absolute denylist forbids it (%s)", r.Source, r.Decision, ex, v.Rule.Label())
			}
		}
	}
	return ""
}
