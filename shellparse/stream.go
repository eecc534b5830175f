package shellparse

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// A long text is parsed on another goroutine, statement by statement,
// while the walk goes through the statements already parsed: on the
// 2-core machines the guard runs on, parsing (about as long as walking)
// then overlaps with walking. Each top-level statement is committed
// (Options.Committed) once walked. A text that does not parse as it
// streams is read again the usual way from the start, committing nothing,
// and its Result says Rewalked: what was committed is void.
const streamParseBytes = 16 << 10

// streamAhead is how many statements the parser may be ahead of the
// walk. Unbounded, it finished a 3 MB script while the walk was at a
// third of it, and the syntax of the rest (tens of MB) waited in memory;
// a parser held back leaves its core to the goroutine judging the
// commands committed.
const streamAhead = 512

// streamable reports whether src is parsed while it is walked: long
// enough, on more than one CPU, and streamSafe.
func streamable(src string) bool {
	return len(src) >= streamParseBytes && len(src) <= MaxBytes && runtime.GOMAXPROCS(0) > 1 && streamSafe(src)
}

// streamSafe reports whether src is free of the constructs the usual
// parse treats specially: here-documents (whose bodies the parser fills in
// after their statement, and which may be closed at the end of the text
// by a retry), "((" (which a retry may read as two subshells) and CRLF.
// A NUL byte, which the usual parse refuses, is not streamed either; "<<"
// and "((" are also looked for across backslash-newlines.
func streamSafe(src string) bool {
	if strings.IndexByte(src, 0) >= 0 || strings.IndexByte(src, '\r') >= 0 {
		return false
	}
	if strings.Contains(src, "\\\n") {
		src = strings.ReplaceAll(src, "\\\n", "")
	}
	return !strings.Contains(src, "<<") && !strings.Contains(src, "((")
}

// stmtStream is the statements a parsing goroutine has published. A
// statement is published once the parser has begun the next one (or
// ended), so that nothing in it is still being written.
type stmtStream struct {
	mu      sync.Mutex
	cond    sync.Cond // the walk waits for statements
	room    sync.Cond // the parser waits for room (streamAhead)
	stmts   []*syntax.Stmt
	done    bool
	err     error
	waiting bool
	full    bool
	gone    bool // the walk takes no more: publish never waits
}

func (s *stmtStream) publish(st *syntax.Stmt, done bool, err error) {
	s.mu.Lock()
	for len(s.stmts) >= streamAhead && !s.gone {
		s.full = true
		s.room.Wait()
		s.full = false
	}
	if st != nil {
		s.stmts = append(s.stmts, st)
	}
	s.done, s.err = done, err
	wake := s.waiting
	s.mu.Unlock()
	if wake {
		s.cond.Signal()
	}
}

// leave says the walk takes no more statements (it ended, or panicked):
// the parser is never kept waiting for room.
func (s *stmtStream) leave() {
	s.mu.Lock()
	s.gone = true
	s.mu.Unlock()
	s.room.Signal()
}

// take waits until statements are published or the parse has ended, and
// returns the statements published since the last take (the caller owns
// them: the walk drops each once walked, so that a long text's syntax tree
// is not all kept until the end) and whether and how the parse has ended.
// Once it reports the end, it has returned every statement.
func (s *stmtStream) take() ([]*syntax.Stmt, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.stmts) == 0 && !s.done {
		s.waiting = true
		s.cond.Wait()
		s.waiting = false
	}
	stmts := s.stmts
	s.stmts = nil
	if s.full {
		s.room.Signal()
	}
	return stmts, s.done, s.err
}

// walkStream parses src on another goroutine and walks its statements as
// they come. It reports false when src does not parse so: the walk is then
// void, and nothing of it was committed.
func (w *walker) walkStream(src string) bool {
	w.bytes += len(src)
	// About a command per 64 bytes, as in CI scripts: growing the list
	// step by step allocated five times its size.
	w.res.Cmds = make([]*Cmd, 0, len(src)/64)
	s := &stmtStream{}
	s.cond.L, s.room.L = &s.mu, &s.mu
	defer s.leave()
	go func() {
		var prev *syntax.Stmt
		var err error
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("internal error in the parser: %v", r)
			}
			s.publish(prev, true, err)
		}()
		p := syntax.NewParser(syntax.Variant(syntax.LangBash))
		for st, perr := range p.StmtsSeq(newDepthReader(src)) {
			if perr != nil {
				err = perr
				return
			}
			s.publish(prev, false, nil)
			prev = st
		}
	}()
	sc := w.topScope()
	walking := true
	for {
		stmts, done, err := s.take()
		if err != nil {
			return false
		}
		for k, st := range stmts {
			stmts[k] = nil // what the walk keeps of it (function bodies) it keeps itself
			if walking && !w.topStmt(sc, st) {
				// Too much work (w.fatal says so). The walk counts only if
				// the whole text parses: read on to the end.
				walking = false
			}
			if walking {
				w.commit()
			}
		}
		if done {
			break
		}
	}
	w.commit()
	return true
}
