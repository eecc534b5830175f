package jsontext

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Value is a JSON value as Parse reads it. Object keys are matched exactly,
// as JavaScript's JSON.parse and serde_json match them; encoding/json also
// fills a field from a key that differs in case, so {"command":"A",
// "COMMAND":"B"} read into a struct gives B where the client that sent it
// runs A. Parse is for input whose meaning must be the sender's.
type Value struct {
	Kind byte     // '{' object, '[' array, '"' string, '0' number, 't' true, 'f' false, 'n' null
	Str  string   // a string's value, or a number as written
	Keys []string // an object's keys, in order, parallel to Vals
	Vals []Value  // an object's values, or an array's items
}

// Get returns the value of key in an object.
func (v Value) Get(key string) (Value, bool) {
	for i, k := range v.Keys {
		if k == key {
			return v.Vals[i], true
		}
	}
	return Value{}, false
}

// maxDepth is encoding/json's limit on nesting.
const maxDepth = 10000

// Parse reads one JSON text (RFC 8259, nothing else around it but white
// space). Strings decode as encoding/json decodes them: invalid UTF-8 and
// lone surrogates become U+FFFD. An object with the same key twice is an
// error: senders that mean one thing never write it, and readers differ on
// which one counts.
func Parse(b []byte) (Value, error) {
	r := reader{b: b}
	r.space()
	v, err := r.value(0)
	if err != nil {
		return Value{}, err
	}
	r.space()
	if r.i < len(b) {
		return Value{}, r.errorf("unexpected %q after the value", b[r.i])
	}
	return v, nil
}

type reader struct {
	b []byte
	i int
}

func (r *reader) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", r.i, fmt.Sprintf(format, args...))
}

func (r *reader) space() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

func (r *reader) value(depth int) (Value, error) {
	if r.i >= len(r.b) {
		return Value{}, r.errorf("unexpected end of input")
	}
	switch c := r.b[r.i]; c {
	case '{', '[':
		if depth >= maxDepth {
			return Value{}, r.errorf("nested more than %d deep", maxDepth)
		}
		if c == '{' {
			return r.object(depth + 1)
		}
		return r.array(depth + 1)
	case '"':
		s, err := r.str()
		return Value{Kind: '"', Str: s}, err
	case 't', 'f', 'n':
		for _, w := range [...]string{"true", "false", "null"} {
			if w[0] == c {
				if len(r.b)-r.i < len(w) || string(r.b[r.i:r.i+len(w)]) != w {
					return Value{}, r.errorf("invalid literal")
				}
				r.i += len(w)
				return Value{Kind: c}, nil
			}
		}
	}
	return r.number()
}

func (r *reader) object(depth int) (Value, error) {
	v := Value{Kind: '{'}
	r.i++
	r.space()
	if r.i < len(r.b) && r.b[r.i] == '}' {
		r.i++
		return v, nil
	}
	for {
		if r.i >= len(r.b) || r.b[r.i] != '"' {
			return Value{}, r.errorf("expected a string key")
		}
		k, err := r.str()
		if err != nil {
			return Value{}, err
		}
		if _, dup := v.Get(k); dup {
			return Value{}, r.errorf("key %s appears twice in one object", strconv.Quote(k))
		}
		r.space()
		if r.i >= len(r.b) || r.b[r.i] != ':' {
			return Value{}, r.errorf("expected ':' after an object key")
		}
		r.i++
		r.space()
		x, err := r.value(depth)
		if err != nil {
			return Value{}, err
		}
		v.Keys, v.Vals = append(v.Keys, k), append(v.Vals, x)
		r.space()
		if r.i >= len(r.b) {
			return Value{}, r.errorf("unexpected end of input in an object")
		}
		switch r.b[r.i] {
		case ',':
			r.i++
			r.space()
		case '}':
			r.i++
			return v, nil
		default:
			return Value{}, r.errorf("expected ',' or '}' in an object")
		}
	}
}

func (r *reader) array(depth int) (Value, error) {
	v := Value{Kind: '['}
	r.i++
	r.space()
	if r.i < len(r.b) && r.b[r.i] == ']' {
		r.i++
		return v, nil
	}
	for {
		x, err := r.value(depth)
		if err != nil {
			return Value{}, err
		}
		v.Vals = append(v.Vals, x)
		r.space()
		if r.i >= len(r.b) {
			return Value{}, r.errorf("unexpected end of input in an array")
		}
		switch r.b[r.i] {
		case ',':
			r.i++
			r.space()
		case ']':
			r.i++
			return v, nil
		default:
			return Value{}, r.errorf("expected ',' or ']' in an array")
		}
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func (r *reader) number() (Value, error) {
	start := r.i
	digits := func() bool {
		n := r.i
		for r.i < len(r.b) && isDigit(r.b[r.i]) {
			r.i++
		}
		return r.i > n
	}
	if r.i < len(r.b) && r.b[r.i] == '-' {
		r.i++
	}
	switch {
	case r.i < len(r.b) && r.b[r.i] == '0':
		r.i++
	case !digits():
		return Value{}, r.errorf("invalid value")
	}
	if r.i < len(r.b) && r.b[r.i] == '.' {
		r.i++
		if !digits() {
			return Value{}, r.errorf("invalid number")
		}
	}
	if r.i < len(r.b) && (r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		r.i++
		if r.i < len(r.b) && (r.b[r.i] == '+' || r.b[r.i] == '-') {
			r.i++
		}
		if !digits() {
			return Value{}, r.errorf("invalid number")
		}
	}
	return Value{Kind: '0', Str: string(r.b[start:r.i])}, nil
}

var errEnd = errors.New("unexpected end of input in a string")

// str reads a string at r.i (a '"'), decoding it as encoding/json does.
func (r *reader) str() (string, error) {
	r.i++
	start := r.i
	// The common case: no escapes, valid UTF-8.
	for r.i < len(r.b) {
		c := r.b[r.i]
		if c == '"' {
			s := string(r.b[start:r.i])
			r.i++
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		r.i++
	}
	out := append([]byte(nil), r.b[start:r.i]...)
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			return string(out), nil
		case c < 0x20:
			return "", r.errorf("control character %#x in a string", c)
		case c == '\\':
			if r.i+1 >= len(r.b) {
				return "", errEnd
			}
			e := r.b[r.i+1]
			r.i += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				x, ok := r.hex4()
				if !ok {
					return "", r.errorf("invalid \\u escape")
				}
				rn := rune(x)
				if utf16.IsSurrogate(rn) {
					// A pair when a low surrogate escape follows; otherwise
					// U+FFFD, and what follows is read on its own.
					if r.i+1 < len(r.b) && r.b[r.i] == '\\' && r.b[r.i+1] == 'u' {
						save := r.i
						r.i += 2
						y, ok := r.hex4()
						if !ok {
							return "", r.errorf("invalid \\u escape")
						}
						if d := utf16.DecodeRune(rn, rune(y)); d != utf8.RuneError {
							out = utf8.AppendRune(out, d)
							continue
						}
						r.i = save
					}
					rn = utf8.RuneError
				}
				out = utf8.AppendRune(out, rn)
			default:
				return "", r.errorf("invalid escape \\%c", e)
			}
		case c < utf8.RuneSelf:
			out = append(out, c)
			r.i++
		default:
			rn, n := utf8.DecodeRune(r.b[r.i:])
			if rn == utf8.RuneError && n == 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, r.b[r.i:r.i+n]...)
			}
			r.i += n
		}
	}
	return "", errEnd
}

func (r *reader) hex4() (int, bool) {
	if len(r.b)-r.i < 4 {
		return 0, false
	}
	x := 0
	for _, c := range r.b[r.i : r.i+4] {
		switch {
		case isDigit(c):
			x = x<<4 | int(c-'0')
		case 'a' <= c && c <= 'f':
			x = x<<4 | int(c-'a'+10)
		case 'A' <= c && c <= 'F':
			x = x<<4 | int(c-'A'+10)
		default:
			return 0, false
		}
	}
	r.i += 4
	return x, true
}
