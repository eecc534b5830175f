package judge_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/guard-exec/guard-exec/judge"
	"github.com/guard-exec/guard-exec/policy"
	"github.com/guard-exec/guard-exec/shellparse"
)

// A case-insensitive file system (macOS's APFS and HFS+, NTFS and FAT
// under WSL's /mnt/c) opens ~/.ssh/id_rsa for ~/.SSH/ID_RSA and runs rm
// for RM: every protecting rule holds for every spelling, and a
// spelling that differs is never allowed by the rule for another.
func TestCaseInsensitiveSpellings(t *testing.T) {
	f, err := policy.ParseFile("user.toml", []byte(`
[[rule]]
decision = "deny"
path = "secrets/**"
access = "read"
[[rule]]
decision = "allow"
path = "~/.aws/credentials"
access = "read"
`), policy.User)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{
		Env: &policy.Env{
			Home: home, Project: proj, Temp: []string{"/tmp"},
			Protect:      []string{home + "/.config/guard-exec", proj + "/.guard-exec.toml"},
			ProtectAgent: []string{home + "/.claude", proj + "/.claude"},
		},
		User: f,
	})
	if err != nil {
		t.Fatal(err)
	}
	rows := []row{
		// Credentials, by directory and by name.
		{"cat ~/.SSH/ID_RSA", "ask"},
		{"cat ~/.Ssh/id_ed25519", "ask"},
		{"cat ~/.ſsh/id_rsa", "ask"}, // long s folds to s
		{"cat ~/.Aws/config ~/.AWS/credentialS", "ask"},
		{"cat ~/.Kube/Config", "ask"},
		{"cat /tmp/x/ID_RSA", "ask"},
		{"cat deploy.PEM.bak ./Server.KEYSTORE", "ask"},
		{"cat .ENV", "ask"},
		{"cat config/.Env.Local", "ask"},
		{"cat \"$d\"/.SSH/id_rsa", "ask"},
		{"cd ~/.SSH && cat \"$f\"", "ask"},
		{"grep -r x ~/.Aws", "ask"},
		{"cat /ETC/ssh/ssh_host_rsa_key", "ask"},
		// The templates and public halves stay readable in any spelling.
		{"cat .ENV.EXAMPLE", "allow"},
		{"cat ~/.SSH/ID_RSA.PUB", "allow"},
		{"cat ~/.ssh/Known_Hosts", "allow"},
		// A configured deny protects every spelling; an allow is exact.
		{"cat SECRETS/token.txt", "deny"},
		{"cat ~/.aws/credentials", "allow"},
		{"cat ~/.AWS/Credentials", "ask"},
		// The agent's and the guard's own files, git's hooks.
		{"echo x > ~/.Claude/settings.json", "deny"},
		{"echo x > .CLAUDE/settings.local.json", "deny"},
		{"rm -rf ~/.CLAUDE", "deny"},
		{"echo x > ~/.Config/Guard-Exec/config.toml", "deny"},
		{"echo x > .Guard-Exec.toml", "deny"},
		{"echo x > .GIT/hooks/pre-commit", "ask"},
		{"echo x > .Git/Config", "ask"},
		// Characters HFS+ ignores, NTFS's upper case of the dotless ı.
		{"cat ~/.a\u200cws/credentials", "ask"}, {"cat .e\u200cnv", "ask"}, {"echo x > .g\u200cit/hooks/pre-commit", "ask"},
		{"echo x > ~/.c\u200claude/settings.json", "deny"}, {"echo x > .gıt/hooks/pre-commit", "ask"}, {"cat ~/.ssh/ıd_rsa", "ask"},
		// Trees written into another spelling of a protected directory.
		{"cp -r /tmp/x/. .CLAUDE", "deny"}, {"mv /tmp/x .Claude", "deny"}, {"tar xf x.tar -C .CLAUDE", "deny"},
		{"unzip x.zip -d .CLAUDE", "deny"}, {"cp -r /tmp/x/. .claude", "deny"},
		// Trees that hold the system.
		{"rm -rf /USR", "deny"},
		{"rm -rf /Etc/", "deny"},
		// Programs: found by any spelling, judged as what runs, never
		// allowed for the spelling.
		{"RM -rf /", "deny"},
		{"Rm -rf ~", "deny"},
		{"/BIN/RM -rf /", "deny"},
		{"DD if=/dev/zero of=/dev/sda", "deny"},
		{"BASH -c 'rm -rf ~'", "deny"},
		{"Sh -c 'rm -rf /'", "deny"},
		{"ENV rm -rf /", "deny"},
		{"Bash -c 'RM -rf ~'", "deny"}, {"SUDO RM -rf /", "deny"}, {"ENV RM -rf /", "deny"}, {"echo / | XARGS RM -rf", "deny"},
		{"NICE TIMEOUT 5 Rm -rf /", "deny"}, {"BASH -c 'BASH -c \"rm -rf /\"'", "deny"},
		{"CAT ~/.ssh/id_rsa", "ask"},
		{"LS -la", "ask"},
		// The everyday spellings are untouched.
		{"ls -la", "allow"},
		{"cat README.md src/Main.java", "allow"},
		{"echo x > Build/Output.TXT", "allow"},
	}
	for _, r := range rows {
		res := judgeText(pol, r.cmd)
		if res.Decision != r.want {
			t.Errorf("%q → %s (%s), want %s", r.cmd, res.Decision, res.Reason, r.want)
		}
	}
}

// A tree written into a directory above a protected file, in another
// spelling, may overwrite it; removing one that holds it removes it.
func TestCaseInsensitiveTrees(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{
		Home: home, Project: dir, Temp: []string{"/tmp"},
		ProtectAgent: []string{filepath.Join(dir, ".claude", "settings.json")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []row{
		{"cp -r /tmp/x/. .CLAUDE", "ask"}, {"cp -r /tmp/x/. .claude", "ask"}, {"tar xf x.tar -C .Claude", "ask"},
		{"mv .CLAUDE /tmp/c", "deny"}, {"mv .claude /tmp/c", "deny"}, {"rm -rf .Claude", "deny"},
		{"cp -r /tmp/x/. src", "allow"},
	} {
		res := judge.Judge(pol, judge.Request{Source: r.cmd, Cwd: dir, Getenv: getenv, Glob: shellparse.NoGlob})
		if res.Decision != r.want {
			t.Errorf("%q → %s (%s), want %s", r.cmd, res.Decision, res.Reason, r.want)
		}
	}
}
