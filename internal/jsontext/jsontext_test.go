package jsontext

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// TestAppendString: quoting is encoding/json's, with and without HTML
// escaping, on texts that use every escape.
func TestAppendString(t *testing.T) {
	texts := []string{"", "plain", `q"b\s`, "<a href='x'>&amp;</a>", "\n\r\t\b\f\x00\x01\x1f\x7f",
		"\u2028\u2029", "é漢字🙂", "bad \xff\xfe utf-8 \xe2\x82", "\xed\xa0\x80"}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		b := make([]byte, r.IntN(24))
		for j := range b {
			b[j] = byte(r.IntN(256))
			if r.IntN(3) == 0 {
				b[j] = "<>&\"\\\n\x00\xe2\x80\xa8"[r.IntN(10)]
			}
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		for _, html := range []bool{true, false} {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(html)
			enc.Encode(s)
			got := string(AppendString(nil, s, html)) + "\n"
			if got != want.String() {
				t.Fatalf("%q (escapeHTML %v): %s, encoding/json %s", s, html, got, want.String())
			}
		}
	}
}
