package shellparse

import (
	"strconv"

	"github.com/guard-exec/guard-exec/word"
)

// Key encodes everything about the command except where it is (Pos):
// two commands with the same key are judged the same. A script names the
// same commands many times (ls, echo, git status in a loop's branches), and
// the judge judges each key once.
//
// Every field of Cmd and of the types it holds must be encoded here;
// TestKeyCoversEveryField changes each one in turn to make sure.
func (c *Cmd) Key() string { return string(c.AppendKey(nil)) }

// AppendKey appends the key to b, for callers that reuse a buffer.
func (c *Cmd) AppendKey(b []byte) []byte {
	b = appendWords(b, c.Argv)
	b = strconv.AppendInt(b, int64(len(c.Assigns)), 10)
	for _, a := range c.Assigns {
		b = appendStr(b, a.Name)
		b = appendWord(b, a.Value)
		b = appendBool(appendWords(b, a.elems), a.appended)
	}
	b = strconv.AppendInt(b, int64(len(c.Exported)), 10)
	for _, a := range c.Exported {
		b = appendBool(appendWord(appendStr(b, a.Name), a.Value), a.appended)
	}
	b = strconv.AppendInt(b, int64(len(c.Redirs)), 10)
	for _, r := range c.Redirs {
		b = appendStr(appendStr(b, r.Op), r.Fd)
		b = appendBool(appendWord(b, r.Target), r.Secret)
	}
	b = appendStrs(b, c.Cwd.Dirs)
	b = appendStrs(appendBool(appendBool(b, c.Cwd.Unknown), c.Cwd.Data), c.Cwd.Written)
	b = strconv.AppendInt(b, int64(len(c.Via)), 10)
	for _, l := range c.Via {
		b = appendBool(appendStrs(appendStr(b, l.Kind), l.Argv), l.Static)
		b = appendBool(appendBool(b, l.Cwd != nil), l.Split)
		if l.Cwd != nil {
			b = appendStrs(appendBool(appendBool(appendStrs(b, l.Cwd.Dirs), l.Cwd.Unknown), l.Cwd.Data), l.Cwd.Written)
		}
	}
	b = appendBool(b, c.Wrapper)
	b = appendBool(appendBool(b, c.DotGlob), c.Traced)
	b = append(b, c.Reopened)
	b = appendStr(b, c.Opaque)
	b = strconv.AppendInt(append(b, ':'), int64(c.CodeArg), 10)
	b = appendStr(b, c.Special)
	b = appendBool(b, c.Stdin != nil)
	if c.Stdin != nil {
		b = appendStr(appendStr(b, c.Stdin.Text), c.Stdin.Desc)
		b = appendBool(appendBool(b, c.Stdin.Known), c.Stdin.Secret)
		b = appendStrs(b, c.Stdin.Found)
	}
	b = appendStr(b, c.Func)
	b = appendBool(b, c.Local)
	b = appendBool(b, c.Writes != nil)
	if c.Writes != nil {
		b = appendStr(appendStr(b, c.Writes.Path), c.Writes.Text)
	}
	return b
}

// appendStr appends s, length first, so that no two lists of strings
// encode alike.
func appendStr(b []byte, s string) []byte {
	b = strconv.AppendInt(append(b, ':'), int64(len(s)), 10)
	return append(append(b, ':'), s...)
}

func appendStrs(b []byte, ss []string) []byte {
	b = strconv.AppendInt(append(b, '['), int64(len(ss)), 10)
	for _, s := range ss {
		b = appendStr(b, s)
	}
	return b
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 'T')
	}
	return append(b, 'F')
}

func appendWord(b []byte, w word.Word) []byte {
	b = strconv.AppendInt(append(b, '<'), int64(len(w.Segs)), 10)
	for _, s := range w.Segs {
		b = strconv.AppendInt(append(b, ','), int64(s.Kind), 10)
		b = appendBool(appendBool(b, s.Data), s.Secret)
		b = appendStrs(appendStr(b, s.Text), s.Found)
	}
	b = appendBool(appendBool(b, w.Split), w.Multi)
	return appendStrs(b, w.Matches)
}

func appendWords(b []byte, ws []word.Word) []byte {
	b = strconv.AppendInt(append(b, '{'), int64(len(ws)), 10)
	for _, w := range ws {
		b = appendWord(b, w)
	}
	return b
}
