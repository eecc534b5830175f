package judge

import (
	"io"
	"strconv"

	"github.com/guard-exec/guard-exec/internal/jsontext"
)

// WriteJSON writes r as check --json and explain --json print it: what a
// json.Encoder with SetIndent("", "  ") and SetEscapeHTML(false) writes,
// byte for byte, newline included (TestWriteJSONLikeEncoder). A script has
// thousands of parts, and encoding/json's reflection and its second pass
// to indent took longer than judging them. The text (megabytes for a long
// script) goes out in chunks: growing one buffer to hold it all cost as
// much again in copies and fresh pages.
func (r *Result) WriteJSON(out io.Writer) error {
	w := &jsonWriter{b: make([]byte, 0, jsonChunk+4096), out: out}
	w.result(r)
	w.b = append(w.b, '\n')
	w.flush()
	return w.err
}

// jsonChunk is how much JSON text is gathered before it is written.
const jsonChunk = 64 << 10

func (w *jsonWriter) result(r *Result) {
	w.open('{')
	w.str("decision", r.Decision, false)
	w.str("reason", r.Reason, false)
	w.str("instead", r.Instead, true)
	w.str("parse_error", r.ParseError, true)
	w.int("line", r.Line, true)
	w.key("commands")
	if r.Commands == nil {
		w.b = append(w.b, "null"...)
	} else {
		w.array(len(r.Commands), func(i int) {
			w.part(r.Commands[i])
			if len(w.b) >= jsonChunk {
				w.flush()
			}
		})
	}
	w.strs("notices", r.Notices, true)
	w.int("omitted", r.Omitted, true)
	w.close('}')
}

func (w *jsonWriter) part(p *PartResult) {
	if p == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.open('{')
	w.strs("argv", p.Argv, false)
	w.str("normalized", p.Normalized, true)
	w.str("decision", p.Decision, false)
	w.str("rule", p.Rule, false)
	w.str("source", p.Source, false)
	w.str("reason", p.Reason, false)
	w.str("instead", p.Instead, true)
	w.strs("via", p.Via, true)
	w.strs("effects", p.Effects, true)
	w.str("opaque", p.Opaque, true)
	w.strs("cwd", p.Cwd, true)
	w.int("line", p.Line, true)
	if len(p.Matches) > 0 {
		w.key("matches")
		w.array(len(p.Matches), func(i int) {
			m := p.Matches[i]
			w.open('{')
			w.str("rule", m.Rule, false)
			w.str("source", m.Source, false)
			w.str("decision", m.Decision, false)
			w.str("aspect", m.Aspect, false)
			w.bool("certain", m.Certain, false)
			w.int("specificity", m.Spec, false)
			w.bool("won", m.Won, true)
			w.str("note", m.Note, true)
			w.close('}')
		})
	}
	w.close('}')
}

// jsonWriter writes indented JSON: two spaces a level, a newline before
// every member and element, "key": value.
type jsonWriter struct {
	b     []byte
	out   io.Writer
	err   error
	depth int
	first bool // no member written yet at this level
}

func (w *jsonWriter) flush() {
	if w.err == nil {
		_, w.err = w.out.Write(w.b)
	}
	w.b = w.b[:0]
}

func (w *jsonWriter) newline() {
	w.b = append(w.b, '\n')
	for i := 0; i < w.depth; i++ {
		w.b = append(w.b, ' ', ' ')
	}
}

func (w *jsonWriter) open(c byte) {
	w.b = append(w.b, c)
	w.depth++
	w.first = true
}

// close ends an object or array that has members (empty ones are
// written whole by their writers).
func (w *jsonWriter) close(c byte) {
	w.depth--
	w.newline()
	w.b = append(w.b, c)
	w.first = false
}

func (w *jsonWriter) key(name string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.newline()
	w.b = append(w.b, '"')
	w.b = append(w.b, name...)
	w.b = append(w.b, '"', ':', ' ')
}

func (w *jsonWriter) array(n int, elem func(int)) {
	if n == 0 {
		w.b = append(w.b, '[', ']')
		return
	}
	w.open('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.newline()
		elem(i)
		w.first = false
	}
	w.close(']')
}

func (w *jsonWriter) str(name, v string, omitEmpty bool) {
	if omitEmpty && v == "" {
		return
	}
	w.key(name)
	w.b = jsontext.AppendString(w.b, v, false)
}

func (w *jsonWriter) strs(name string, v []string, omitEmpty bool) {
	if omitEmpty && len(v) == 0 {
		return
	}
	w.key(name)
	if v == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.array(len(v), func(i int) { w.b = jsontext.AppendString(w.b, v[i], false) })
}

func (w *jsonWriter) int(name string, v int, omitEmpty bool) {
	if omitEmpty && v == 0 {
		return
	}
	w.key(name)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
}

func (w *jsonWriter) bool(name string, v, omitEmpty bool) {
	if omitEmpty && !v {
		return
	}
	w.key(name)
	w.b = strconv.AppendBool(w.b, v)
}
