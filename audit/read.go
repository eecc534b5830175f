package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/guard-exec/guard-exec/atomicfile"
)

// CorruptError reports lines that Read or ReadAll skipped because they were
// not valid records (corrupt, or truncated by a crash or a concurrent write).
// It is returned after every valid record has been passed on.
type CorruptError struct {
	Skipped int
	Files   []string // files in which lines were skipped
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("audit: skipped %d corrupt or truncated line(s) in %s", e.Skipped, strings.Join(e.Files, ", "))
}

// Read calls fn for each valid record of one log file, in file order. It
// stops at the first error from fn and returns it. Skipped lines are
// reported with a *CorruptError at the end. A missing file is an error
// matching os.ErrNotExist.
func Read(path string, fn func(Record) error) error {
	var bad CorruptError
	if err := read(path, fn, &bad); err != nil {
		return err
	}
	if bad.Skipped > 0 {
		return &bad
	}
	return nil
}

// MaxLineBytes is the longest line read as a record; a longer one is
// skipped as corrupt. Reading holds at most one line, so a log of any size
// is read in this much memory.
const MaxLineBytes = 16 << 20

func read(path string, fn func(Record) error, bad *CorruptError) error {
	f, err := atomicfile.Open(path) // never waits on a FIFO
	if err != nil {
		return fmt.Errorf("audit: cannot read log: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	skipped := 0
	// A line longer than br's buffer is gathered in long, which is reused
	// (a record's strings are copied out of it by Unmarshal).
	var long []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !tooLong {
				if len(long)+len(chunk) > MaxLineBytes {
					long, tooLong = long[:0], true
				} else {
					long = append(grow(long, len(chunk)), chunk...)
				}
			}
			continue
		}
		line := chunk
		if len(long) > 0 {
			if len(long)+len(chunk) > MaxLineBytes {
				tooLong = true
			} else {
				line = append(grow(long, len(chunk)), chunk...)
			}
			long = long[:0]
		}
		if tooLong {
			tooLong = false
			skipped++
		} else if len(line) > 0 {
			var r Record
			if line[len(line)-1] != '\n' || json.Unmarshal(line, &r) != nil || r.Time.IsZero() || r.Decision == "" {
				if len(bytes.TrimSpace(line)) > 0 {
					skipped++
				}
			} else if err := fn(r); err != nil {
				return err
			}
		}
		if err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("audit: cannot read %s: %w", path, err)
		}
	}
	if skipped > 0 {
		bad.Skipped += skipped
		bad.Files = append(bad.Files, path)
	}
	return nil
}

// grow makes room for n more bytes in b (n ≤ MaxLineBytes-len(b)),
// doubling (append's 1.25× copies too much) up to MaxLineBytes.
func grow(b []byte, n int) []byte {
	if len(b)+n <= cap(b) {
		return b
	}
	c := min(max(2*cap(b), len(b)+n), MaxLineBytes)
	return slices.Grow(b, c-len(b))
}

// ReadAll is Read over the rotated files path.N … path.1 and then path,
// oldest first. Files that are missing (or rotated away while reading) are
// passed over, so reading during rotation is best effort.
func ReadAll(path string, fn func(Record) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("audit: cannot list rotated logs: %w", err)
	}
	var nums []int
	for _, e := range ents {
		if s, ok := strings.CutPrefix(e.Name(), base+"."); ok {
			if n, err := strconv.Atoi(s); err == nil && n > 0 && strconv.Itoa(n) == s {
				nums = append(nums, n)
			}
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(nums)))
	files := make([]string, 0, len(nums)+1)
	for _, n := range nums {
		files = append(files, path+"."+strconv.Itoa(n))
	}
	var bad CorruptError
	for _, p := range append(files, path) {
		if err := read(p, fn, &bad); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if bad.Skipped > 0 {
		return &bad
	}
	return nil
}

// Filter selects records; zero fields match everything.
type Filter struct {
	Since    time.Time
	Decision string // allow|ask|deny
}

// Match reports whether r passes the filter.
func (f Filter) Match(r Record) bool {
	return !r.Time.Before(f.Since) && (f.Decision == "" || f.Decision == r.Decision)
}

// Format writes r as one readable line in local time, then its parts
// indented when there are several:
//
//	2026-11-30 07:40:01  deny   rm -rf /   (builtin: recursive delete of /)
//
// Control and other non-printable characters are escaped, so a logged
// command cannot drive the terminal that shows it.
func Format(w io.Writer, r Record) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %-5s  %s", r.Time.Local().Format("2006-01-02 15:04:05"), r.Decision, clean(r.Command))
	note := r.Reason
	if note == "" && len(r.Parts) == 1 {
		note = partNote(r.Parts[0])
	}
	if note != "" {
		fmt.Fprintf(&b, "   (%s)", clean(note))
	}
	if r.Answer != "" {
		fmt.Fprintf(&b, "  [answer: %s]", clean(r.Answer))
	}
	if r.Mode == "audit" {
		b.WriteString("  [audit mode: not enforced]")
	}
	if r.Via == "check" {
		b.WriteString("  [check: nothing ran]")
	}
	b.WriteByte('\n')
	for _, p := range r.Parts {
		if len(r.Parts) < 2 {
			break
		}
		fmt.Fprintf(&b, "    %-5s  %s", p.Decision, clean(quoteArgv(p.Argv)))
		if n := partNote(p); n != "" {
			fmt.Fprintf(&b, "   (%s)", clean(n))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func partNote(p PartRecord) string {
	switch {
	case p.Source != "" && p.Reason != "":
		return p.Source + ": " + p.Reason
	case p.Reason != "":
		return p.Reason
	}
	return p.Source
}

func quoteArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,") == "" {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// clean escapes non-printable runes and invalid UTF-8 Go-style (\n, \x1b).
func clean(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		c, n := utf8.DecodeRuneInString(s)
		switch {
		case c == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case strconv.IsPrint(c):
			b.WriteString(s[:n])
		default:
			q := strconv.Quote(string(c))
			b.WriteString(q[1 : len(q)-1])
		}
		s = s[n:]
	}
	return b.String()
}
