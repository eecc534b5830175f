package argspec

import (
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/word"
)

func TestReadsStdin(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"cat", true}, {"cat -", true}, {"cat notes.txt", false}, {"cat -n notes.txt", false},
		{"wc -l a b", false}, {"wc -l", true}, {"head -n 5", true}, {"head -n 5 f", true}, // no spec: -n may take f

		{"grep x", true}, {"grep x f", false}, {"grep -e x f", false}, {"grep -e x", true},
		{"file -P bytes=5 -", true}, {"file x", false}, {"date -f -", true}, {"grep -f - f", true},
		{"cat /dev/fd/0", true}, {"cat /proc/self/fd/0", true}, {"du --files0-from=-", true},
		{"cp -i a b", true}, {"rm -rI d", true}, {"mv --interactive a b", true}, // they ask a question
		{"rm f", false}, {"mv a b", false}, {"cp -r a b", false},
		{"read l", true}, {"python3 x.py", true}, {"ls -la", false}, {"echo hi", false}, {"sort f", true},
	} {
		var argv []word.Word
		for _, f := range strings.Fields(c.cmd) {
			argv = append(argv, word.FromLit(f))
		}
		if got := ReadsStdin(argv); got != c.want {
			t.Errorf("ReadsStdin(%s) = %v, want %v", c.cmd, got, c.want)
		}
	}
}
