package policy

import "testing"

// specProg must agree with progKey, which parses the rule.
func TestSpecProgAgrees(t *testing.T) {
	for _, l := range [][]ruleSpec{defaults, absoluteCommands} {
		for _, d := range l {
			if got, want := specProg(d.command), (&Rule{Command: d.command}).progKey(); got != want {
				t.Errorf("specProg(%q) = %q, progKey %q", d.command, got, want)
			}
		}
	}
}
