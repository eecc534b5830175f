package policy

import "testing"

func TestPublicHTTPS(t *testing.T) {
	for s, want := range map[string]bool{
		"https://api.github.com/user": true, "https://API.GitHub.com": true, "https://api.example.com:8443/v1?x=1": true,
		"https://a.b.c.d.io.":   true,
		"http://api.github.com": false, "api.github.com/user": false, "https://localhost/": false, "https://127.0.0.1/": false,
		"https://0x7f.1/": false, "https://2130706433/": false, "https://[::1]/": false, "https://10.0.0.1:443/": false,
		"https://printer.local/": false, "https://svc.internal": false, "https://a.localhost/": false, "https://u@api.github.com/": false,
		"https://api.github.com%2e/": false, "https://api\\github.com": false, "https://api.github.com:/": false, "https://github/": false,
		"https://{a,b}.github.com": false, "ftp://a.b.com": false, "https://a..com": false, "https://a_b.com": false,
	} {
		if got := publicHTTPS(s, true); got != want {
			t.Errorf("publicHTTPS(%q) = %v, want %v", s, got, want)
		}
	}
}
