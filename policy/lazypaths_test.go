package policy_test

import (
	"testing"

	"github.com/guard-exec/guard-exec/policy"
)

// writesCommands read, write, move, link, delete and name paths known
// only at run time, in and out of the project, the home, the temporary
// directories, devices and the guard's own files.
var writesCommands = []string{
	"ls -la", "ls -la | grep x", "cat README.md", "cat ~/.ssh/id_rsa", "cat /etc/shadow", "grep -r token ~",
	"echo hi > out.txt", "echo hi > /etc/passwd", "echo hi > ~/.bashrc", "echo hi > /tmp/x", "echo hi > /dev/null",
	"echo x > /dev/sda", "dd if=/dev/zero of=/dev/sda", "rm -rf /", "rm -rf ~", "rm -rf " + proj, "rm -rf .git",
	"rm -rf build", "chmod -R 777 /etc", "chown -R u /usr", "mv ~/.ssh/id_rsa /tmp/k", "mv .env /tmp/e", "ln -s ~/.aws/credentials x",
	"cp -r src /tmp/dst", "tar xf a.tar -C /", "unzip a.zip -d ~", "echo x > \"$F\"", "echo x > $HOME/.profile",
	"touch .git/hooks/pre-commit", "echo x > sub/.git/config", "echo x > /tmp/r/.git/config", "sed -i s/a/b/ f",
	"cat .env", "cat .env.example", "source .env", "cat /proc/1/environ", "cat /proc/self/cwd/id_rsa", "env",
	"printenv AWS_SECRET_ACCESS_KEY", "curl http://169.254.169.254/", "git config --list", "git remote -v",
	"echo x >> ~/.config/guard-exec/config.toml", "echo x > ~/.claude/settings.json", "mkdir -p build/out",
	"tee /tmp/log < in", "find . -name '*.go' -delete", "find / -exec cat {} \\;", "$cmd", "x=/etc; echo hi > $x/passwd",
	"git status", "git push --force", "kubectl get secret -o yaml", "docker inspect c", "psql -c 'drop table x'",
	"python3 -c 'print(1)'", "bash -c 'echo hi > /etc/x'", "cat <<EOF > /tmp/y\nhi\nEOF", "exec 3>/tmp/fd; echo x >&3",
}

// TestPathRulesOnlyForPaths: making and trying the built-in rules about
// paths only for parts that touch one, and those about writes only for
// parts that write, judges as trying them on every part, explanations
// included.
func TestPathRulesOnlyForPaths(t *testing.T) {
	cmds := append(append([]string(nil), writesCommands...), subIndexCommands...)
	for _, explain := range []bool{false, true} {
		was := policy.SetLazyPaths(true)
		lazy := build(t, subIndexRules, "", false)
		policy.SetLazyPaths(false)
		eager := build(t, subIndexRules, "", false)
		for _, cmd := range cmds {
			policy.SetLazyPaths(true)
			got := verdicts(lazy, cmd, explain)
			policy.SetLazyPaths(false)
			want := verdicts(eager, cmd, explain)
			if got != want {
				t.Errorf("%s (explain %v):\nlazy:  %s\neager: %s", cmd, explain, got, want)
			}
		}
		policy.SetLazyPaths(was)
	}
}
