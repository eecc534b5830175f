package argspec

import "testing"

// The one list of what a variable's name says.
func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "gh_token": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_ACCESS_KEY_ID": true,
		"DB_PASSWORD": true, "MYSQL_PASSWD": true, "GPG_PASSPHRASE": true, "GOOGLE_CREDENTIALS": true,
		"SSH_PRIVATE": true, "OPENAI_API_KEY": true, "STRIPE_KEY": true, "GITHUB_PAT": true, "SMTP_PASS": true,
		"SENTRY_DSN": true, "NPM_TOKEN": true, "ANTHROPIC_API_KEY": true,
		// a red team's second round
		"DATABASE_URL": true, "SSHPASS": true, "CI_JOB_JWT": true, "DOCKER_AUTH_CONFIG": true,
		"AZURE_STORAGE_CONNECTION_STRING": true, "NPM_CONFIG__AUTH": true, "SLACK_WEBHOOK_URL": true,
		"REDIS_URL": true, "MONGODB_URI": true, "CELERY_BROKER_URL": true, "TEST_DATABASE_URL": true,
		"DATABASE_URL_PATH": false, "API_URL": false, "BASE_URL": false, "AUTHOR": false,
		"PATH": false, "HOME": false, "PWD": false, "OLDPWD": false, "TOKENIZERS_PARALLELISM": false,
		"SSH_AUTH_SOCK": false, "GPG_TTY": false, "GIT_ASKPASS": false, "AWS_SHARED_CREDENTIALS_FILE": false,
		"GOOGLE_APPLICATION_CREDENTIALS_PATH": false, "KEYBOARD": false, "MONKEY": false, "LANG": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", name, got, want)
		}
	}
}
