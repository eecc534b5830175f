package argspec

import "strings"

// Sed is what a GNU sed script does beyond editing its input.
type Sed struct {
	// Exec lists the commands it runs: the text of each e command, or ""
	// for an e without text or an s///e flag (the pattern space runs).
	Exec []string
	// Write and Read list the files it writes (w, W, s///w) and reads
	// (r, R).
	Write, Read []string
}

// SedScript reads a sed script for the commands that touch anything
// besides the input: e, s///e, w, W, r, R.
func SedScript(script string) Sed {
	var out Sed
	i := 0
	rest := func() string {
		end := strings.IndexByte(script[i:], '\n')
		if end < 0 {
			end = len(script) - i
		}
		t := script[i : i+end]
		i += end
		return strings.TrimSpace(t)
	}
	skipAddr := func() {
		for i < len(script) {
			c := script[i]
			switch {
			case c >= '0' && c <= '9' || c == '$' || c == ',' || c == '~' || c == '!' || c == ' ' || c == '+':
				i++
			case c == '/' || c == '\\':
				delim := byte('/')
				if c == '\\' && i+1 < len(script) {
					i++
					delim = script[i]
				}
				i++
				for i < len(script) && script[i] != delim {
					if script[i] == '\\' {
						i++
					}
					i++
				}
				i++
			default:
				return
			}
		}
	}
	for i < len(script) {
		for i < len(script) && strings.IndexByte(" \t\n;{}", script[i]) >= 0 {
			i++
		}
		skipAddr()
		if i >= len(script) {
			break
		}
		c := script[i]
		i++
		switch c {
		case 'e':
			out.Exec = append(out.Exec, rest())
		case 'w', 'W':
			if f := rest(); f != "" {
				out.Write = append(out.Write, f)
			}
		case 'r', 'R':
			if f := rest(); f != "" {
				out.Read = append(out.Read, f)
			}
		case 's', 'y':
			if i >= len(script) {
				return out
			}
			delim := script[i]
			i++
			for n := 0; n < 2 && i < len(script); i++ {
				if script[i] == '\\' {
					i++
					continue
				}
				if script[i] == delim {
					n++
				}
			}
			for i < len(script) && strings.IndexByte(";\n}", script[i]) < 0 {
				if c == 's' && script[i] == 'e' {
					out.Exec = append(out.Exec, "")
				}
				if c == 's' && script[i] == 'w' {
					i++
					if f := rest(); f != "" {
						out.Write = append(out.Write, f)
					}
					break
				}
				i++
			}
		case 'a', 'i', 'c', 'b', 't', 'T', ':', 'q', 'Q', 'l', 'L':
			end := strings.IndexByte(script[i:], '\n')
			if end < 0 {
				end = len(script) - i
			}
			if c != 'a' && c != 'i' && c != 'c' && c != ':' {
				if j := strings.IndexByte(script[i:i+end], ';'); j >= 0 {
					end = j
				}
			}
			i += end
		}
	}
	return out
}
