package install

import (
	"errors"
	"regexp"
	"strings"
	"sync"
)

// yamlKey matches a block mapping key line: indent, key, colon, rest.
var yamlKey = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^( *)("[^"]*"|'[^']*'|[^\s:#'"\-][^:#]*?)\s*:(?:\s+(.*))?$`)
})

type wfLine struct {
	indent   int
	key, val string // key "" for blank lines, comments and non-key lines
	blank    bool   // blank or comment only
}

func parseWF(lines []string) []wfLine {
	out := make([]wfLine, len(lines))
	for i, l := range lines {
		t := strings.TrimRight(l, "\r\n")
		if s := strings.TrimSpace(t); s == "" || strings.HasPrefix(s, "#") {
			out[i].blank = true
			continue
		}
		out[i].indent = len(t) - len(strings.TrimLeft(t, " "))
		if m := yamlKey().FindStringSubmatch(t); m != nil {
			out[i].key, out[i].val = strings.Trim(m[2], `"'`), m[3]
		}
	}
	return out
}

// scalar strips a trailing comment and quotes from a YAML plain or quoted value.
func scalar(v string) string {
	if i := strings.Index(v, " #"); i >= 0 && !strings.HasPrefix(v, `"`) && !strings.HasPrefix(v, "'") {
		v = v[:i]
	}
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return v
}

// child finds key under the mapping line at index at, looking until the
// block ends. It returns the key's index (or -1), the block's end, and the
// indent of the block's children (or -1 when it has none).
func child(wl []wfLine, at int, key string) (idx, end, indent int) {
	idx, indent = -1, -1
	end = len(wl)
	for i := at + 1; i < len(wl); i++ {
		if wl[i].blank {
			continue
		}
		if wl[i].indent <= wl[at].indent {
			end = i
			break
		}
		if indent < 0 {
			indent = wl[i].indent
		}
		if wl[i].indent == indent && wl[i].key == key && idx < 0 {
			idx = i
		}
	}
	return idx, end, indent
}

func topLevel(wl []wfLine, key string) int {
	for i, l := range wl {
		if !l.blank && l.indent == 0 && l.key == key {
			return i
		}
	}
	return -1
}

// joinWF puts lines back together, without a final line end when the
// original had none.
func joinWF(y []byte, lines []string) []byte {
	out := strings.Join(lines, "")
	if len(y) > 0 && y[len(y)-1] != '\n' {
		out = strings.TrimSuffix(strings.TrimSuffix(out, "\n"), "\r")
	}
	return []byte(out)
}

func splitWF(y []byte) (lines []string, eol string) {
	eol = "\n"
	if strings.Contains(string(y), "\r\n") {
		eol = "\r\n"
	}
	lines = strings.SplitAfter(string(y), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		lines[n-1] += eol
	}
	return lines, eol
}

func insert(lines []string, at int, add ...string) []string {
	return append(lines[:at], append(add, lines[at:]...)...)
}

var errFlow = errors.New("the workflow's top-level `defaults` is written in flow style ({…}): add `run: shell: " + ActionsShell + "` to it by hand")

// AddToWorkflow makes a GitHub Actions workflow run its `run:` steps under
// guard-exec: it sets the top-level `defaults: run: shell:` to ActionsShell,
// adding the lines it needs and leaving every other line as it was. A
// workflow that already has it comes back unchanged.
func AddToWorkflow(y []byte) ([]byte, error) {
	lines, eol := splitWF(y)
	wl := parseWF(lines)
	unit := 2
	for i := 1; i < len(wl); i++ {
		if !wl[i].blank && wl[i].indent > 0 {
			unit = wl[i].indent
			break
		}
	}
	sp := func(n int) string { return strings.Repeat(" ", n) }
	shellLine := func(n int) string { return sp(n) + "shell: " + ActionsShell + eol }
	d := topLevel(wl, "defaults")
	if d < 0 {
		at := topLevel(wl, "jobs")
		if at < 0 {
			at = len(lines)
		}
		for at > 0 && wl[at-1].blank && strings.HasPrefix(strings.TrimSpace(lines[at-1]), "#") {
			at-- // keep comments above `jobs:` attached to it
		}
		block := []string{"defaults:" + eol, sp(unit) + "run:" + eol, shellLine(2 * unit)}
		if at > 0 && strings.TrimSpace(lines[at-1]) == "" {
			block = append(block, eol)
		}
		return joinWF(y, insert(lines, at, block...)), nil
	}
	if scalar(wl[d].val) != "" {
		return nil, errFlow
	}
	r, _, ci := child(wl, d, "run")
	if ci < 0 {
		ci = unit
	}
	if r < 0 {
		return joinWF(y, insert(lines, d+1, sp(ci)+"run:"+eol, shellLine(2*ci))), nil
	}
	if scalar(wl[r].val) != "" {
		return nil, errFlow
	}
	s, _, ci2 := child(wl, r, "shell")
	if ci2 < 0 {
		ci2 = ci + (ci - wl[d].indent)
	}
	if s < 0 {
		return joinWF(y, insert(lines, r+1, shellLine(ci2))), nil
	}
	if scalar(wl[s].val) == ActionsShell {
		return y, nil
	}
	lines[s] = shellLine(ci2)
	return joinWF(y, lines), nil
}

// RemoveFromWorkflow undoes AddToWorkflow: it removes the guard-exec
// `shell:` line, and the `run:` and `defaults:` keys it leaves empty.
func RemoveFromWorkflow(y []byte) ([]byte, error) {
	lines, _ := splitWF(y)
	wl := parseWF(lines)
	d := topLevel(wl, "defaults")
	if d < 0 {
		return y, nil
	}
	r, _, _ := child(wl, d, "run")
	if r < 0 {
		return y, nil
	}
	s, _, _ := child(wl, r, "shell")
	if s < 0 || scalar(wl[s].val) != ActionsShell {
		return y, nil
	}
	del := map[int]bool{s: true}
	empty := func(at int) bool {
		_, end, _ := child(wl, at, "")
		for i := at + 1; i < end; i++ {
			if !wl[i].blank && !del[i] {
				return false
			}
		}
		return true
	}
	if empty(r) {
		del[r] = true
		if empty(d) {
			del[d] = true
		}
	}
	var out []string
	for i, l := range lines {
		if !del[i] {
			out = append(out, l)
		}
	}
	// AddToWorkflow set the block off with a blank line after an existing one.
	if del[d] && d > 0 && d < len(out) && strings.TrimSpace(out[d-1]) == "" && strings.TrimSpace(out[d]) == "" {
		out = append(out[:d], out[d+1:]...)
	}
	return joinWF(y, out), nil
}
