package shellparse

import (
	"errors"
	"io"
	"runtime"
)

// The parser recurses once or more for every level of nesting, and not
// only of brackets: "$($(…))", "((…))", "[[ a && a && … ]]", "time time …"
// and arithmetic operators all nest. A megabyte of such text overflows the
// goroutine's stack, which is fatal, not an error; far less of it costs
// gigabytes of stack and seconds. No cheap scan of the text can tell every
// kind of nesting the parser will make of it, so the parser's own depth is
// measured instead: it reads its input through a reader that hands it a
// few hundred bytes at a time and, before each, counts the frames on the
// stack. Past maxParseFrames the read fails and the parse ends with
// errTooDeep. Between two reads the parser consumes at most readChunk
// bytes, so the stack never grows much past the limit.
const (
	maxParseFrames = 10000
	readChunk      = 512
	// maxWalkDepth bounds the walk's own recursion, through statements
	// within statements (w.stmt), the one recursion the parser's depth
	// does not bound (see w.stmt).
	maxWalkDepth = 5000
)

var errTooDeep = errors.New("nested too deeply")

// depthReader is a strings.Reader that fails once the stack of the
// goroutine reading it is deeper than maxParseFrames.
type depthReader struct {
	s   string
	off int
	pcs [1]uintptr
}

func newDepthReader(s string) *depthReader { return &depthReader{s: s} }

func (r *depthReader) Read(p []byte) (int, error) {
	if r.off >= len(r.s) {
		return 0, io.EOF
	}
	// Callers walks at most maxParseFrames frames: the cost is that of
	// the actual depth, a few dozen frames for ordinary text.
	if runtime.Callers(maxParseFrames, r.pcs[:]) > 0 {
		return 0, errTooDeep
	}
	n := copy(p[:min(len(p), readChunk)], r.s[r.off:])
	r.off += n
	return n, nil
}
