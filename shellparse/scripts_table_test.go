package shellparse_test

import "testing"

// sed and awk scripts are read as the programs read them: every command a
// script runs is judged, or asked when it cannot be read.
func TestSedScripts(t *testing.T) {
	runTable(t, []tcase{
		{"sed ':a;e touch pwned' f", []string{"sed ':a;e touch pwned' f", "touch pwned via=sed e command"}},
		{"sed ':a;e rm -rf ~' f", []string{"sed ':a;e rm -rf ~' f", "rm -rf /home/u via=sed e command"}},
		{"sed 'b x;e touch p;:x' f", []string{"sed 'b x;e touch p;:x' f", "touch p via=sed e command", ":x via=sed e command"}},
		{"sed -e 'e touch a\\' -e 'rm b' f", []string{"sed -e 'e touch a\\' -e 'rm b' f", "touch a via=sed e command", "rm b via=sed e command"}},
		{"sed 'e touch\\x20p' f", []string{"sed 'e touch\\x20p' f", "touch p via=sed e command"}},
		{"sed 's/x/y/e' f", []string{"sed s/x/y/e f", "sed s/x/y/e f OPAQUE"}},
		{"sed '1!e' f", []string{"sed 1!e f", "sed 1!e f OPAQUE"}},
		{"sed -f s.sed f", []string{"sed -f s.sed f", "sed -f s.sed f OPAQUE"}},
		{"sed \"$x\" f", []string{"sed ⟨$x⟩ f", "sed ⟨$x⟩ f OPAQUE"}},
		{"sed $'s/\\xff/x/;e id' f", []string{"sed 's/\xff/x/;e id' f", "sed 's/\xff/x/;e id' f OPAQUE"}},
		// Text of a, i and c, comments and s's parts are not commands.
		{"sed 'a e touch p' f", []string{"sed 'a e touch p' f"}},
		{"sed '# e touch p' f", []string{"sed '# e touch p' f"}},
		{"sed 's/e x/e y/' f", []string{"sed 's/e x/e y/' f"}},
		{"sed 'y/e/f/' f", []string{"sed y/e/f/ f"}},
		{"sed --sandbox 'e touch p' f", []string{"sed --sandbox 'e touch p' f", "sed --sandbox 'e touch p' f OPAQUE"}},
		{"sed -n '1,5p' f", []string{"sed -n 1,5p f"}},
		{"sed 's/a/b/g' f", []string{"sed s/a/b/g f"}},
		{"sed -i.bak -e 's/a/b/' -e '/x/d' f", []string{"sed -i.bak -e s/a/b/ -e /x/d f"}},
	})
}

func TestAwkScripts(t *testing.T) {
	runTable(t, []tcase{
		{`awk 'BEGIN{system("touch p")}'`, []string{`awk 'BEGIN{system("touch p")}'`, "touch p via=awk system()"}},
		{`awk 'BEGIN { "rm x" | getline }'`, []string{`awk 'BEGIN { "rm x" | getline }'`, "rm x via=awk system()"}},
		{`awk '{ print | "rm x" }' f`, []string{`awk '{ print | "rm x" }' f`, "rm x via=awk system()"}},
		{`awk '{ print |& "rm x" }' f`, []string{`awk '{ print |& "rm x" }' f`, "rm x via=awk system()"}},
		{`awk '{ system($0) }' f`, []string{`awk '{ system($0) }' f`, `awk '{ system($0) }' f OPAQUE`}},
		// A variable that only ever holds constants names its commands.
		{`awk '{ c = "rm x"; c | getline; close(c) }' f`, []string{`awk '{ c = "rm x"; c | getline; close(c) }' f`, "rm x via=awk system()"}},
		{`awk '{ c = $1; c | getline }' f`, []string{`awk '{ c = $1; c | getline }' f`, `awk '{ c = $1; c | getline }' f OPAQUE`}},
		{`awk -v c=x '{ c = "rm x"; c | getline }' f`, []string{`awk -v c=x '{ c = "rm x"; c | getline }' f`, `awk -v c=x '{ c = "rm x"; c | getline }' f OPAQUE`}},
		{`awk -f prog.awk f`, []string{`awk -f prog.awk f`, `awk -f prog.awk f OPAQUE`}},
		{`gawk -i lib 'BEGIN{}'`, []string{`gawk -i lib BEGIN{}`, `gawk -i lib BEGIN{} OPAQUE`}},
		{`gawk -l ext 'BEGIN{}'`, []string{`gawk -l ext BEGIN{}`, `gawk -l ext BEGIN{} OPAQUE`}},
		{`gawk '@load "x"; BEGIN{}'`, []string{`gawk '@load "x"; BEGIN{}'`, `gawk '@load "x"; BEGIN{}' OPAQUE`}},
		{`gawk -e 'BEGIN{system("rm x")}'`, []string{`gawk -e 'BEGIN{system("rm x")}'`, "rm x via=awk system()"}},
		{`gawk --so='BEGIN{system("rm x")}'`, []string{`gawk '--so=BEGIN{system("rm x")}'`, "rm x via=awk system()"}},
		{`mawk -W exec prog.awk`, []string{`mawk -W exec prog.awk`, `mawk -W exec prog.awk OPAQUE`}},
		{`awk "$p" f`, []string{`awk ⟨$p⟩ f`, `awk ⟨$p⟩ f OPAQUE`}},
		// Strings, comments and regular expressions are not calls.
		{`awk '/system("rm x")/ { print "system(\"rm y\")" } # system("rm z")' f`, []string{`awk '/system("rm x")/ { print "system(\"rm y\")" } # system("rm z")' f`}},
		{`awk '{print $1}' f`, []string{`awk '{print $1}' f`}},
		{`awk -F: '{print $1 > "/dev/stderr"}' f`, []string{`awk -F: '{print $1 > "/dev/stderr"}' f`}},
		{`awk 'BEGIN{print "x" > "/etc/passwd"}'`, []string{`awk 'BEGIN{print "x" > "/etc/passwd"}'`}},
	})
}

// GNU sed permutes its options: a word not known here may be -e SCRIPT.
func TestSedOpenArgv(t *testing.T) {
	runTable(t, []tcase{
		{`sed p "$f"`, []string{"sed p ⟨$f⟩", "sed p ⟨$f⟩ OPAQUE"}},
		{`f=notes.txt; sed p "$f"`, []string{"f=notes.txt", "sed p notes.txt"}},
		{`sed -n 1p ./*.txt`, []string{"sed -n 1p ⟨./*.txt⟩"}},
	})
}
