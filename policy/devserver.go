package policy

import (
	"net"
	"net/url"
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
	var urls []word.Word
	urls = append(urls, c.Args...)
	globbing := curl
	for _, o := range c.Opts {
		switch o.Name {
		case "--url":
			if o.Value != nil {
				urls = append(urls, *o.Value)
			}
		case "--globoff":
			globbing = false
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

// devURL reports whether s, read as curl reads a URL (a missing scheme is
// http), names this machine at an allowed port.
func devURL(s string, ports map[int]bool, globbing bool) bool {
	if globbing && strings.ContainsAny(s, "{}[]") {
		return false // curl expands these into other URLs
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.User != nil || u.Opaque != "" {
		return false
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	host, portText := u.Hostname(), u.Port()
	port, err := strconv.Atoi(portText)
	if err != nil || !ports[port] {
		return false
	}
	if host == "localhost" {
		return true
	}
	// Only the plain spellings: curl also reads 2130706433 or 0x7f.1 as
	// 127.0.0.1, which ParseIP does not, so those ask.
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
