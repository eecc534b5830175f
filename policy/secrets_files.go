package policy

import (
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/atomicfile"
	"github.com/guard-exec/guard-exec/word"
)

// Secrets anywhere, known by their names or their content: private keys,
// keystores, Terraform state, token files. A file whose name always
// means a secret asks when read, there or not; a file whose name only may
// (server.pem, .npmrc, credentials.json) asks when what it holds when the
// command is judged says so (a PRIVATE KEY block, an auth token, a
// service account's key). Recursive reads (grep -r x .) are not looked
// into for these: the home's rows and dotenv files are.

// SecretName reports whether a file's name says it holds, or may hold, a
// secret: a key, a token file, a dotenv file, or a credential directory of
// a home (.ssh, .aws, .gnupg).
func SecretName(base string) bool {
	base = word.FoldCase(base) // ID_RSA is id_rsa on a case-insensitive file system
	switch base {
	case ".ssh", ".aws", ".gnupg":
		return true
	}
	return secretByName(base) || envFile(base) || secretContent(base) != nil
}

// secretByName reports whether a file's name always means a secret.
func secretByName(base string) bool {
	base = word.FoldCase(base)
	switch base {
	case "master.key", ".git-credentials", ".netrc", "_netrc", ".pgpass", ".vault-token":
		return true
	}
	// An SSH key and its copies (id_rsa.bak, id_rsa~, id_ed25519.old),
	// a host key (ssh_host_rsa_key); not the public halves.
	if strings.HasSuffix(base, ".pub") {
		return false
	}
	for _, k := range []string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"} {
		if strings.HasPrefix(base, k) {
			return true
		}
	}
	if strings.HasPrefix(base, "ssh_host_") && strings.Contains(base, "_key") {
		return true
	}
	l := strings.ToLower(base)
	for _, ext := range []string{".tfstate", ".tfstate.backup", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".ppk"} {
		if strings.HasSuffix(l, ext) {
			return true
		}
	}
	return false
}

// secretContent is, for a name that may hold a secret, the pattern of
// what says it does; nil when the name is not one of them.
func secretContent(base string) *regexp.Regexp {
	base = word.FoldCase(base)
	l := base
	switch {
	case strings.HasSuffix(l, ".pem") || strings.HasSuffix(l, ".key") || strings.HasSuffix(l, ".crt") ||
		strings.HasSuffix(l, ".cer") || strings.HasSuffix(l, "_key") || l == "key":
		// A certificate file may hold its key too (server.crt with
		// both blocks), and deploy_key is a key by another name.
		return privateKeyBlock()
	case base == ".npmrc" || base == ".yarnrc.yml" || base == ".pypirc":
		return tokenLine()
	case strings.HasSuffix(base, ".json"):
		l := strings.ToLower(base)
		for _, w := range []string{"cred", "secret", "service", "account", "key", "token", "auth"} {
			if strings.Contains(l, w) {
				return jsonSecret()
			}
		}
	}
	return nil
}

var (
	privateKeyBlock = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----`) })
	tokenLine       = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?im)^\s*(\S*:)?(_authToken|_auth|_password|npmAuthToken|npmAuthIdent|password)\s*[=:]`)
	})
	jsonSecret = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`"(private_key|client_secret|refresh_token|access_token|secret_access_key)"\s*:`)
	})
)

// maxSecretProbe bounds what is read of one file to look for a secret.
const maxSecretProbe = 256 << 10

// readsSecretFile matches a read of a file whose name or content says it
// holds a secret.
func readsSecretFile(p *Part, e Effect) word.Tri {
	if !readsContent(e) || e.Recursive && e.Op != "move" && e.Op != "link" {
		return word.No // a move's or a link's own name is looked at, not a tree's
	}
	paths := e.Path.Matches
	if s, ok := e.Path.Static(); ok {
		paths = []string{s}
	} else if tail, ok := writtenTail(e); ok && len(paths) == 0 {
		// cat "$d"/server.key: the name is known, the place is not.
		if base := filepath.Base(tail); secretByName(base) || secretContent(base) != nil {
			return word.Maybe
		}
	}
	for _, s := range paths {
		base := filepath.Base(s)
		if secretByName(base) {
			return word.Yes
		}
		if re := secretContent(base); re != nil {
			if t := probeSecret(s, re); t != word.No {
				return t
			}
		}
	}
	return word.No
}

// probeSecret reads the file at path for what re says is a secret: Yes
// when it holds one, Maybe when it is larger than what is read of it (a
// larger file than a key or token file may still hold one).
func probeSecret(path string, re *regexp.Regexp) word.Tri {
	b, err := atomicfile.ReadFile(path, maxSecretProbe)
	switch {
	case err == nil && re.Match(b):
		return word.Yes
	case errors.Is(err, atomicfile.ErrTooLarge):
		return word.Maybe
	}
	return word.No
}
