package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// node is a JSON value that keeps the order of object keys and the exact
// text of every scalar and key, so that re-encoding a file changes only its
// layout (2-space indent) and whatever the installer edited.
type node struct {
	kind    byte     // '{' object, '[' array, 0 scalar
	keys    []string // decoded object keys, parallel to vals
	rawKeys [][]byte // object keys as written
	vals    []*node  // object values or array items
	raw     []byte   // scalar as written
}

// parseTree parses b. Empty or blank input is an empty object.
func parseTree(b []byte) (*node, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return &node{kind: '{'}, nil
	}
	if !json.Valid(b) {
		var v any
		err := json.Unmarshal(b, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(b, int(se.Offset))
			return nil, fmt.Errorf("line %d, column %d: %v", line, col, se)
		}
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, err
	}
	p := &treeParser{b: b}
	return p.value(), nil
}

func lineCol(b []byte, off int) (int, int) {
	off = min(off, len(b))
	line := 1 + bytes.Count(b[:off], []byte("\n"))
	return line, off - bytes.LastIndexByte(b[:off], '\n')
}

// treeParser walks input already checked by json.Valid.
type treeParser struct {
	b []byte
	i int
}

func (p *treeParser) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\r' || p.b[p.i] == '\n') {
		p.i++
	}
}

func (p *treeParser) str() []byte {
	start := p.i
	for p.i++; p.b[p.i] != '"'; p.i++ {
		if p.b[p.i] == '\\' {
			p.i++
		}
	}
	p.i++
	return p.b[start:p.i]
}

func (p *treeParser) value() *node {
	p.ws()
	switch c := p.b[p.i]; c {
	case '{', '[':
		n := &node{kind: c}
		p.i++
		p.ws()
		if p.b[p.i] == c+2 { // '}' and ']' are '{'+2 and '['+2
			p.i++
			return n
		}
		for {
			if c == '{' {
				p.ws()
				rk := p.str()
				var k string
				_ = json.Unmarshal(rk, &k)
				n.keys, n.rawKeys = append(n.keys, k), append(n.rawKeys, rk)
				p.ws()
				p.i++ // ':'
			}
			n.vals = append(n.vals, p.value())
			p.ws()
			end := p.b[p.i]
			p.i++
			if end != ',' {
				return n
			}
		}
	case '"':
		return &node{raw: p.str()}
	default:
		start := p.i
		for p.i < len(p.b) && bytes.IndexByte([]byte(" \t\r\n,]}"), p.b[p.i]) < 0 {
			p.i++
		}
		return &node{raw: p.b[start:p.i]}
	}
}

// encode writes n with a 2-space indent, as JSON.stringify(v, null, 2) does.
func (n *node) encode(newline bool) []byte {
	var buf bytes.Buffer
	n.write(&buf, "")
	if newline {
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

func (n *node) write(buf *bytes.Buffer, indent string) {
	if n.kind == 0 {
		buf.Write(n.raw)
		return
	}
	if len(n.vals) == 0 {
		buf.Write([]byte{n.kind, n.kind + 2})
		return
	}
	buf.WriteString(string(n.kind) + "\n")
	for i, v := range n.vals {
		buf.WriteString(indent + "  ")
		if n.kind == '{' {
			buf.Write(n.rawKeys[i])
			buf.WriteString(": ")
		}
		v.write(buf, indent+"  ")
		if i < len(n.vals)-1 {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
	}
	buf.WriteString(indent + string(n.kind+2))
}

// get returns the value of the last key k (as JSON.parse keeps the last).
func (n *node) get(k string) *node {
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == k {
			return n.vals[i]
		}
	}
	return nil
}

// set replaces the value of key k in place, or appends the key.
func (n *node) set(k string, v *node) {
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == k {
			n.vals[i] = v
			return
		}
	}
	n.keys, n.rawKeys, n.vals = append(n.keys, k), append(n.rawKeys, jsonText(k)), append(n.vals, v)
}

// del removes every occurrence of key k.
func (n *node) del(k string) {
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == k {
			n.keys = append(n.keys[:i], n.keys[i+1:]...)
			n.rawKeys = append(n.rawKeys[:i], n.rawKeys[i+1:]...)
			n.vals = append(n.vals[:i], n.vals[i+1:]...)
		}
	}
}

// child returns the container under key k, creating it when absent. A value
// of another type is an error naming the key path.
func (n *node) child(k string, kind byte, where string) (*node, error) {
	c := n.get(k)
	if c == nil {
		c = &node{kind: kind}
		n.set(k, c)
	}
	if c.kind != kind {
		want := map[byte]string{'{': "an object", '[': "an array"}[kind]
		return nil, fmt.Errorf("%s%s is not %s", where, k, want)
	}
	return c, nil
}

// str returns the decoded string value of a scalar node, or false.
func (n *node) str() (string, bool) {
	if n == nil || n.kind != 0 || len(n.raw) == 0 || n.raw[0] != '"' {
		return "", false
	}
	var s string
	return s, json.Unmarshal(n.raw, &s) == nil
}

// jsonText encodes v without HTML escaping.
func jsonText(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only called with strings and plain structs
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// toNode converts a Go value through its JSON encoding.
func toNode(v any) *node {
	n, _ := parseTree(jsonText(v))
	return n
}
