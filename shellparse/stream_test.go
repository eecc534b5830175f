package shellparse

import (
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// TestStreamAsParse: walking statements as another goroutine parses them
// reports exactly what parsing the whole text first does, for every text
// of the corpora (and their join); a text that does not parse is never
// reported as walked.
func TestStreamAsParse(t *testing.T) {
	opts := Options{Cwd: "/home/u/proj", Getenv: func(string) string { return "" }, ParamsUnknown: true}
	texts := corpusTexts(t)
	var all strings.Builder
	for _, s := range texts {
		if !strings.Contains(s, "<<") && !strings.Contains(s, "((") && !strings.Contains(s, "\r\n") {
			all.WriteString("(\n" + s + "\n)\n")
		}
	}
	texts = append(texts, all.String(), "echo a; if then", "echo ok\nfor x in; do", "f() { echo $((", "echo 'unclosed")
	if !streamable(all.String()) {
		t.Fatalf("the joined corpora (%d bytes) would not stream", all.Len())
	}
	compared, refused := 0, 0
	for _, src := range texts {
		if !streamSafe(src) {
			continue // never streamed
		}
		want, syntaxErr, wantErr := parseWhole(src, opts)
		sw := newWalker(opts)
		ok := sw.walkStream(src)
		if syntaxErr != nil {
			// The text does not parse: the stream must not count.
			if ok {
				t.Errorf("%.80q: does not parse (%v), yet the stream walked it", src, syntaxErr)
			}
			refused++
			continue
		}
		if !ok {
			t.Errorf("%.80q: parses whole, not as a stream", src)
			continue
		}
		got, err := sw.finish()
		if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
			t.Errorf("%.80q: streamed error %v, whole %v", src, err, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if len(got.Cmds) != len(want.Cmds) {
			t.Errorf("%.80q: %d commands streamed, %d whole", src, len(got.Cmds), len(want.Cmds))
			continue
		}
		for i := range got.Cmds {
			if g, w := got.Cmds[i].Key()+got.Cmds[i].Pos.String(), want.Cmds[i].Key()+want.Cmds[i].Pos.String(); g != w {
				t.Errorf("%.80q: command %d streamed %q, whole %q", src, i, g, w)
				break
			}
		}
		compared++
	}
	t.Logf("%d texts walked as streamed and whole alike, %d refused", compared, refused)
	if compared < 4000 || refused < 3 {
		t.Fatalf("compared %d texts, %d with syntax errors: the corpora are not being read", compared, refused)
	}
}

// parseWhole is Parse without streaming: the commands, or the error of
// the parse, or the error of the walk.
func parseWhole(src string, opts Options) (*Result, *ParseError, error) {
	w := newWalker(opts)
	f, perr := w.parse(src, syntax.LangBash)
	if perr != nil {
		return nil, perr, nil
	}
	sc := w.topScope()
	w.stmts(sc, f.Stmts)
	res, err := w.finish()
	return res, nil, err
}

// FuzzStreamAsParse: for any text the stream walks, the whole walk reads
// the same commands; a text that does not parse whole never walks as a
// stream.
func FuzzStreamAsParse(f *testing.F) {
	for _, s := range []string{"echo a; ls | wc -l\n", "if true; then x=1; fi\necho $x", "f() { rm -rf \"$1\"; }\nf /tmp/x",
		"for i in a b; do echo $i & done; wait", "case $x in a) ls;; esac", "echo ${x:-y} `date` $(pwd)", "a=(1 2); echo ${a[1]}",
		"{ echo; } > /dev/null 2>&1 || exit 3", "x=1 y=2 env | sort", "echo 'a\nb' \"c\\\"d\"", "}", "echo a\n}\n"} {
		f.Add(s)
	}
	opts := Options{Cwd: "/home/u/proj", Getenv: func(string) string { return "" }, ParamsUnknown: true}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 || !streamSafe(src) {
			return
		}
		start := time.Now()
		want, syntaxErr, wantErr := parseWhole(src, opts)
		whole := time.Since(start)
		sw := newWalker(opts)
		done := make(chan bool, 1)
		go func() { done <- sw.walkStream(src) }()
		var ok bool
		select {
		case ok = <-done:
		case <-time.After(3*whole + 2*time.Second): // only reached if the stream hangs
			t.Fatalf("%q: the stream has not ended after %v (the whole walk took %v)", src, 3*whole+2*time.Second, whole)
		}
		if syntaxErr != nil {
			if ok {
				t.Fatalf("%q: does not parse (%v), yet the stream walked it", src, syntaxErr)
			}
			return
		}
		if !ok {
			// Streamed texts that fail are read again whole: harmless,
			// but it should not happen for text that parses whole.
			t.Fatalf("%q: parses whole, not as a stream", src)
		}
		got, err := sw.finish()
		if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("%q: streamed error %v, whole %v", src, err, wantErr)
		}
		if err != nil {
			return
		}
		if len(got.Cmds) != len(want.Cmds) {
			t.Fatalf("%q: %d commands streamed, %d whole", src, len(got.Cmds), len(want.Cmds))
		}
		for i := range got.Cmds {
			if g, w := got.Cmds[i].Key()+got.Cmds[i].Pos.String(), want.Cmds[i].Key()+want.Cmds[i].Pos.String(); g != w {
				t.Fatalf("%q: command %d streamed %q, whole %q", src, i, g, w)
			}
		}
	})
}
