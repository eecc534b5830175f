package shellparse

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/guard-exec/guard-exec/word"
)

// keySample is a command with every field set and every list of length one.
func keySample() *Cmd {
	w := func(s string) word.Word {
		return word.Word{Segs: []word.Seg{{Kind: word.Lit, Text: s}}, Split: true, Multi: true, Matches: []string{"/m/" + s}}
	}
	return &Cmd{
		Argv:     []word.Word{w("ls")},
		Assigns:  []Assign{{Name: "A", Value: w("v"), elems: []word.Word{w("e")}}},
		Exported: []Assign{{Name: "MAGIC", Value: w("F")}},
		Redirs:   []Redir{{Op: ">", Fd: "2", Target: w("out")}},
		Cwd:      Cwd{Dirs: []string{"/p"}, Unknown: true},
		Pos:      Pos{Line: 3, Col: 4},
		Via:      []Step{{Kind: "eval", Argv: []string{"eval", "ls"}}},
		Wrapper:  true,
		Opaque:   "runs code",
		CodeArg:  1,
		Special:  "fork-bomb",
		Stdin:    &Input{Text: "in", Known: true, Desc: "a heredoc", Found: []string{"find", "."}},
		Func:     "f",
		Writes:   &Written{Path: "/p/x.sh", Text: "ls"},
	}
}

// leaves calls fn with every settable leaf (string, bool, number) of v,
// in a fixed order, unexported fields included.
func leaves(v reflect.Value, path string, fn func(string, reflect.Value)) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			leaves(v.Elem(), path, fn)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
			leaves(f, path+"."+v.Type().Field(i).Name, fn)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			leaves(v.Index(i), path+"[]", fn)
		}
	default:
		fn(path, v)
	}
}

// TestKeyCoversEveryField changes each leaf of a command in turn: the key
// must change with every one but the position. A field added to Cmd (or
// to a type it holds) without a place in Key fails here.
func TestKeyCoversEveryField(t *testing.T) {
	base := keySample().Key()
	var paths []string
	leaves(reflect.ValueOf(keySample()), "Cmd", func(p string, _ reflect.Value) { paths = append(paths, p) })
	if len(paths) < 25 {
		t.Fatalf("only %d leaves found: %v", len(paths), paths)
	}
	for i, path := range paths {
		c := keySample()
		n := 0
		leaves(reflect.ValueOf(c), "Cmd", func(p string, v reflect.Value) {
			if n++; n-1 != i {
				return
			}
			switch v.Kind() {
			case reflect.String:
				v.SetString(v.String() + "x")
			case reflect.Bool:
				v.SetBool(!v.Bool())
			case reflect.Int, reflect.Int64:
				v.SetInt(v.Int() + 1)
			case reflect.Uint8, reflect.Uint, reflect.Uint64:
				v.SetUint(v.Uint() + 1)
			default:
				t.Fatalf("%s: a leaf of kind %s; teach this test to change it", p, v.Kind())
			}
		})
		changed := c.Key() != base
		if pos := path == "Cmd.Pos.Line" || path == "Cmd.Pos.Col"; changed == pos {
			t.Errorf("changing %s: key changed = %v, want %v", path, changed, !pos)
		}
	}
	// Lists: one element more or less changes it too.
	c := keySample()
	c.Argv = append(c.Argv, word.FromLit(""))
	d := keySample()
	d.Via = nil
	if c.Key() == base || d.Key() == base {
		t.Error("a list's length does not change the key")
	}
	// Lengths keep boundaries: ["ab"] and ["a", "b"] differ.
	e, f := keySample(), keySample()
	e.Cwd.Dirs, f.Cwd.Dirs = []string{"ab"}, []string{"a", "b"}
	if e.Key() == f.Key() {
		t.Error(`Cwd.Dirs ["ab"] and ["a" "b"] have the same key`)
	}
}
