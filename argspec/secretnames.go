package argspec

import (
	"path"
	"slices"
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// secretNameParts are what a variable's name says when it holds a
// secret: a name containing one of them (any case) is secret, unless it
// ends in one of notSecretSuffixes (it names a file holding the secret,
// which is judged when read) or is one of notSecretNames.
var (
	secretNameParts = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "PRIVATE", "API_KEY", "APIKEY", "ACCESS_KEY", "AUTH_KEY", "SESSION_KEY",
		"JWT", "WEBHOOK", "CONNECTION_STRING", "CONNSTR", "AUTH_CONFIG", "SSHPASS"}
	// A URL that reaches a database or a broker carries its password
	// (postgres://user:pw@host/db); _AUTH is npm's (NPM_CONFIG__AUTH).
	secretNameEnds    = []string{"_KEY", "_PAT", "_PWD", "_PASS", "_DSN", "_COOKIE", "_AUTH", "DATABASE_URL", "_DB_URL", "REDIS_URL", "MONGODB_URI", "MONGO_URI", "MONGO_URL", "AMQP_URL", "BROKER_URL", "POSTGRES_URL", "MYSQL_URL"}
	notSecretSuffixes = []string{"_FILE", "_PATH", "_DIR", "_COUNT", "_URL_PATH"}
	notSecretNames    = []string{"TOKENIZERS_PARALLELISM", "GPG_TTY", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS"}
)

// SecretName reports whether a variable's name says it holds a secret.
// The walker marks the expansions of such variables (word.Seg.Secret),
// and the policy judges where they go.
func SecretName(name string) bool {
	if len(name) < 4 {
		return false // the shortest signs are four letters (_KEY): i, f, x, PWD
	}
	n := strings.ToUpper(name)
	if slices.Contains(notSecretNames, n) {
		return false
	}
	for _, s := range notSecretSuffixes {
		if strings.HasSuffix(n, s) {
			return false
		}
	}
	for _, s := range secretNameParts {
		if strings.Contains(n, s) {
			return true
		}
	}
	for _, s := range secretNameEnds {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	return false
}

// KeepsSecrets reports whether a program uses every word of its argv that
// may hold a secret variable's value (word.Seg.Secret) without showing it:
// not printing it, not echoing it in a message, not keeping it in a file.
// Most programs may show any word they get (ls "$TOKEN" prints "cannot
// access 'ghp_…'"); the ones known not to are few:
//   - test and [, when the word is a whole operand of a string or file
//     test ([ -n "$TOKEN" ], [ "$TOKEN" = "$OLD" ]); an integer test
//     prints a value it cannot read, and a word split at blanks may turn
//     into an operator;
//   - curl, when the word is the value of an option that carries a
//     credential (-H, -u, --oauth2-bearer, -b, --pass, …) and no option
//     makes curl print its request (-v, --trace, -w, --libcurl) or read
//     more options (-K).
func KeepsSecrets(argv []word.Word) bool {
	if len(argv) == 0 {
		return false
	}
	prog, ok := argv[0].Static()
	if !ok {
		return false
	}
	switch path.Base(prog) {
	case ":", "true", "false":
		return true
	case "test":
		return testKeeps(argv[1:])
	case "[":
		if n := len(argv); n > 1 {
			if s, ok := argv[n-1].Static(); ok && s == "]" {
				return testKeeps(argv[1 : n-1])
			}
		}
		return false
	case "curl":
		return curlKeeps(Normalize(argv, false))
	}
	return false
}

// secretAfter reports whether every part of w that may hold a secret
// comes after a literal sep.
func secretAfter(w word.Word, sep byte) bool {
	seen := false
	for _, s := range w.Segs {
		if s.Secret && !seen {
			return false
		}
		seen = seen || s.Kind == word.Lit && strings.IndexByte(s.Text, sep) >= 0
	}
	return true
}

// DerivedSecret reports whether w holds a piece or a changed form of a
// secret variable's value (${T#s*}, ${T:0:1}, ${T//a/}), not only the
// value as it is ($T, ${T}). Whether such a piece is empty tells part of
// the value: test -z "${T##$p$c*}" in a loop gives it away a letter at a
// time, so only the value as it is may be tested for emptiness.
func DerivedSecret(w word.Word) bool {
	for _, s := range w.Segs {
		if !s.Secret {
			continue
		}
		t := s.Text
		if strings.HasPrefix(t, "${") && strings.HasSuffix(t, "}") {
			t = "$" + t[2:len(t)-1]
		}
		if !strings.HasPrefix(t, "$") || !word.IsName(t[1:]) {
			return true
		}
	}
	return false
}

// startsWithLit reports whether w's first byte is a literal one that ok
// accepts.
func startsWithLit(w word.Word, ok func(byte) bool) bool {
	for _, s := range w.Segs {
		if s.Kind != word.Lit {
			return false
		}
		if s.Text != "" {
			return ok(s.Text[0])
		}
	}
	return false
}

// hasLit reports whether a literal part of w holds c.
func hasLit(w word.Word, c byte) bool {
	for _, s := range w.Segs {
		if s.Kind == word.Lit && strings.IndexByte(s.Text, c) >= 0 {
			return true
		}
	}
	return false
}

// testKeeps reads test's operands as bash does for one to three of them
// (after any leading "!").
func testKeeps(args []word.Word) bool {
	for _, a := range args {
		if a.HasSecret() && (a.Split || a.Multi) {
			return false // [ -n $TOKEN ]: any number of words
		}
		if DerivedSecret(a) {
			return false // [ -z "${T##s*}" ]: whether a piece is empty
		}
	}
	for len(args) > 0 {
		if s, ok := args[0].Static(); !ok || s != "!" {
			break
		}
		args = args[1:]
	}
	op := func(i int, ops string) bool {
		s, ok := args[i].Static()
		return ok && slices.Contains(strings.Fields(ops), s)
	}
	switch len(args) {
	case 0, 1:
		return true
	case 2:
		return op(0, "-n -z -e -a -f -d -s -r -w -x -L -h -b -c -p -S -g -u -k -O -G -N -t")
	case 3:
		if op(1, "-nt -ot -ef") {
			return true
		}
		// A string comparison tells which way it went: [ "${T:i:1}" = a ]
		// in a loop gives the value away a letter at a time. Against ""
		// it tells only what -z tells.
		return op(1, "= == != < >") && (!args[0].HasSecret() || isEmpty(args[2])) && (!args[2].HasSecret() || isEmpty(args[0]))
	}
	return false
}

// isEmpty reports whether w is the empty string, whatever runs.
func isEmpty(w word.Word) bool {
	s, ok := w.Static()
	return ok && s == ""
}

// curlKeeps: every secret is a credential option's value, and nothing
// prints the request.
func curlKeeps(n *Cmd) bool {
	if n.Open || n.Raw {
		return false
	}
	for _, o := range n.Opts {
		switch o.Name {
		case "--verbose", "--trace", "--trace-ascii", "--write-out", "--libcurl", "--config":
			return false
		}
		if !o.Known {
			return false
		}
		if o.Value == nil || !o.Value.HasSecret() {
			continue
		}
		// Where in the value the secret may stand: after the header's
		// name (-H "$TOKEN" may be @FILE) or the certificate's file name;
		// in a user:password (curl -u "$TOKEN" prompts "Enter host
		// password for user 'ghp_…'"); in a cookie, not a cookie file's
		// name.
		switch o.Name {
		case "--oauth2-bearer", "--pass", "--proxy-pass", "--tlspassword", "--proxy-tlspassword":
		case "--header", "--proxy-header", "--cert":
			if !secretAfter(*o.Value, ':') {
				return false
			}
			// -H @FILE reads headers from FILE, and curl names the file
			// it cannot open: -H "@x:$T" prints the value.
			if o.Name != "--cert" && !startsWithLit(*o.Value, func(b byte) bool { return b != '@' }) {
				return false
			}
		case "--user", "--proxy-user":
			if !hasLit(*o.Value, ':') {
				return false
			}
		case "--cookie":
			if !hasLit(*o.Value, '=') {
				return false
			}
		default:
			return false
		}
	}
	return !slices.ContainsFunc(n.Args, word.Word.HasSecret)
}
