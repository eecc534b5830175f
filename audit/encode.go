package audit

import (
	"time"

	"github.com/guard-exec/guard-exec/internal/jsontext"
)

// appendJSON appends r as encoding/json would encode it, byte for byte
// (TestEncodeLikeJSON): a record is written on every command, and the
// first json.Marshal of a type in a process builds its encoder by
// reflection, which cost more than the rest of writing the record.
func (r Record) appendJSON(b []byte) []byte {
	b = append(b, `{"time":"`...)
	b = r.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","session":`...)
	b = jsontext.AppendString(b, r.Session, true)
	b = append(b, `,"cwd":`...)
	b = jsontext.AppendString(b, r.Cwd, true)
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
					b = jsontext.AppendString(b, a, true)
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
	return jsontext.AppendString(b, v, true)
}
