package policy_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shellparse"
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
		Glob: shellparse.NoGlob})
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

// pathIndexRules are path rules of many shapes: trees, globs at every
// depth, alternatives, classes, escapes, the home, absolute, the root.
var pathIndexRules = strings.Join([]string{
	rule("ask", "", `path = "area2/**"`, `access = "write"`), rule("deny", "", `path = "area6/**"`, `access = "write"`),
	rule("ask", "", `path = "area60/x"`), rule("deny", "", `path = "src/*.go"`, `access = "write"`),
	rule("ask", "", `path = "**/secret*"`, `access = "read"`), rule("deny", "", `path = "{docs,site}/out/**"`),
	rule("ask", "", `path = "d[12]/**"`, `access = "write"`), rule("deny", "", `path = "~/.ssh/**"`),
	rule("ask", "", `path = "~/notes"`), rule("deny", "", `path = "/srv/data/**"`, `access = "write"`),
	rule("ask", "", `path = "build"`, `access = "write"`), rule("allow", "", `path = "tmpout/**"`, `access = "write"`),
	rule("ask", "", `path = "lib/"`), rule("deny", "", `path = "a?c/**"`, `access = "write"`),
	rule("ask", "", `path = "/"`, `access = "write"`), rule("ask", "", `path = "ar*/deep/**"`),
	rule("deny", "", `path = "~"`, `access = "write"`), rule("ask", "", `path = "area2x"`),
	rule("allow", "touch", `path = "area2/ok"`, `access = "write"`),
}, "\n")

var pathIndexCommands = []string{
	"touch area2/x", "touch area2", "touch area2x", "touch area20/x", "touch area6/x area60/x", "cat area60/x",
	"cp -r src area2", "cp -r area2 area6/x", "rm -rf area", "rm -rf ar", "rm -r .", "rm -rf /", "rm -rf ~",
	"grep -r key .", "grep -r key ~", "cat secret.txt", "cat x/y/secret", "echo > src/a.go", "echo > src/sub/a.go",
	"touch docs/out/x site/out/y", "touch d1/x d3/x", "cat ~/.ssh/id_rsa", "ls ~/.ssh", "cp ~/.ssh/id_rsa .",
	"echo > ~/notes", "cat ~/notes/x", "touch /srv/data/x", "touch /srv/d", "touch /srv", "touch build",
	"mkdir -p build/x", "touch tmpout/x", "touch lib/x", "touch lib", "touch abc/x", "touch a/c",
	"touch area2/ok", "touch area2/ok area2/no", `touch "$X"`, "touch $X/x", "touch area2/$X", "touch ar$X",
	"touch area*", "touch */x", "touch ~/$X", "touch /$X", "touch $(pwd)/area2/x", "echo > area2/../area6/x",
	"tar xf t.tar -C area2", "unzip z.zip -d d2", "mv area2 area6", "sed -i s/a/b/ src/a.go", "cat ar/deep/x",
	"touch arx/deep", "find . -delete", "find area2 -delete", "ln -s /etc area2/l", "dd of=area6/x",
	// Spellings a case-insensitive file system takes for the same path.
	"touch AREA2/x", "touch Area6/X", "cat ~/.SSH/id_rsa", "touch SRC/A.GO", "touch D1/x", "touch TMPOUT/x",
	"touch /SRV/data/x", "cat X/Secret.txt", "touch Area2/OK", "touch AREA$X/x", "touch A$X/x",
}

// TestPathIndex: trying the configured path rules whose literal prefix an
// effect's path may reach decides as trying every one, explanations
// included.
func TestPathIndex(t *testing.T) {
	for _, explain := range []bool{false, true} {
		for _, cmd := range pathIndexCommands {
			if got, want := pathIndexed(t, cmd, explain); got != want {
				t.Errorf("%s (explain %v):\nindexed: %s\nall:     %s", cmd, explain, got, want)
			}
		}
	}
}

// FuzzPathIndex is TestPathIndex on any command text.
func FuzzPathIndex(f *testing.F) {
	for _, cmd := range pathIndexCommands {
		f.Add(cmd)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if got, want := pathIndexed(t, cmd, true); got != want {
			t.Fatalf("%q:\nindexed: %s\nall:     %s", cmd, got, want)
		}
	})
}

// pathIndexed judges cmd with the path index and without, each with a
// fresh policy (what a policy has made and tried, it keeps).
func pathIndexed(t *testing.T, cmd string, explain bool) (indexed, all string) {
	was := policy.SetPathIndex(true)
	defer policy.SetPathIndex(was)
	indexed = verdicts(build(t, pathIndexRules, "", false), cmd, explain)
	policy.SetPathIndex(false)
	all = verdicts(build(t, pathIndexRules, "", false), cmd, explain)
	return indexed, all
}

// TestRuleKeysAndLiteralRoots: a rule is found for its program however
// its name is spelled ('tou”ch' is touch), and the project's and the
// home's names are literal text in a path rule's pattern, whatever bytes
// they hold (a directory named pj[1] is not the class [1]).
func TestRuleKeysAndLiteralRoots(t *testing.T) {
	for _, root := range []string{"/home/u/pj[1]", "/home/u/pj{a,b}", `/home/u/pj\x`, "/home/u/p*j"} {
		env := &policy.Env{Home: root + "/h[1]", Project: root, Temp: []string{"/tmp"}}
		env.Protect = []string{env.Home + "/.config/guard-exec/config.toml"}
		text := strings.Join([]string{
			rule("deny", "'tou''ch' pwned"), rule("deny", `"tou"ch again`),
			rule("ask", "", `path = "secret/**"`, `access = "read"`),
			rule("ask", "", `path = "~/keys/**"`, `access = "read"`),
		}, "\n")
		for _, fast := range []bool{true, false} {
			if !fast {
				text = "presets = []\n" + text // read by the TOML decoder
			}
			f, err := policy.ParseFile("user.toml", []byte(text), policy.User)
			if err != nil {
				t.Fatal(err)
			}
			pol, err := policy.Build(policy.Sources{Env: env, User: f})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []want{
				{"touch pwned", "deny"}, {"touch again", "deny"}, {"touch other", "allow"},
				{"cat secret/k", "ask"}, {"cat '" + root + "/secret/k'", "ask"}, {"cat '" + env.Home + "/keys/k'", "ask"},
				{"cat notes.txt", "allow"},
				{"echo x > '" + env.Protect[0] + "'", "deny"}, // the guard's own file, whatever its name holds
				{"touch '" + env.Home + "/.bashrc'", "ask"},
			} {
				r := judge.Judge(pol, judge.Request{Source: c.cmd, Cwd: root, Getenv: func(k string) string {
					return map[string]string{"HOME": env.Home, "TMPDIR": "/tmp"}[k]
				}, Glob: shellparse.NoGlob})
				if r.Decision != c.decision {
					t.Errorf("%s (fast %v): %q → %s (%s), want %s", root, fast, c.cmd, r.Decision, r.Reason, c.decision)
				}
			}
		}
	}
}
