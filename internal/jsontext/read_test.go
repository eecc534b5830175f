package jsontext

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// tree converts v to what encoding/json decodes into an any.
func tree(v Value) any {
	switch v.Kind {
	case '{':
		m := map[string]any{}
		for i, k := range v.Keys {
			m[k] = tree(v.Vals[i])
		}
		return m
	case '[':
		a := []any{}
		for _, x := range v.Vals {
			a = append(a, tree(x))
		}
		return a
	case '"':
		return v.Str
	case '0':
		return json.Number(v.Str)
	case 't':
		return true
	case 'f':
		return false
	}
	return nil
}

// hasDuplicateKeys reports whether any object in b has a key twice.
func hasDuplicateKeys(b []byte) bool {
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	type frame struct {
		obj  bool
		seen map[string]bool
		key  bool // the next string token is a key
	}
	var stack []*frame
	for {
		t, err := d.Token()
		if err != nil {
			return false
		}
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := t.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if top != nil && top.obj {
					top.key = true
				}
				stack = append(stack, &frame{obj: t == '{', seen: map[string]bool{}, key: true})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		case string:
			if top != nil && top.obj && top.key {
				if top.seen[t] {
					return true
				}
				top.seen[t] = true
				top.key = false
				continue
			}
		}
		if top != nil && top.obj {
			top.key = true
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want: Go syntax of tree(v), or "error"
	}{
		{`{"a":"b"}`, `map[string]interface {}{"a":"b"}`},
		{` [1, -0.5e+3, true, false, null, "x"] `, `[]interface {}{"1", "-0.5e+3", true, false, interface {}(nil), "x"}`},
		{`{"command":"A","COMMAND":"B"}`, `map[string]interface {}{"COMMAND":"B", "command":"A"}`},
		{`{"a":1,"a":2}`, "error"},
		{`{"a":{"b":1,"b":1}}`, "error"},
		{`"\ud83d\ude00\u00e9\n"`, `"😀é\n"`},
		{`"\ud83d x"`, "\"\ufffd x\""},
		{"\"\xff\"", "\"\ufffd\""},
		{`{"a":1,}`, "error"},
		{`01`, "error"},
		{`{"a" 1}`, "error"},
		{"\"a\tb\"", "error"},
		{`"a" "b"`, "error"},
		{``, "error"},
		{`nul`, "error"},
		{strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth), "ok"},
		{strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), "error"},
	} {
		v, err := Parse([]byte(tc.in))
		switch {
		case tc.want == "error":
			if err == nil {
				t.Errorf("Parse(%.40q) = %#v, want an error", tc.in, tree(v))
			}
		case err != nil:
			t.Errorf("Parse(%.40q): %v", tc.in, err)
		case tc.want != "ok":
			if g := goString(tree(v)); g != tc.want {
				t.Errorf("Parse(%.40q) = %s, want %s", tc.in, g, tc.want)
			}
		}
	}
}

// goString prints v in Go syntax, numbers as their text.
func goString(v any) string {
	return strings.NewReplacer(`json.Number(`, ``, `")`, `"`).Replace(fmt.Sprintf("%#v", v))
}

// FuzzParse holds Parse to encoding/json: the same texts are valid (but for
// duplicate keys, which Parse refuses), and they mean the same values.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}],"c":"\u00e9\ud83d\ude00"}`, `"\ud800\u0041"`, "\"\xed\xa0\x80\"", `-1.5E-07`, `{"tool_input":{"command":"ls"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := Parse(b)
		var want any
		d := json.NewDecoder(strings.NewReader(string(b)))
		d.UseNumber()
		valid := json.Valid(b)
		if valid != (err == nil) && !(valid && hasDuplicateKeys(b)) {
			t.Fatalf("Parse(%q): error %v, json.Valid %v", b, err, valid)
		}
		if err != nil {
			return
		}
		if d.Decode(&want) != nil {
			t.Fatalf("encoding/json cannot decode %q", b)
		}
		if got := tree(v); !reflect.DeepEqual(got, want) {
			t.Fatalf("Parse(%q) = %#v, encoding/json %#v", b, got, want)
		}
	})
}
