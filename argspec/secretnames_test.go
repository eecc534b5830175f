package argspec

import "testing"

// The one list of what a variable's name says.
func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "gh_token": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_ACCESS_KEY_ID": true,
		"DB_PASSWORD": true, "MYSQL_PASSWD": true, "GPG_PASSPHRASE": true, "GOOGLE_CREDENTIALS": true,
		"SSH_PRIVATE": true, "OPENAI_API_KEY": true, "STRIPE_KEY": true, "GITHUB_PAT": true, "SMTP_PASS": true,
		"SENTRY_DSN": true, "NPM_TOKEN": true, "ANTHROPIC_API_KEY": true,
		"PATH": false, "HOME": false, "PWD": false, "OLDPWD": false, "TOKENIZERS_PARALLELISM": false,
		"SSH_AUTH_SOCK": false, "GPG_TTY": false, "GIT_ASKPASS": false, "AWS_SHARED_CREDENTIALS_FILE": false,
		"GOOGLE_APPLICATION_CREDENTIALS_PATH": false, "KEYBOARD": false, "MONKEY": false, "LANG": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", name, got, want)
		}
	}
}
