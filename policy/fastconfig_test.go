package policy

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// parsedAs renders what parsing a config gives, for comparing the fast
// reader's result with the decoder's: every rule's fields and source, or
// the error.
func parsedAs(f *File, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "settings %+v\n", f.Settings)
	for _, r := range f.Rules() {
		fmt.Fprintf(&b, "%v %q %q %q %q %q %q %q %v %q %q %q %v\n", r.Decision, r.Command, r.Flags, r.Path, r.Access, r.Why,
			r.Instead, r.Match, r.NotMatch, r.Project, r.Source, r.Layer, r.Exact)
	}
	return b.String()
}

// TestSimpleConfig: files of plain rules are read without the decoder, as
// the decoder reads them, errors and their lines included; anything else
// is left to the decoder.
func TestSimpleConfig(t *testing.T) {
	for _, c := range []struct {
		text   string
		simple bool
	}{
		{"", true},
		{"# only a comment\n\n", true},
		{"[[rule]]\ndecision = \"allow\"\ncommand = \"make test\"\n", true},
		{"# team policy\n\n[[rule]]\ndecision = 'deny'\ncommand = 'terraform apply'\nwhy = \"goes through CI\" # see the wiki\ninstead = 'terraform plan'\n", true},
		{"  [[rule]]  \n\tdecision=\"ask\"\n\tpath = \"secrets/**\"\n\taccess = \"read\"\n", true},
		{"[[rule]]\ndecision = \"allow\"\ncommand = 'make test'\nexact = true\nproject = '/src/app'\n", true},
		{"[[rule]]\ndecision = \"allow\"\ncommand = 'make test'\nexact = false\n", true},
		{"[[rule]]\ndecision = \"allow\"\ncommand = \"é漢字 x\"\n", true},
		{"[[rule]]\ndecision = \"allow\"\ncommand = \"it's\"\n[[rule]]\ndecision = 'deny'\ncommand = 'say \"no\"'", true},
		// Errors found after reading, at the same lines; a rule without a
		// valid decision is the decoder's, for its message.
		{"[[rule]]\ndecision = \"allow\"\ncommand = \"x\"\naccess = \"write\"\n", true},
		{"[[rule]]\ncommand = \"x\"\n\n[[rule]]\ndecision = \"alow\"\ncommand = \"y\"\n", false},
		{"[[rule]]\ndecision = \"allow\"\n[[rule]]\n", false},
		{"[[rule]]\n", false},
		// Left to the decoder.
		{"mode = \"audit\"\n[[rule]]\ndecision = \"allow\"\ncommand = \"x\"\n", false},
		{"[[rule]]\ndecision = \"allow\"\ncommand = \"x\"\nflags = [\"-f\"]\n", false},
		{"[[rule]]\ndecision = \"allow\"\ncommand = \"a\\tb\"\n", false},
		{"[[rule]]\r\ndecision = \"allow\"\r\ncommand = \"x\"\r\n", false},
		{"[[rule]]\ndecision = \"allow\"\ndecision = \"deny\"\n", false},
		{"[[rule]]\ndecision = \"allow\"\ncommand = \"x\"\nbogus = \"y\"\n", false},
		{"[[rule]]\ndecision = \"allow\"\ncomand = \"x\"\n", false},
		{"[[rule]]\ndecision = \"allow\"\nwhy = \"\"\"long\nreason\"\"\"\n", false},
		{"[[rule]]\ndecision = \"allow\"\nwhy = ''''''\n", false},
		{"[[rule]]\ndecision = \"allow\"\ncommand = \"x\"#c\n", false},
		{"[[rule]]\ndecision = \"allow\"\ncommand = \"x\" y\n", false},
		{"[[rule]]\ndecision = \"allow\"\nexact = truely\n", false},
		{"[[rule]]\ndecision = \"allow\"\ncommand = \"unclosed\n", false},
		{"[[rule]] # header comment\ndecision = \"allow\"\n", false},
		{"[rule]\ndecision = \"allow\"\n", false},
		{"[[rules]]\ndecision = \"allow\"\n", false},
		{"[[rule]]\ndecision = \"allow\"\n\"command\" = \"x\"\n", false},
		{"[[rule]]\ndecision = \"allow\"\ncommand = \"\xff\"\n", false},
		{"[[rule]]\ndecision = \"allow\"\ncommand = \"x\"\n# \x01\n", false},
		{"\ufeff[[rule]]\ndecision = \"allow\"\n", false},
	} {
		_, simple := readSimpleConfig(c.text)
		if simple != c.simple {
			t.Errorf("%q: read without the decoder: %v, want %v", c.text, simple, c.simple)
		}
		fast, slow := parsedAs(parseFile("p.toml", []byte(c.text), User, true)), parsedAs(parseFile("p.toml", []byte(c.text), User, false))
		if fast != slow {
			t.Errorf("%q:\nfast: %s\ndecoder: %s", c.text, fast, slow)
		}
	}
}

// FuzzSimpleConfig holds the fast reader to the TOML decoder: a file it
// reads must decode, with no key left over, to the same rules at the same
// lines; and ParseFile must say the same either way.
func FuzzSimpleConfig(f *testing.F) {
	f.Add("[[rule]]\ndecision = \"allow\"\ncommand = 'make test'\n")
	f.Add("# c\n\n[[rule]]\ndecision = \"deny\"\ncommand = \"tool deploy --prod\"\nwhy = \"releases go through the pipeline\" # c\n\n[[rule]]\ndecision = \"ask\"\npath = \"area/**\"\naccess = \"write\"\n")
	f.Add("[[rule]]\ndecision = \"allow\"\ncommand = 'make test'\nexact = true\nproject = '/p'\ninstead = ''\n")
	f.Add("[[rule]]\ndecision = 'maybe'\n[[rule]]\ncommand = \"x\"\n")
	f.Fuzz(func(t *testing.T, text string) {
		rules, ok := readSimpleConfig(text)
		if !ok {
			// Both ways decode then, and the decoder's result is not always
			// the same: it matches keys to fields ignoring case, so that
			// [[Rule]] and [[rule]] both fill the rules, one of them
			// (whichever comes last from a map) winning (seed 809c89601b205e3c).
			return
		}
		{
			var fc fileConfig
			md, err := toml.Decode(text, &fc)
			if err != nil {
				t.Fatalf("%q: read without the decoder, but the decoder says %v", text, err)
			}
			if u := md.Undecoded(); len(u) > 0 {
				t.Fatalf("%q: read without the decoder, but the decoder leaves %v", text, u)
			}
			if len(fc.Rule) == 0 {
				fc.Rule = []fileRule{}
			}
			read := []fileRule{}
			for i := range rules {
				r := &rules[i]
				read = append(read, fileRule{Decision: r.Decision.String(), Command: r.Command, Path: r.Path, Access: r.Access,
					Why: r.Why, Instead: r.Instead, Exact: r.Exact, Project: r.Project})
			}
			if !reflect.DeepEqual(fc, fileConfig{Rule: read}) {
				t.Fatalf("%q: read %+v, the decoder %+v", text, rules, fc)
			}
			want := []int{}
			for i, l := range strings.Split(text, "\n") {
				if isRuleHeader(l) {
					want = append(want, i+1)
				}
			}
			headers := []int{}
			for _, r := range rules {
				headers = append(headers, int(r.Line))
			}
			if !reflect.DeepEqual(headers, want) {
				t.Fatalf("%q: headers at %v, isRuleHeader finds %v", text, headers, want)
			}
		}
		fast, slow := parsedAs(parseFile("p.toml", []byte(text), User, true)), parsedAs(parseFile("p.toml", []byte(text), User, false))
		if fast != slow {
			t.Fatalf("%q:\nfast: %s\ndecoder: %s", text, fast, slow)
		}
	})
}
