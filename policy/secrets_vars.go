package policy

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// secretNameParts are what a variable's name says when it holds a
// secret: a name containing one of them (any case) is secret, unless it
// ends in one of notSecretSuffixes (it names a file holding the secret,
// which is judged when read) or is one of notSecretNames.
var (
	secretNameParts   = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "PRIVATE", "API_KEY", "APIKEY", "ACCESS_KEY", "AUTH_KEY", "SESSION_KEY"}
	secretNameEnds    = []string{"_KEY", "_PAT", "_PWD", "_PASS", "_DSN", "_COOKIE"}
	notSecretSuffixes = []string{"_FILE", "_PATH", "_DIR", "_COUNT", "_URL_PATH"}
	notSecretNames    = []string{"TOKENIZERS_PARALLELISM", "GPG_TTY", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS"}
)

// SecretName reports whether a variable's name says it holds a secret.
func SecretName(name string) bool {
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

// holeVar returns the variable a hole expands ("$NAME", "${NAME…}",
// "${!NAME}" names NAME's value's variable: unknown), or "".
func holeVar(text string) string {
	t, ok := strings.CutPrefix(text, "$")
	if !ok {
		return ""
	}
	braced := strings.HasPrefix(t, "{")
	t = strings.TrimPrefix(t, "{")
	t = strings.TrimPrefix(t, "!")
	end := 0
	for end < len(t) && (t[end] == '_' || t[end] >= 'A' && t[end] <= 'Z' || t[end] >= 'a' && t[end] <= 'z' || end > 0 && t[end] >= '0' && t[end] <= '9') {
		end++
	}
	if braced && (strings.HasPrefix(t[end:], ":+") || strings.HasPrefix(t[end:], "+")) {
		return "" // ${NAME:+set} shows whether it is set, not its value
	}
	return t[:end]
}

// secretHoles reports whether a word expands a secret-named variable.
func secretHoles(w word.Word) bool {
	for _, s := range w.Segs {
		if s.Kind == word.Hole && SecretName(holeVar(s.Text)) {
			return true
		}
	}
	return false
}

// printers print their operands.
func printers(prog string) bool {
	switch prog {
	case "echo", "printf", "print":
		return true
	}
	return false
}

// printsSecretVar matches a command that prints a secret-named variable:
// echo "$GITHUB_TOKEN", printf %s "${API_KEY}", printenv GITHUB_TOKEN,
// declare -p AWS_SECRET_ACCESS_KEY, and cat <<EOF with $TOKEN in the
// body. (A curl -H "Authorization: $TOKEN" uses the secret without
// showing it, and is not this rule's business.)
func printsSecretVar(p *Part) word.Tri {
	if len(p.Argv) == 0 || p.Opaque != "" {
		return word.No
	}
	prog, ok := p.Argv[0].Static()
	if !ok {
		return word.No
	}
	prog = filepath.Base(prog)
	args := p.Argv[1:]
	switch {
	case printers(prog):
		for _, a := range args {
			if strings.HasPrefix(a.Prefix(), "::add-mask::") {
				// A GitHub Actions workflow command: the runner hides the
				// value from every log instead of printing it.
				continue
			}
			if secretHoles(a) {
				return word.Yes
			}
		}
	case prog == "printenv":
		for _, a := range args {
			if s, ok := a.Static(); ok && !strings.HasPrefix(s, "-") && SecretName(s) {
				return word.Yes
			}
			if !a.IsStatic() && envHasSecret(p.env) {
				return word.Maybe // printenv "$v", xargs printenv: any of them
			}
		}
	case prog == "ps":
		// BSD-style e (ps e, ps auxe, ps eww) shows every process's
		// environment, with its secrets.
		for _, a := range args {
			if s, ok := a.Static(); ok && !strings.HasPrefix(s, "-") && strings.Contains(s, "e") && strings.Trim(s, "auxwefjlsvrTSmLhHcnZ") == "" {
				return word.Yes
			}
		}
	case prog == "declare" || prog == "typeset" || prog == "export" || prog == "readonly" || prog == "local":
		// declare -p NAME prints NAME's value.
		if hasDashP(args) {
			for _, a := range args {
				if s, ok := a.Static(); ok && !strings.HasPrefix(s, "-") && SecretName(s) {
					return word.Yes
				}
			}
		}
	}
	if p.Stdin != nil && !p.Stdin.Known && argspec.Is(prog, argspec.ReadOnly) && heredocSecret(p.Stdin.Text) {
		return word.Yes
	}
	return word.No
}

func hasDashP(args []word.Word) bool {
	for _, a := range args {
		if s, ok := a.Static(); ok && strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s, "p") {
			return true
		}
	}
	return false
}

// heredocSecret reports whether a here-document's text expands a
// secret-named variable ($NAME or ${NAME…}). Only a text with expansions
// (Input.Known false) is looked at: a quoted heredoc prints "$TOKEN" as
// written.
func heredocSecret(text string) bool {
	for i := strings.IndexByte(text, '$'); i >= 0; {
		if SecretName(holeVar(text[i:])) {
			return true
		}
		j := strings.IndexByte(text[i+1:], '$')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// dumpsSecretEnv matches a bare dump of the environment (env, printenv,
// set, export -p, declare -x/-p, typeset -p) when the guard's own
// environment, which the command inherits, holds a secret-named variable.
// Without one the dump shows nothing secret and stays allowed.
func dumpsSecretEnv(p *Part) word.Tri {
	if len(p.Argv) == 0 || p.Wrapper || p.Opaque != "" || !isDump(p) {
		return word.No
	}
	if envHasSecret(p.env) {
		return word.Yes
	}
	return word.No
}

// envHasSecret reports whether the guard's environment holds a variable
// whose name says it is a secret.
func envHasSecret(env *Env) bool {
	if env == nil {
		return false
	}
	for _, v := range env.Vars {
		if SecretName(v) {
			return true
		}
	}
	return false
}

func isDump(p *Part) bool {
	prog, ok := p.Argv[0].Static()
	if !ok {
		return false
	}
	args := p.Argv[1:]
	operands := 0
	for _, a := range args {
		s, ok := a.Static()
		if !ok {
			return false // set $x, declare "$@": not a plain dump
		}
		if !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "+") {
			operands++
		}
	}
	switch filepath.Base(prog) {
	case "env":
		// env with a command is a wrapper (judged as that command); env
		// -u NAME and -0 still print the rest.
		for i := 0; i < len(args); i++ {
			s, _ := args[i].Static()
			switch {
			case s == "-i" || s == "-" || s == "--ignore-environment" || strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s, "i"):
				return false // an empty environment: only what the command line sets
			case s == "-u" || s == "--unset" || s == "-C" || s == "--chdir" || s == "-S" || s == "--split-string":
				i++
			case strings.HasPrefix(s, "-"):
			case strings.Contains(s, "="):
			default:
				return false
			}
		}
		return true
	case "printenv":
		return operands == 0
	case "set":
		return len(args) == 0
	case "jq", "gojq", "awk", "gawk", "mawk", "nawk", "original-awk", "busybox":
		// What the program's language reads of the environment (argspec):
		// all of it, or a secret-named variable, is a dump.
		all, names, _ := argspec.EnvReads(prog, args)
		return all || slices.ContainsFunc(names, SecretName)
	case "export", "declare", "typeset", "readonly":
		if operands > 0 {
			return false
		}
		if len(args) == 0 {
			return true // export, declare: every exported (or every) variable
		}
		for _, a := range args {
			s, _ := a.Static()
			if strings.HasPrefix(s, "-") && strings.ContainsAny(s, "px") && !strings.ContainsAny(s, "fF") {
				return true
			}
		}
	}
	return false
}

// metadataHosts are the cloud metadata services, which hand a machine's
// credentials to whoever asks: AWS (and its ECS and EKS agents), Google,
// Azure, Alibaba, Oracle.
var metadataHosts = []string{"169.254.169.254", "169.254.170.2", "169.254.170.23", "100.100.100.200", "192.0.0.192", "fd00:ec2::254", "fd00:ec2::23"}
var metadataNames = []string{"metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal", "metadata.azure.com"}

// metadataRequest matches a command whose words name a cloud metadata
// endpoint, in any spelling an HTTP client resolves to it: 169.254.169.254,
// 2852039166, 0xA9FEA9FE, 0251.0376.0251.0376, 169.254.43518,
// [::ffff:169.254.169.254], metadata.google.internal. Programs of the
// read-only catalogue do not connect anywhere (grep 169.254.169.254 log).
func metadataRequest(p *Part) word.Tri {
	if len(p.Argv) < 2 {
		return word.No
	}
	prog, ok := p.Argv[0].Static()
	if !ok || argspec.Is(filepath.Base(prog), argspec.ReadOnly) {
		return word.No
	}
	for _, a := range p.Argv[1:] {
		if !a.HasHole() {
			// Globs included: http://[::ffff:a9fe:a9fe]/ reads as a
			// bracket expression, and curl sees the text.
			if mentionsMetadata(a.String()) {
				return word.Yes
			}
			continue
		}
		for _, s := range a.Segs {
			if s.Kind == word.Lit && mentionsMetadata(s.Text) {
				return word.Yes
			}
		}
	}
	return word.No
}

// mentionsMetadata reports whether text holds a URL or host that is a
// metadata endpoint.
func mentionsMetadata(text string) bool {
	if !strings.ContainsAny(text, "0123456789") && !strings.Contains(text, "metadata") && !strings.Contains(text, "instance-data") {
		return false // every address has a digit: most words are settled here
	}
	tokens := strings.FieldsFunc(text, func(r rune) bool {
		return strings.ContainsRune(" \t\n,;=@'\"<>()|&", r)
	})
	for _, t := range tokens {
		if _, rest, ok := strings.Cut(t, "://"); ok {
			t = rest
		}
		host := t
		if i := strings.IndexAny(host, "/?#\\"); i >= 0 {
			host = host[:i]
		}
		if metadataHost(host) {
			return true
		}
		if strings.HasPrefix(host, "[") {
			if end := strings.IndexByte(host, ']'); end > 0 && metadataHost(host[1:end]) {
				return true
			}
			continue
		}
		// host:port, and curl --resolve/--connect-to's host:port:addr.
		for _, part := range strings.Split(host, ":") {
			if metadataHost(part) {
				return true
			}
		}
	}
	return false
}

func metadataHost(h string) bool {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	if h == "" {
		return false
	}
	if slices.Contains(metadataNames, h) {
		return true
	}
	if a, ok := inetAton(h); ok {
		return metadataAddr(a)
	}
	if z := strings.IndexByte(h, '%'); z >= 0 && strings.Contains(h, ":") {
		h = h[:z] // an IPv6 zone
	}
	if a, ok := parseIPv6(h); ok {
		return metadataAddr(a)
	}
	// Names that wildcard DNS services resolve to the address they spell:
	// 169.254.169.254.nip.io, 169-254-169-254.sslip.io, a9fea9fe.nip.io.
	labels := strings.Split(h, ".")
	if len(labels) > 1 {
		for i := 0; i+4 <= len(labels); i++ {
			if a, ok := inetAton(strings.Join(labels[i:i+4], ".")); ok && metadataAddr(a) {
				return true
			}
		}
		for _, l := range labels {
			if a, ok := inetAton(strings.ReplaceAll(l, "-", ".")); ok && metadataAddr(a) {
				return true
			}
			if len(l) == 8 {
				if a, ok := inetAton("0x" + l); ok && metadataAddr(a) {
					return true
				}
			}
		}
	}
	return false
}

// An address is 16 bytes, an IPv4 one mapped (::ffff:a.b.c.d). Written
// here rather than with net/netip, whose package initialisation every
// command would pay; TestParseIPv6 holds parseIPv6 to netip.

// metadataAddr reports whether a is a metadata endpoint's address, also
// when an IPv6 address embeds one's IPv4 address (::a9fe:a9fe, IPv4-compatible).
func metadataAddr(a [16]byte) bool {
	if [12]byte(a[:12]) == [12]byte{} {
		a[10], a[11] = 0xff, 0xff
	}
	for _, h := range metadataHosts {
		b, ok := inetAton(h)
		if !ok {
			b, ok = parseIPv6(h)
		}
		if ok && a == b {
			return true
		}
	}
	return false
}

// parseIPv6 reads an IPv6 address as netip.ParseAddr does (no zone): up
// to eight groups of one to four hex digits, at most one "::", and an
// IPv4 address in the last 32 bits.
func parseIPv6(s string) ([16]byte, bool) {
	var a [16]byte
	if !strings.Contains(s, ":") {
		return a, false
	}
	ellipsis := -1 // where "::" stands, in bytes of a
	i := 0
	if strings.HasPrefix(s, "::") {
		ellipsis, s = 0, s[2:]
	}
	for s != "" {
		if i == 16 {
			return a, false
		}
		// An IPv4 address in the last 32 bits.
		if j := strings.IndexAny(s, ".:"); j >= 0 && s[j] == '.' {
			v4, ok := strictIPv4(s)
			if !ok || i > 12 {
				return a, false
			}
			copy(a[i:], v4[:])
			i += 4
			break
		}
		n, off := 0, 0
		for ; off < len(s); off++ {
			d := strings.IndexByte("0123456789abcdef", s[off]|0x20)
			if d < 0 || s[off] < '0' {
				break
			}
			if off == 4 {
				return a, false
			}
			n = n<<4 | d
		}
		if off == 0 {
			return a, false
		}
		a[i], a[i+1] = byte(n>>8), byte(n)
		i += 2
		switch s = s[off:]; {
		case s == "":
		case strings.HasPrefix(s, "::"):
			if ellipsis >= 0 {
				return a, false
			}
			ellipsis, s = i, s[2:]
		case s[0] == ':' && len(s) > 1:
			s = s[1:]
		default:
			return a, false
		}
	}
	switch {
	case i < 16 && ellipsis < 0:
		return a, false
	case i == 16 && ellipsis >= 0:
		return a, false // "::" stands for at least one group
	case i < 16:
		n := 16 - i
		copy(a[ellipsis+n:], a[ellipsis:i])
		clear(a[ellipsis : ellipsis+n])
	}
	return a, true
}

// strictIPv4 reads a.b.c.d, each part decimal 0-255 without leading zeros.
func strictIPv4(s string) ([4]byte, bool) {
	var b [4]byte
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return b, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 || p != strconv.Itoa(n) {
			return b, false
		}
		b[i] = byte(n)
	}
	return b, true
}

// inetAton reads an IPv4 address the way inet_aton (and so curl and
// wget) do: one to four parts, each decimal, 0x hex or 0 octal, the last
// filling the remaining bytes (169.254.43518, 2852039166).
func inetAton(s string) ([16]byte, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return [16]byte{}, false
	}
	vals := make([]uint64, len(parts))
	for i, p := range parts {
		base := 10
		switch {
		case len(p) > 2 && (p[:2] == "0x" || p[:2] == "0X"):
			base, p = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		v, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return [16]byte{}, false
		}
		vals[i] = v
	}
	var n uint64
	last := len(vals) - 1
	for i, v := range vals[:last] {
		if v > 255 {
			return [16]byte{}, false
		}
		n |= v << (24 - 8*uint(i))
	}
	if vals[last] >= 1<<(8*uint(4-last)) {
		return [16]byte{}, false
	}
	n |= vals[last]
	return [16]byte{10: 0xff, 11: 0xff, 12: byte(n >> 24), 13: byte(n >> 16), 14: byte(n >> 8), 15: byte(n)}, true
}
