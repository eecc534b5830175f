package judge_test

import (
	"testing"

	"github.com/guard-exec/guard-exec/policy"
)

// A program's own language, read as the program reads it (issue 9 item 5):
// the commands a sed or awk script runs are judged, the files it writes
// are path effects, and ordinary scripts stay allowed.
func TestDefaultsScriptLanguages(t *testing.T) {
	runRows(t, "sed and awk scripts that run commands or write", []row{
		{"sed ':a;e touch ~/pwned' f", "ask"},
		{"sed ':a;e make' f", "ask"},
		{"sed 'b x;e touch ~/pwned;:x' f", "ask"},
		{"sed -n '1e touch /etc/pwned' f", "ask"},
		{"sed 's/.*/touch pwned/e' f", "ask"},
		{"sed '1!e' f", "ask"},
		{"sed -e 'e touch\\' -e '~/pwned' f", "ask"},
		{"sed 'w /etc/passwd' f", "ask"},
		{"sed 's/a/b/w /etc/cron.d/x' f", "ask"},
		{"sed -f script.sed f", "ask"},
		{`awk 'BEGIN{print "x" > "/etc/passwd"}'`, "ask"},
		{`awk 'BEGIN{printf "x" >> "/home/u/.bashrc"}'`, "ask"},
		{`awk '{print > $1}' f`, "ask"},
		{`awk 'BEGIN{"make" | getline}'`, "ask"},
		{`awk '{print | "make"}' f`, "ask"},
		{`awk '{system($0)}' f`, "ask"},
		{`awk 'BEGIN { c = "make"; system(c) }'`, "ask"},
		{`awk '{ c = $0; system(c) }' f`, "ask"},
		{`awk -f prog.awk f`, "ask"},
		{`gawk -l ext 'BEGIN{}'`, "ask"},
		{`awk 'BEGIN{system("touch ~/pwned")}'`, "ask"},
	})
	runRows(t, "sed and awk scripts that only read, or write inside the project", allow(
		// The command a script runs is judged as itself: touch inside the
		// project is allowed, as "touch pwned" alone is.
		"sed ':a;e touch pwned' f",
		"sed -n '1,5p' f", "sed 's/a/b/g' f", "sed -e 's/a/b/' -e '/x/d' f", "sed '/^#/d;s/e/f/' f",
		"sed 'a e touch pwned' f", "sed '# e touch pwned' f", "sed 'y/e/f/' f", "sed -n '/x/{p;q}' f",
		"sed 's/x/y/w /dev/stdout' f", "sed 'w out.txt' f",
		`awk '{print $1}' f`, `awk -F: '{print $1 > "/dev/stderr"}' f`, `awk '{print $1 > "out.txt"}' f`,
		`awk '/system/ { print "system(\"make\")" } # system("make")' f`, `awk 'BEGIN { while ((getline l < "f") > 0) n++ }'`,
		`awk -v x=1 '$2 > x { print $1 }' f`, `awk 'BEGIN { print length("ab") / 2 }'`,
		`awk -F'/' '{print $NF}' f`, `awk '{ gsub(/\//, "_"); print }' f`, `awk '/^#/ {next} {print}' f`,
		`awk '{s+=$1} END {print s/NR}' f`, `awk 'length > 72' f`, `awk -v OFS='\t' '{print $1, $2}' f`,
		`awk '{ if ($1 > 5) print $0 > "big.txt" }' f`, `awk '!seen[$0]++' f`, `awk '/start/,/end/' f`,
		`awk '{a[$1]+=$2} END{for(k in a) print k, a[k] | "sort"}' f`,
		`awk 'BEGIN { cmd = "date +%Y"; cmd | getline y; close(cmd); print y }'`, `awk '{ print | s } BEGIN { s = "sort -u" }' f`, `awk 'BEGIN { while (("ls" | getline f) > 0) print f }'`,
		`sed -n '/^func /p' f`, `sed -E 's/([a-z]+)=/\1: /' f`, `sed '1d;$d' f`, `sed -n '$=' f`, `sed 's|/usr|/opt|g' f`,
		`sed -e ':a' -e 'N;$!ba' -e 's/\n/ /g' f`, `sed '/^$/N;/\n$/D' f`, `sed -i.bak '/x/{s/a/b/;s/c/d/}' f`,
	))
	runRows(t, "catastrophic commands in sed scripts", deny(
		"sed ':a;e rm -rf ~' f", "sed -n '1e rm -rf /' f",
		`awk 'BEGIN{"rm -rf /" | getline}'`, `awk '{print | "rm -rf ~"}' f`, `awk 'BEGIN{print "x" > "/dev/sda"}'`,
	))
}

// A rule that names an awk program file allows that program, and only it:
// the file is the code the rule approves.
func TestRuleNamesAwkProgramFile(t *testing.T) {
	f, err := policy.ParseFile("c.toml", []byte("[[rule]]\ndecision = \"allow\"\ncommand = \"awk -f tools/report.awk\"\n"), policy.User)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.Build(policy.Sources{Env: &policy.Env{Home: home, Project: proj, Temp: []string{"/tmp"}}, User: f})
	if err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]string{
		"awk -f tools/report.awk data.txt": "allow",
		"awk -f other.awk data.txt":        "ask",
		"awk -ftools/report.awk data.txt":  "ask",
	} {
		if r := judgeText(pol, src); r.Decision != want {
			t.Errorf("%s: %s (%s), want %s", src, r.Decision, r.Reason, want)
		}
	}
}
