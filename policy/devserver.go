package policy

import (
	"github.com/guard-exec/guard-exec/argspec"
	"strconv"
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// A project's own development server is where an agent most often sends
// data (curl -X POST localhost:3000/api …): dev_ports names its ports, and
// requests that send data to this machine on those ports, and only there,
// are allowed without asking. The URLs are read as the programs read them,
// so no spelling reaches another host: curl's URL globbing ({a,b}, [1-3]),
// user info (localhost:3000@evil.example), proxies, a unix socket, a
// config file, and any URL not known here make the rule not apply.

// devServerSpec outranks the built-in ask for curl and wget sending data
// (a program and a flags clause: 35).
const devServerSpec = 40

// devServerRule allows curl and wget to send data to loopback on ports.
func devServerRule(ports []int, source string) *Rule {
	allowed := map[int]bool{}
	for _, p := range ports {
		allowed[p] = true
	}
	return &Rule{Decision: Allow, Name: "the project's dev server (dev_ports)", Source: source, Layer: User, spec: devServerSpec,
		Why: "sends data to the project's own development server on this machine",
		pred: func(p *Part) word.Tri {
			if p.Norm == nil || p.Norm.Raw || p.Norm.Open || p.Opaque != "" {
				return word.No
			}
			switch p.Norm.Prog {
			case "curl":
				return devURLs(p, allowed, true)
			case "wget":
				return devURLs(p, allowed, false)
			}
			return word.No
		}}
}

// devURLs reports whether every URL a curl or wget command names is on
// this machine at an allowed port, and nothing sends it elsewhere.
func devURLs(p *Part, ports map[int]bool, curl bool) word.Tri {
	c := p.Norm
	urls, globbing := curlURLs(c)
	globbing = globbing && curl
	for _, o := range c.Opts {
		switch o.Name {
		case "--proxy", "--preproxy", "--unix-socket", "--abstract-unix-socket", "--connect-to", "--resolve",
			"--config", "--netrc", "--netrc-file", "--input-file", "--execute", "--base", "--next", "--alt-svc", "--doh-url":
			return word.No // elsewhere, or from a file
		}
		if !o.Known {
			return word.No
		}
	}
	if len(urls) == 0 {
		return word.No
	}
	for _, u := range urls {
		s, ok := u.Static()
		if !ok || !devURL(s, ports, globbing) {
			return word.No
		}
	}
	return word.Yes
}

// curlURLs are the URLs a curl command names (its operands and --url's
// values), and whether curl globs them ({a,b}, [1-3]; not after -g).
func curlURLs(c *argspec.Cmd) (urls []word.Word, globbing bool) {
	urls = append(urls, c.Args...)
	globbing = true
	for _, o := range c.Opts {
		switch o.Name {
		case "--url":
			if o.Value != nil {
				urls = append(urls, *o.Value)
			}
		case "--globoff":
			globbing = false
		}
	}
	return urls, globbing
}

// devURL reports whether s, read as curl reads a URL (a missing scheme is
// http), names this machine at an allowed port. Only the plain spellings
// count: [http[s]://]HOST:PORT, then nothing or a path, query or fragment,
// where HOST is localhost, 127.N.N.N in plain decimal or [::1]. Anything
// else asks: user info, other spellings of loopback that curl also takes
// (2130706433, 0x7f.1, 0177.0.0.1), percent-escapes, a backslash.
func devURL(s string, ports map[int]bool, globbing bool) bool {
	if globbing && strings.ContainsAny(s, "{}[]") {
		return false // curl expands these into other URLs
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || c == '\\' {
			return false
		}
	}
	if i := strings.Index(s, "://"); i >= 0 {
		if scheme := strings.ToLower(s[:i]); scheme != "http" && scheme != "https" {
			return false
		}
		s = s[i+3:]
	}
	authority := s
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		authority = s[:i]
	}
	colon := strings.LastIndexByte(authority, ':')
	if colon < 0 {
		return false
	}
	host, portText := authority[:colon], authority[colon+1:]
	if portText == "" || len(portText) > 5 || strings.Trim(portText, "0123456789") != "" {
		return false
	}
	port, _ := strconv.Atoi(portText)
	if !ports[port] {
		return false
	}
	return host == "localhost" || host == "[::1]" || loopbackIPv4(host)
}

// loopbackIPv4 reports whether h is 127.N.N.N, each N in 0-255 written
// in decimal without leading zeros.
func loopbackIPv4(h string) bool {
	parts := strings.Split(h, ".")
	if len(parts) != 4 || parts[0] != "127" {
		return false
	}
	for _, p := range parts[1:] {
		n, err := strconv.Atoi(p)
		if err != nil || n > 255 || p != strconv.Itoa(n) {
			return false
		}
	}
	return true
}
