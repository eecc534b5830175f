package install

import "strings"

// HookClients are the clients whose hook `guard-exec hook CLIENT` answers.
var HookClients = []string{"claude-code", "codex", "gemini-cli"}

// SplitHookCommand reads a hook command line exactly as the installer
// writes it (hookCommand: the guard's path, bare or in single quotes, then
// " hook CLIENT") and returns the path and the client.
// Anything else, even a command that a shell would run the same way, is
// not one.
func SplitHookCommand(s string) (path, client string, ok bool) {
	var rest string
	if strings.HasPrefix(s, "'") {
		var b strings.Builder
		i := 1
		for {
			j := strings.IndexByte(s[i:], '\'')
			if j < 0 {
				return "", "", false
			}
			b.WriteString(s[i : i+j])
			i += j
			if strings.HasPrefix(s[i:], `'\''`) {
				b.WriteByte('\'')
				i += 4
				continue
			}
			i++
			break
		}
		// Quoted whether or not it needs to be: the same one word.
		path, rest = b.String(), s[i:]
	} else {
		sp := strings.IndexByte(s, ' ')
		if sp < 0 {
			return "", "", false
		}
		path, rest = s[:sp], s[sp:]
		if shellQuote(path) != path {
			return "", "", false
		}
	}
	client, found := strings.CutPrefix(rest, " hook ")
	if !found {
		return "", "", false
	}
	for _, c := range HookClients {
		if c == client {
			return path, client, true
		}
	}
	return "", "", false
}
