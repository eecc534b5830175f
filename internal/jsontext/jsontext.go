// Package jsontext reads and writes JSON text for the guard's hot paths
// and for input whose meaning must be its sender's.
//
// Writing: byte for byte as encoding/json writes, for the few types the
// guard writes (the audit record, check --json), where encoding/json's
// reflection costs more than the rest of the work. Each user tests its
// output against encoding/json.
//
// Reading: Parse reads a whole text strictly, with keys matched exactly and
// a repeated key an error; FuzzParse holds it to encoding/json.
package jsontext

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// AppendString appends s quoted as encoding/json quotes it: U+2028 and
// U+2029 escaped, invalid UTF-8 replaced by U+FFFD, and with escapeHTML
// (json.Marshal's default; Encoder.SetEscapeHTML(false) turns it off) <,
// > and & escaped.
func AppendString(b []byte, s string, escapeHTML bool) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!escapeHTML || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
