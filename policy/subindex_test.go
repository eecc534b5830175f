package policy_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
)

// subIndexRules are rules of a few programs with many second words:
// subcommands, operands, words that are options' values elsewhere.
var subIndexRules = strings.Join([]string{
	rule("allow", "git push origin feature-1"), rule("deny", "git push origin main", `why = "protected"`),
	rule("ask", "git push"), rule("allow", "git status"), rule("deny", "git reset --hard"), rule("allow", "git -C * status"),
	rule("allow", "git commit -m *"), rule("deny", "git clean"), rule("allow", "git stash drop"),
	rule("allow", "npm run test"), rule("deny", "npm publish"), rule("allow", "npm test"),
	rule("ask", "rm foo"), rule("allow", "rm build"), rule("deny", "rm -rf build"),
	rule("allow", "tar xf archive.tar"), rule("deny", "tar czf out.tgz"), rule("allow", "find src"), rule("deny", "kill 1"),
	rule("allow", "kubectl get pods"), rule("deny", "kubectl delete ns prod"), rule("allow", "kubectl --context dev get"),
	rule("allow", "tool1 build"), rule("deny", "tool1 deploy --prod"), rule("allow", "tool1 x", `exact = true`),
	rule("allow", "make test"), rule("ask", "make deploy"), rule("allow", "curl localhost"), rule("deny", "docker run"),
	rule("ask", "ssh prod"), rule("allow", "python3 manage.py test"), rule("deny", "sed -i"), rule("allow", "grep foo"),
}, "\n")

var subIndexCommands = []string{
	"git push origin feature-1", "git push origin main", "git push", "git push origin", "git status", "git -C x status",
	"git -C status status", "git --version", "git commit -m push", "git commit --message=status", "git reset --hard HEAD",
	"git clean -fd", "git stash drop", "git stash", `git "$cmd"`, "git push origin $b", "git $(echo push)", "git push origin *",
	"npm run test", "npm test", "npm publish", "npm --prefix x publish", "npm run", "rm foo", "rm -f foo", "rm build",
	"rm -rf build", "rm -- foo", "tar xf archive.tar", "tar -xf archive.tar", "tar czf out.tgz src", "find src -name x",
	"find . -delete", "kill 1", "kill -9 1", "kill -s KILL 1", "kubectl get pods", "kubectl --context dev get pods",
	"kubectl delete ns prod", "kubectl -n x delete ns prod", "tool1 build", "tool1 deploy --prod", "tool1 x", "tool1 x y",
	"tool1", "make test", "make -C x test", "make deploy", "make", "curl localhost", "docker run -it x", "ssh prod ls",
	"python3 manage.py test", "sed -i s/a/b/ f", "grep foo bar", "grep -e foo bar", "/usr/bin/git push origin main",
	"sudo git push origin main", "env git status", "x=1 git push", "git push origin main && git status",
}

// verdicts renders what judging says of cmd, rules and reasons included.
// The matches of an explanation are sorted: the built-in rules a program
// named at run time may be come in no fixed order.
func verdicts(pol *policy.Policy, cmd string, explain bool) string {
	res := judge.Judge(pol, judge.Request{Source: cmd, Cwd: proj, Getenv: getenv, Explain: explain,
		Glob: func(string) []string { return nil }})
	b, _ := json.Marshal(res)
	var v map[string]any
	json.Unmarshal(b, &v)
	parts, _ := v["commands"].([]any)
	for _, p := range parts {
		if m, ok := p.(map[string]any); ok {
			if ms, ok := m["matches"].([]any); ok {
				sort.Slice(ms, func(i, j int) bool { return fmt.Sprint(ms[i]) < fmt.Sprint(ms[j]) })
			}
		}
	}
	b, _ = json.Marshal(v)
	return string(b)
}

// TestSubIndex: judging by the rules of a program that name a word of
// the part decides as judging by all its rules, explanations included.
func TestSubIndex(t *testing.T) {
	for _, explain := range []bool{false, true} {
		was := policy.SetSubIndex(true)
		indexed := build(t, subIndexRules, "", false)
		policy.SetSubIndex(false)
		all := build(t, subIndexRules, "", false)
		for _, cmd := range subIndexCommands {
			policy.SetSubIndex(true)
			got := verdicts(indexed, cmd, explain)
			policy.SetSubIndex(false)
			want := verdicts(all, cmd, explain)
			if got != want {
				t.Errorf("%s (explain %v):\nindexed: %s\nall:     %s", cmd, explain, got, want)
			}
		}
		policy.SetSubIndex(was)
	}
}

// FuzzSubIndex compares judging by subWord with judging by every rule on
// any command text.
func FuzzSubIndex(f *testing.F) {
	for _, cmd := range subIndexCommands {
		f.Add(cmd)
	}
	was := policy.SetSubIndex(true)
	defer policy.SetSubIndex(was)
	f.Fuzz(func(t *testing.T, cmd string) {
		// Fresh policies: the candidate sets are cached per policy.
		policy.SetSubIndex(true)
		indexed := build(t, subIndexRules, "", false)
		got := verdicts(indexed, cmd, true)
		policy.SetSubIndex(false)
		all := build(t, subIndexRules, "", false)
		want := verdicts(all, cmd, true)
		if got != want {
			t.Fatalf("%q:\nindexed: %s\nall:     %s", cmd, got, want)
		}
	})
}
