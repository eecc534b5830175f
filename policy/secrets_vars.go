package policy

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/atomicfile"
	"github.com/guard-exec/guard-exec/shellparse"
	"github.com/guard-exec/guard-exec/word"
)

// printsSecretVar matches a command that shows a secret-named variable:
// one that gives its value (word.Seg.Secret, which the walker marks) to
// a program that may show it (echo "$GITHUB_TOKEN", python3 x.py
// "$API_KEY", cat <<< "$TOKEN", ls $TOKEN), copies it into a variable
// whose name does not say it is secret (X=$TOKEN, for x in $TOKEN), or
// names it for printenv, declare -p or ps e. Only what the catalogue
// knows keeps it (argspec.KeepsSecrets: [ -n "$TOKEN" ], curl -H
// "Authorization: Bearer $TOKEN").
func printsSecretVar(p *Part) word.Tri {
	if p.Traced && (slices.ContainsFunc(p.Argv, word.Word.HasSecret) || slices.ContainsFunc(p.Assigns, func(a shellparse.Assign) bool { return a.Value.HasSecret() })) {
		return word.Yes // set -x prints the command, expanded: + curl -H 'Authorization: Bearer ghp_…'
	}
	for _, a := range p.Assigns {
		// A secret-named copy keeps the value as it is (GH_TOKEN=$T), not
		// a piece of it, which a test of its emptiness would then tell.
		if a.Value.HasSecret() && (!argspec.SecretName(a.Name) || argspec.DerivedSecret(a.Value)) {
			return word.Yes
		}
	}
	for _, r := range p.Redirs {
		if r.Secret || r.Target.HasSecret() {
			return word.Yes // a file named by it, or text on another descriptor
		}
	}
	if p.Stdin != nil && p.Stdin.Secret {
		return word.Yes
	}
	if len(p.Argv) == 0 {
		return word.No
	}
	prog, ok := p.Argv[0].Static()
	if !ok {
		if slices.ContainsFunc(p.Argv, word.Word.HasSecret) {
			return word.Yes // $TOKEN as a command: "command not found" shows it
		}
		return word.No
	}
	prog = filepath.Base(prog)
	if showsSecretWords(p, prog) {
		return word.Yes
	}
	args := p.Argv[1:]
	switch {
	case prog == "printenv":
		for _, a := range args {
			if s, ok := a.Static(); ok && !strings.HasPrefix(s, "-") && argspec.SecretName(s) {
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
			// procps reads a dashed cluster with x as BSD options too:
			// ps -auxe, -xe and -aexww print environments (ps -ef does not).
			if s, ok := a.Static(); ok && strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s, "e") && strings.Contains(s, "x") {
				return word.Yes
			}
		}
	case prog == "declare" || prog == "typeset" || prog == "export" || prog == "readonly" || prog == "local":
		// declare -p NAME prints NAME's value.
		if hasDashP(args) {
			for _, a := range args {
				if s, ok := a.Static(); ok && !strings.HasPrefix(s, "-") && argspec.SecretName(s) {
					return word.Yes
				}
			}
		}
	}
	return word.No
}

// showsSecretWords reports whether a command's own words give a secret
// variable's value to a program that may show it. A wrapper's own words
// are those before the command it runs (judged as a part of its own);
// an assignment word of declare, export or env is judged where the part
// carries it (Assigns).
func showsSecretWords(p *Part, prog string) bool {
	own := p.Argv
	if p.Wrapper && !tracers(prog) {
		if in, _, ok := argspec.Wrapped(prog, p.Argv); ok && in != nil && len(in.Argv) > 0 && len(in.Argv) < len(own) {
			own = own[:len(own)-len(in.Argv)]
		}
	}
	assigning := prog == "env" || prog == "declare" || prog == "typeset" || prog == "export" || prog == "readonly" || prog == "local"
	for _, a := range own[1:] {
		if !a.HasSecret() {
			continue
		}
		if assigning {
			if pre := a.Prefix(); strings.Contains(pre, "=") && word.IsName(pre[:strings.IndexByte(pre, '=')]) {
				continue
			}
		}
		if printers(prog) && strings.HasPrefix(a.Prefix(), "::add-mask::") {
			// A GitHub Actions workflow command: the runner hides the
			// value from every log instead of printing it.
			continue
		}
		if !argspec.KeepsSecrets(p.Argv) {
			return true
		}
	}
	return false
}

func hasDashP(args []word.Word) bool {
	for _, a := range args {
		if s, ok := a.Static(); ok && strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s, "p") {
			return true
		}
	}
	return false
}

// dumpsSecretEnv matches a bare dump of the environment (env, printenv,
// set, export -p, declare -x/-p, typeset -p) when the guard's own
// environment, which the command inherits, holds a secret-named variable.
// Without one the dump shows nothing secret and stays allowed.
func dumpsSecretEnv(p *Part) word.Tri {
	if len(p.Argv) == 0 || p.Wrapper && !tracers(filepath.Base(p.Name())) || p.Opaque != "" || !isDump(p) {
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
		if argspec.SecretName(v) {
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
	case "ltrace":
		return true // it prints what getenv returns
	case "strace":
		// -v (-e abbrev=none) prints every execve's environment in full.
		for _, a := range args {
			s, _ := a.Static()
			if strings.Contains(s, "abbrev") || strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s, "v") {
				return true
			}
		}
		return false
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
	case "jq", "gojq", "yq", "awk", "gawk", "mawk", "nawk", "original-awk", "busybox":
		// What the program's language reads of the environment (argspec):
		// all of it, or a secret-named variable, is a dump.
		all, names, _ := argspec.EnvReads(prog, args)
		if all || slices.ContainsFunc(names, argspec.SecretName) {
			return true
		}
		// jq -f FILE (yq --from-file FILE): the program is what the file
		// holds now.
		if prog == "jq" || prog == "gojq" || prog == "yq" {
			for i, a := range args {
				s, _ := a.Static()
				file := ""
				switch {
				case (s == "-f" || s == "--from-file") && i+1 < len(args):
					file, _ = args[i+1].Static()
				case strings.HasPrefix(s, "--from-file="):
					file = s[len("--from-file="):]
				}
				if file == "" {
					continue
				}
				if !filepath.IsAbs(file) && !p.Cwd.Unknown && len(p.Cwd.Dirs) > 0 {
					file = filepath.Join(p.Cwd.Dirs[0], file)
				}
				if b, err := atomicfile.ReadFile(file, maxSecretProbe); err == nil {
					all, names, _ := argspec.EnvReads(prog, []word.Word{word.FromLit(string(b))})
					if all || slices.ContainsFunc(names, argspec.SecretName) {
						return true
					}
				}
			}
		}
		return false
	case "export", "declare", "typeset", "readonly", "local":
		// Without a name, every form lists variables with their values:
		// all of them (declare, declare -g, declare +x), or those with an
		// attribute, which the text may give a secret first (declare -t
		// GITHUB_TOKEN; declare -t). Only -f and -F list functions.
		if operands > 0 {
			return false
		}
		for _, a := range args {
			if s, _ := a.Static(); strings.ContainsAny(s, "fF") {
				return false
			}
		}
		return true
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

// tracers print the argv of the commands they run.
func tracers(prog string) bool { return prog == "strace" || prog == "ltrace" }

// printers print their operands.
func printers(prog string) bool {
	switch prog {
	case "echo", "printf", "print":
		return true
	}
	return false
}

// sendsSecretNearby matches curl sending a secret variable's value in a
// credential option (which KeepsSecrets lets through: it prints nothing)
// anywhere but over https to a public host name: a red team sent the
// token to a listener of its own on 127.0.0.1 and read it from the log.
// Names that resolve to this machine (a wildcard DNS service) need a
// certificate that curl accepts for them, so -k and another CA ask too.
func sendsSecretNearby(p *Part) word.Tri {
	if len(p.Argv) == 0 || !slices.ContainsFunc(p.Argv, word.Word.HasSecret) {
		return word.No
	}
	if prog, ok := p.Argv[0].Static(); !ok || filepath.Base(prog) != "curl" || !argspec.KeepsSecrets(p.Argv) {
		return word.No // not curl; or the other rule asks
	}
	for _, a := range append(slices.Clip(p.Assigns), p.Exported...) { // set before it, or exported
		switch strings.ToLower(a.Name) {
		case "http_proxy", "https_proxy", "all_proxy", "no_proxy", "curl_ca_bundle", "ssl_cert_file", "ssl_cert_dir", "curl_home", "home", "xdg_config_home", "":
			return word.Yes // elsewhere, or trusting another certificate ("": variables not listed)
		}
	}
	c := argspec.Normalize(p.Argv, false)
	urls, globbing := curlURLs(c)
	follows, otherHeader := false, false
	for _, o := range c.Opts {
		switch o.Name {
		case "--location":
			follows = true
		case "--header", "--proxy-header":
			// curl keeps Authorization and Cookie for the first host on
			// a redirect, and sends any other header on.
			if o.Value != nil && o.Value.HasSecret() {
				name := ""
				if len(o.Value.Segs) > 0 && o.Value.Segs[0].Kind == word.Lit {
					name, _, _ = strings.Cut(o.Value.Segs[0].Text, ":")
				}
				if n := strings.ToLower(strings.TrimSpace(name)); n != "authorization" && n != "cookie" {
					otherHeader = true
				}
			}
		case "--insecure", "--proxy-insecure", "--proxy", "--preproxy", "--socks4", "--socks4a", "--socks5", "--socks5-hostname",
			"--connect-to", "--resolve", "--unix-socket", "--abstract-unix-socket", "--cacert", "--capath", "--doh-url",
			"--location-trusted", "--next", "--alt-svc", "--hsts", "--interface", "--dns-servers", "--haproxy-protocol":
			return word.Yes
		}
	}
	if follows && otherHeader {
		return word.Yes
	}
	if len(urls) == 0 {
		return word.Yes
	}
	for _, u := range urls {
		s, ok := u.Static()
		if !ok || !publicHTTPS(s, globbing) {
			return word.Yes
		}
	}
	return word.No
}

// publicHTTPS reports whether s, read as curl reads a URL, is https to a
// host name that is not this machine's or a private network's by its
// spelling: at least two labels of letters, digits and hyphens, the last
// of letters, none of the names kept for local use; no address literal,
// user info, percent-escape or backslash.
func publicHTTPS(s string, globbing bool) bool {
	if globbing && strings.ContainsAny(s, "{}[]") {
		return false
	}
	rest, ok := strings.CutPrefix(strings.ToLower(s), "https://")
	if !ok {
		return false // plain http, another scheme, or none (curl takes http)
	}
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	host, port, hasPort := strings.Cut(authority, ":")
	if hasPort && (port == "" || strings.Trim(port, "0123456789") != "") {
		return false
	}
	host = strings.TrimSuffix(host, ".")
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	tld := labels[len(labels)-1]
	if strings.Trim(tld, "abcdefghijklmnopqrstuvwxyz") != "" {
		return false // 127.0.0.1, 0x7f.1: an address, not a name
	}
	switch tld {
	case "localhost", "local", "internal", "lan", "home", "corp", "test", "invalid", "example", "arpa", "intranet", "private", "localdomain":
		return false
	}
	return true
}
