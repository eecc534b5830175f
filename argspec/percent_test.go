package argspec

import (
	"net/url"
	"testing"
)

// FuzzPercentDecode holds percentDecode to net/url's PathUnescape, which it
// stands in for.
func FuzzPercentDecode(f *testing.F) {
	for _, s := range []string{"", "a", "%76", "%7", "%", "%zz", "a%2Fb", "%%41", "+%20+", "%e2%82%AC", "x%4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := url.PathUnescape(s)
		got, ok := PercentDecode(s)
		if ok != (err == nil) || (ok && got != want) {
			t.Fatalf("PercentDecode(%q) = %q, %v; url.PathUnescape gives %q, %v", s, got, ok, want, err)
		}
	})
}
