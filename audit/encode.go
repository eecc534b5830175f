package audit

import (
	"time"
	"unicode/utf8"
)

// appendJSON appends r as encoding/json would encode it, byte for byte
// (TestEncodeLikeJSON): a record is written on every command, and the
// first json.Marshal of a type in a process builds its encoder by
// reflection, which cost more than the rest of writing the record.
func (r Record) appendJSON(b []byte) []byte {
	b = append(b, `{"time":"`...)
	b = r.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","session":`...)
	b = appendString(b, r.Session)
	b = append(b, `,"cwd":`...)
	b = appendString(b, r.Cwd)
	b = appendField(b, "client", r.Client, true)
	b = appendField(b, "mode", r.Mode, false)
	b = appendField(b, "via", r.Via, true)
	b = appendField(b, "command", r.Command, false)
	b = appendField(b, "decision", r.Decision, false)
	b = appendField(b, "answer", r.Answer, true)
	b = appendField(b, "reason", r.Reason, true)
	if len(r.Parts) > 0 {
		b = append(b, `,"parts":[`...)
		for i, p := range r.Parts {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"argv":`...)
			if p.Argv == nil {
				b = append(b, "null"...)
			} else {
				b = append(b, '[')
				for j, a := range p.Argv {
					if j > 0 {
						b = append(b, ',')
					}
					b = appendString(b, a)
				}
				b = append(b, ']')
			}
			b = appendField(b, "decision", p.Decision, false)
			b = appendField(b, "rule", p.Rule, true)
			b = appendField(b, "source", p.Source, true)
			b = appendField(b, "reason", p.Reason, true)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if r.Redacted {
		b = append(b, `,"redacted":true`...)
	}
	return append(b, '}')
}

func appendField(b []byte, name, v string, omitEmpty bool) []byte {
	if omitEmpty && v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

const hexDigits = "0123456789abcdef"

// appendString quotes s as encoding/json does: <, > and & escaped for
// HTML, U+2028 and U+2029 escaped, invalid UTF-8 replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
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
