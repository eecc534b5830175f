package judge_test

import (
	"testing"

	"github.com/guard-exec/guard-exec/policy"
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
