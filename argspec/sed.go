package argspec

import (
	"strings"
	"unicode/utf8"

	"github.com/guard-exec/guard-exec/word"
)

// Sed is what a GNU sed script does beyond editing its input.
type Sed struct {
	// Exec lists the commands it runs through /bin/sh: the text of each e
	// command, or "" for an e without text or an s///e flag (the pattern
	// space, built at run time, runs).
	Exec []string
	// Write and Read list the files it writes (w, W, s///w: opened, so
	// created or emptied, when the script is read, before any input) and
	// reads (r, R). /dev/stdout and /dev/stderr are sed's own output and
	// are left out.
	Write, Read []string
	// Unsure says why the script cannot be read with certainty (a script
	// file, a word not known here, bytes the locale decides, a script sed
	// refuses); "" when it can. What was found up to there is still listed.
	Unsure string
}

// SedMode is what changes how GNU sed reads a script.
type SedMode struct {
	Posix   bool // --posix: no GNU commands, flags or one-line a/i/c
	Sandbox bool // --sandbox: e, r, w (and s///e, s///w) refuse the script
}

// SedScript reads one sed script as GNU sed 4.9 reads a lone -e.
func SedScript(script string) Sed {
	return ReadSedScripts([]string{script}, SedMode{})
}

// ReadSedScripts reads the -e scripts of one sed command, in order, as GNU
// sed 4.9 compiles them (compile.c): each is read to its own end, a block
// may close in a later one, and a text (a, i, c, e) left open by a trailing
// backslash goes on in the next one.
func ReadSedScripts(scripts []string, mode SedMode) Sed {
	r := &sedReader{posix: mode.Posix, sandbox: mode.Sandbox}
	for _, s := range scripts {
		r.compile(s)
	}
	r.finish()
	return r.out
}

// SedCall is a sed command line read the way GNU sed reads it.
type SedCall struct {
	Sed
	Inputs  []word.Word // the files it edits or reads
	InPlace bool        // -i: the inputs are rewritten
	Scripts []word.Word // -f script files, read (their commands are not known here)
}

// ReadSed reads a normalised sed command: its scripts in the order GNU sed
// compiles them, which is while it reads its options (-e and -f as they
// come, each under the --posix and --sandbox given before it; the first
// operand, under all of them, when there is neither). At --help or
// --version sed stops, with the scripts before it compiled: their w files
// are opened already.
func ReadSed(c *Cmd) SedCall {
	var call SedCall
	call.Inputs = c.Args
	call.InPlace = c.Has("--in-place")
	if c.Open {
		call.Unsure = "a word not known here could be a sed option that adds a script (-e, -f)"
	}
	r := &sedReader{}
	byOpt := false
	done := func() SedCall {
		r.finish()
		// GNU sed's reading first, then what another sed would also read.
		call.Exec = append(r.out.Exec, call.Exec...)
		call.Write = append(r.out.Write, call.Write...)
		call.Read = append(r.out.Read, call.Read...)
		call.unsure(r.out.Unsure)
		return call
	}
	for _, o := range c.Opts {
		switch o.Name {
		case "--posix":
			r.posix = true
		case "--sandbox":
			r.sandbox = true
		case "--expression", "--file":
			byOpt = true
			if o.Value == nil {
				continue
			}
			if o.Name == "--file" {
				call.Scripts = append(call.Scripts, *o.Value)
				call.unsure("sed reads a script file, whose commands (e, w) are not known here")
				continue
			}
			t, ok := o.Value.Static()
			if !ok {
				call.unsure("a sed script not known here (GNU sed's e command runs shell commands)")
				continue
			}
			r.compile(t)
		case "--help", "--version":
			call.Inputs = nil
			return done()
		}
	}
	if !byOpt && len(c.Args) > 0 {
		call.Inputs = c.Args[1:]
		if t, ok := c.Args[0].Static(); ok {
			r.compile(t)
			if t == "" && len(c.Args) > 1 && bsdInPlace(c) {
				// BSD sed (macOS) reads -i '' SCRIPT as an empty backup
				// suffix and the script: read that script too.
				if bsd, ok := c.Args[1].Static(); ok {
					b := ReadSedScripts([]string{bsd}, SedMode{})
					call.Exec = append(call.Exec, b.Exec...)
					call.Write = append(call.Write, b.Write...)
					call.Read = append(call.Read, b.Read...)
				} else {
					call.unsure("a sed script not known here (GNU sed's e command runs shell commands)")
				}
			}
		} else {
			call.unsure("a sed script not known here (GNU sed's e command runs shell commands)")
		}
	}
	return done()
}

// bsdInPlace reports whether the command has -i without a suffix, which
// BSD sed reads as taking the next word as its suffix.
func bsdInPlace(c *Cmd) bool {
	for _, o := range c.Opts {
		if o.Name == "--in-place" && o.Value == nil {
			return true
		}
	}
	return false
}

func (c *SedCall) unsure(why string) {
	if c.Unsure == "" {
		c.Unsure = why
	}
}

const sedEOF = -1

// sedReader follows compile.c's compile_program, character by character.
type sedReader struct {
	s              string
	pos            int
	posix, sandbox bool
	blocks         int
	out            Sed
	// An a, i, c or e text left open at the end of a script: it goes on
	// with the next script's first line.
	pending     bool
	pendingExec bool
	text        []byte
}

func (r *sedReader) failed() bool { return r.out.Unsure != "" }

func (r *sedReader) fail(why string) {
	if r.out.Unsure == "" {
		r.out.Unsure = "sed would refuse the script (" + why + ")"
	}
}

func (r *sedReader) inchar() int {
	if r.pos < len(r.s) {
		r.pos++
		return int(r.s[r.pos-1])
	}
	return sedEOF
}

func (r *sedReader) savchar(ch int) {
	if ch != sedEOF {
		r.pos--
	}
}

func isBlank(ch int) bool { return ch == ' ' || ch == '\t' }

func isSpace(ch int) bool {
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r'
}

func isDigit(ch int) bool { return ch >= '0' && ch <= '9' }

func (r *sedReader) inNonblank() int {
	ch := r.inchar()
	for isBlank(ch) {
		ch = r.inchar()
	}
	return ch
}

func (r *sedReader) inInteger(ch int) int {
	n := 0
	for isDigit(ch) {
		if n < 1<<30 {
			n = n*10 + ch - '0'
		}
		ch = r.inchar()
	}
	r.savchar(ch)
	return n
}

func (r *sedReader) readEndOfCmd() {
	ch := r.inNonblank()
	if ch == '}' || ch == '#' {
		r.savchar(ch)
	} else if ch != sedEOF && ch != '\n' && ch != ';' {
		r.fail("extra characters after command")
	}
}

func (r *sedReader) readLabel() string {
	var b strings.Builder
	ch := r.inNonblank()
	for ch != sedEOF && ch != '\n' && !isBlank(ch) && ch != ';' && ch != '}' && ch != '#' {
		b.WriteByte(byte(ch))
		ch = r.inchar()
	}
	r.savchar(ch)
	return b.String()
}

// readFilename reads to the end of the line: a file name may hold ; } #.
func (r *sedReader) readFilename() string {
	if r.sandbox {
		r.fail("e/r/w commands disabled in sandbox mode")
		return ""
	}
	var b strings.Builder
	ch := r.inNonblank()
	for ch != sedEOF && ch != '\n' {
		b.WriteByte(byte(ch))
		ch = r.inchar()
	}
	return b.String()
}

func (r *sedReader) openFile(write bool) {
	name := r.readFilename()
	if r.failed() {
		return
	}
	if name == "" {
		r.fail("missing filename in r/R/w/W commands")
		return
	}
	if !write {
		r.out.Read = append(r.out.Read, name)
		return
	}
	switch name {
	case "/dev/stdout", "/dev/stderr", "/dev/stdin":
		// sed's own streams in GNU mode; in --posix mode opened by name,
		// which is the same stream.
		return
	}
	r.out.Write = append(r.out.Write, name)
}

// snarfCharClass skips a bracket expression of a regular expression, in
// which the delimiter does not end the expression.
func (r *sedReader) snarfCharClass() int {
	state := 0
	var delim int
	ch := r.inchar()
	if ch == '^' {
		ch = r.inchar()
	}
	if ch == ']' {
		ch = r.inchar()
	}
	for ; ; ch = r.inchar() {
		switch ch {
		case sedEOF, '\n':
			return ch
		case '.', ':', '=':
			if state == 1 {
				delim, state = ch, 2
				continue
			} else if state == 2 && ch == delim {
				state = 3
				continue
			}
		case '[':
			if state == 0 {
				state = 1
			}
			continue
		case ']':
			if state == 0 || state == 1 {
				return ch
			} else if state == 3 {
				state = 0
			}
		}
		state &^= 1
	}
}

// matchSlash reads up to the delimiter; false when it is missing.
func (r *sedReader) matchSlash(slash int, regex bool) bool {
	if slash == sedEOF {
		return false
	}
	for {
		ch := r.inchar()
		if ch == sedEOF || ch == '\n' {
			r.savchar(ch)
			return false
		}
		switch {
		case ch == slash:
			return true
		case ch == '\\':
			if r.inchar() == sedEOF {
				return false
			}
		case ch == '[' && regex:
			if r.snarfCharClass() != ']' {
				return false
			}
		}
	}
}

func (r *sedReader) compileAddress(ch int) (ok bool, kind byte, num int) {
	switch {
	case ch == '/' || ch == '\\':
		if ch == '\\' {
			ch = r.inchar()
		}
		if !r.matchSlash(ch, true) {
			r.fail("unterminated address regex")
			return true, 'r', 0
		}
		for {
			ch = r.inNonblank()
			if r.posix || ch != 'I' && ch != 'M' {
				r.savchar(ch)
				return true, 'r', 0
			}
		}
	case isDigit(ch):
		num = r.inInteger(ch)
		ch = r.inNonblank()
		if ch != '~' || r.posix {
			r.savchar(ch)
		} else if r.inInteger(r.inNonblank()) > 0 {
			return true, 'm', num // first~step
		}
		return true, 'n', num
	case (ch == '+' || ch == '~') && !r.posix:
		if r.inInteger(r.inNonblank()) == 0 {
			return true, 0, 0
		}
		return true, byte(ch), 0
	case ch == '$':
		return true, '$', 0
	}
	return false, 0, 0
}

// readText reads the text of a, i, c or e up to an unescaped newline;
// at the end of a script it stays open for the next.
func (r *sedReader) readText(leadin int, exec, fresh bool) {
	if fresh {
		r.text = r.text[:0]
		r.pendingExec = exec
	}
	r.pending = true
	if leadin == sedEOF {
		return
	}
	if leadin != '\n' {
		r.text = append(r.text, byte(leadin))
	}
	ch := r.inchar()
	for ch != sedEOF && ch != '\n' {
		if ch == '\\' {
			ch = r.inchar()
			if ch != sedEOF {
				r.text = append(r.text, '\\')
			}
		}
		if ch == sedEOF {
			r.text = append(r.text, '\n')
			return
		}
		r.text = append(r.text, byte(ch))
		ch = r.inchar()
	}
	r.text = append(r.text, '\n')
	r.pending = false
	if r.pendingExec {
		r.addExec(sedNormalizeText(r.text))
	}
}

// addExec records an e command's text as popen gets it: the last
// character (the newline) cut, and the string ending at a NUL.
func (r *sedReader) addExec(t []byte) {
	if len(t) == 0 {
		r.out.Exec = append(r.out.Exec, "")
		return
	}
	s := string(t[:len(t)-1])
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	r.out.Exec = append(r.out.Exec, s)
}

func (r *sedReader) finish() {
	if r.pending {
		// check_final_program keeps an open text as it stands, unnormalised.
		r.pending = false
		if r.pendingExec {
			r.addExec(r.text)
		}
	}
	if r.blocks > 0 {
		r.fail("unmatched `{'")
	}
}

func (r *sedReader) compile(s string) {
	if r.failed() {
		return
	}
	r.s, r.pos = s, 0
	if !utf8.ValidString(s) {
		// A byte that is not UTF-8 is one character to sed in the C locale
		// and may swallow the next (a delimiter) in a UTF-8 one.
		r.out.Unsure = "a sed script with bytes that are not UTF-8 (sed reads them by the locale)"
		return
	}
	if r.pending {
		r.readText('\n', r.pendingExec, false)
	}
	for !r.failed() {
		ch := r.inchar()
		for ch == ';' || isSpace(ch) {
			ch = r.inchar()
		}
		if ch == sedEOF {
			return
		}
		ok, kind, num := r.compileAddress(ch)
		a1, a2 := ok, false
		if ok {
			if r.failed() {
				return
			}
			if kind == '+' || kind == '~' {
				r.fail("invalid usage of +N or ~N as first address")
				return
			}
			ch = r.inNonblank()
			if ch == ',' {
				ok2, kind2, _ := r.compileAddress(r.inNonblank())
				if !ok2 {
					r.fail("unexpected `,'")
					return
				}
				if r.failed() {
					return
				}
				a2 = true
				ch = r.inNonblank()
				if kind == 'n' && num == 0 && kind2 != 'r' {
					r.fail("invalid usage of line address 0")
					return
				}
			} else if kind == 'n' && num == 0 && ch != 'r' {
				r.fail("invalid usage of line address 0")
				return
			}
			if kind == 'n' && num == 0 && r.posix {
				r.fail("invalid usage of line address 0")
				return
			}
		}
		if ch == '!' {
			ch = r.inNonblank()
			if ch == '!' {
				r.fail("multiple `!'s")
				return
			}
		}
		if r.posix {
			switch ch {
			case 'e', 'F', 'v', 'z', 'L', 'Q', 'T', 'R', 'W':
				r.fail("unknown command: `" + string(rune(ch)) + "'")
				return
			case 'a', 'i', 'l', '=', 'r':
				if a2 {
					r.fail("command only uses one address")
					return
				}
			}
		}
		switch ch {
		case '#':
			if a1 {
				r.fail("comments don't accept any addresses")
				return
			}
			for ch != sedEOF && ch != '\n' {
				ch = r.inchar()
			}
		case 'v':
			r.readLabel()
			r.posix = false
		case '{':
			r.blocks++
		case '}':
			if r.blocks == 0 {
				r.fail("unexpected `}'")
				return
			}
			if a1 {
				r.fail("`}' doesn't want any addresses")
				return
			}
			r.readEndOfCmd()
			r.blocks--
		case 'e':
			if r.sandbox {
				r.fail("e/r/w commands disabled in sandbox mode")
				return
			}
			ch = r.inNonblank()
			if ch == sedEOF || ch == '\n' {
				r.out.Exec = append(r.out.Exec, "")
				continue
			}
			r.textCommand(ch, true)
		case 'a', 'i', 'c':
			r.textCommand(r.inNonblank(), false)
		case ':':
			if a1 {
				r.fail(": doesn't want any addresses")
				return
			}
			if r.readLabel() == "" {
				r.fail("\":\" lacks a label")
				return
			}
		case 'T', 'b', 't':
			r.readLabel()
		case 'Q', 'q', 'L', 'l':
			if a2 && (ch == 'q' || ch == 'Q') {
				r.fail("command only uses one address")
				return
			}
			ch = r.inNonblank()
			if isDigit(ch) && !r.posix {
				r.inInteger(ch)
			} else {
				r.savchar(ch)
			}
			r.readEndOfCmd()
		case '=', 'd', 'D', 'F', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'z', 'x':
			r.readEndOfCmd()
		case 'r', 'R':
			r.openFile(false)
		case 'w', 'W':
			r.openFile(true)
		case 's':
			slash := r.inchar()
			if !r.matchSlash(slash, true) || !r.matchSlash(slash, false) {
				r.fail("unterminated `s' command")
				return
			}
			r.substFlags()
		case 'y':
			slash := r.inchar()
			// Two strings, each up to the delimiter.
			src := r.matchSlash(slash, false)
			if !src || !r.matchSlash(slash, false) {
				r.fail("unterminated `y' command")
				return
			}
			r.readEndOfCmd()
		case sedEOF:
			r.fail("missing command")
			return
		default:
			r.fail("unknown command: `" + string(rune(ch)) + "'")
			return
		}
	}
}

// textCommand reads the text of a, i, c or e COMMAND: after a backslash
// (a\), or in GNU mode on the same line.
func (r *sedReader) textCommand(ch int, exec bool) {
	if ch == sedEOF {
		r.fail("expected \\ after `a', `c' or `i'")
		return
	}
	if ch == '\\' {
		ch = r.inchar()
	} else {
		if r.posix {
			r.fail("expected \\ after `a', `c' or `i'")
			return
		}
		r.savchar(ch)
		ch = '\n'
	}
	r.readText(ch, exec, true)
}

func (r *sedReader) substFlags() {
	eval := false
	for !r.failed() {
		ch := r.inNonblank()
		switch ch {
		case 'i', 'I', 'm', 'M', 'e':
			if r.posix {
				r.fail("unknown option to `s'")
				return
			}
			if ch == 'e' {
				eval = true
			}
		case 'p', 'g':
		case 'w':
			r.openFile(true)
			r.substEval(eval)
			return
		case '}', '#':
			r.savchar(ch)
			r.substEval(eval)
			return
		case sedEOF, '\n', ';':
			r.substEval(eval)
			return
		case '\r':
			if r.inchar() == '\n' {
				r.substEval(eval)
				return
			}
			r.fail("unknown option to `s'")
		default:
			if isDigit(ch) {
				if r.inInteger(ch) == 0 {
					r.fail("number option to `s' command may not be zero")
				}
				continue
			}
			r.fail("unknown option to `s'")
		}
	}
}

func (r *sedReader) substEval(eval bool) {
	if !eval || r.failed() {
		return
	}
	if r.sandbox {
		r.fail("e/r/w commands disabled in sandbox mode")
		return
	}
	r.out.Exec = append(r.out.Exec, "")
}

// sedNormalizeText is normalize_text for a TEXT_BUFFER: escapes become
// the characters they name, and other backslashes are dropped.
func sedNormalizeText(buf []byte) []byte {
	out := make([]byte, 0, len(buf))
	for p := 0; p < len(buf); {
		if buf[p] != '\\' || p+1 >= len(buf) {
			out = append(out, buf[p])
			p++
			continue
		}
		p++
		switch c := buf[p]; c {
		case 'a':
			out = append(out, '\a')
			p++
		case 'f':
			out = append(out, '\f')
			p++
		case '\n', 'n':
			out = append(out, '\n')
			p++
		case 'r':
			out = append(out, '\r')
			p++
		case 't':
			out = append(out, '\t')
			p++
		case 'v':
			out = append(out, '\v')
			p++
		case 'd', 'x', 'o':
			base := map[byte]int{'d': 10, 'x': 16, 'o': 8}[c]
			var ch byte
			ch, p = sedConvertNumber(buf, p, base)
			out = append(out, ch)
		case 'c':
			p++
			if p < len(buf) {
				x := buf[p]
				if x >= 'a' && x <= 'z' {
					x -= 'a' - 'A'
				}
				out = append(out, x^0x40)
				if buf[p] == '\\' {
					p++
					// "recursive escaping after \c not allowed" unless \\.
				}
				p++
			}
		default:
			out = append(out, c)
			p++
		}
	}
	return out
}

// sedConvertNumber reads the digits after \d, \x or \o at buf[p] (the
// letter): at most as many as fit a byte's range.
func sedConvertNumber(buf []byte, p, base int) (byte, int) {
	n, max := 0, 1
	q := p + 1
	for ; q < len(buf) && max <= 255; q, max = q+1, max*base {
		d := -1
		switch c := buf[q]; {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		}
		if d < 0 || d >= base {
			break
		}
		n = n*base + d
	}
	if q == p+1 {
		return buf[p], q
	}
	return byte(n), q
}
