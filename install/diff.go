package install

import (
	"fmt"
	"strings"
)

// Diff renders every change: unified diffs (3 lines of context) for file
// contents, one line for directories and links.
func (p *Plan) Diff() string {
	var b strings.Builder
	for _, c := range p.Changes {
		switch c.Kind {
		case KindMkdir:
			fmt.Fprintf(&b, "mkdir -p %s\n", c.Path)
		case KindSymlink:
			fmt.Fprintf(&b, "ln -sf %s %s\n", c.LinkTarget, c.Path)
		case KindRemove:
			if c.LinkTarget != "" {
				fmt.Fprintf(&b, "rm %s (link to %s)\n", c.Path, c.LinkTarget)
			} else if c.Before == nil {
				fmt.Fprintf(&b, "rmdir %s\n", c.Path)
			} else {
				b.WriteString(unified(c.Path, "/dev/null", string(c.Before), ""))
			}
		case KindEdit:
			from := c.Path
			if c.Before == nil {
				from = "/dev/null"
			}
			b.WriteString(unified(from, c.Path, string(c.Before), string(c.After)))
		}
	}
	return b.String()
}

// diffOp is one line of an edit script: ' ' kept, '-' removed, '+' added.
type diffOp struct {
	op   byte
	text string
	a, b int // 0-based line numbers in the old and new text
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// lineDiff computes a shortest edit script by LCS after trimming the common
// prefix and suffix; beyond a size bound it replaces the middle wholesale.
func lineDiff(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	var ops []diffOp
	for i := 0; i < pre; i++ {
		ops = append(ops, diffOp{' ', a[i], i, i})
	}
	n, m := len(ma), len(mb)
	if n*m > 4_000_000 {
		for i, l := range ma {
			ops = append(ops, diffOp{'-', l, pre + i, pre})
		}
		for j, l := range mb {
			ops = append(ops, diffOp{'+', l, pre + n, pre + j})
		}
	} else {
		// lcs[i][j] = LCS length of ma[i:] and mb[j:].
		lcs := make([][]int, n+1)
		for i := range lcs {
			lcs[i] = make([]int, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && ma[i] == mb[j]:
				ops = append(ops, diffOp{' ', ma[i], pre + i, pre + j})
				i, j = i+1, j+1
			case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, diffOp{'-', ma[i], pre + i, pre + j})
				i++
			default:
				ops = append(ops, diffOp{'+', mb[j], pre + i, pre + j})
				j++
			}
		}
	}
	for k := 0; k < suf; k++ {
		ops = append(ops, diffOp{' ', a[len(a)-suf+k], len(a) - suf + k, len(b) - suf + k})
	}
	return ops
}

// unified renders a unified diff of a against b, or "" when they are equal.
func unified(from, to, a, b string) string {
	if a == b {
		return ""
	}
	ops := lineDiff(splitLines(a), splitLines(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	const ctx = 3
	for i := 0; i < len(ops); {
		if ops[i].op == ' ' {
			i++
			continue
		}
		start := max(0, i-ctx)
		end := i // extend over changes separated by at most 2*ctx kept lines
		for k := i; k < len(ops); k++ {
			if ops[k].op != ' ' {
				end = k
			} else if k-end > 2*ctx {
				break
			}
		}
		end = min(len(ops), end+ctx+1)
		na, nb := 0, 0
		for _, o := range ops[start:end] {
			if o.op != '+' {
				na++
			}
			if o.op != '-' {
				nb++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(ops[start].a, na), hunkRange(ops[start].b, nb))
		for _, o := range ops[start:end] {
			out.WriteByte(o.op)
			out.WriteString(o.text)
			if !strings.HasSuffix(o.text, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}
