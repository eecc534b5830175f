package argspec_test

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/guard-exec/guard-exec/argspec"
	"github.com/guard-exec/guard-exec/word"
)

// fields splits a test argv on spaces; "·" stands for a space inside a word.
func fields(s string) []word.Word {
	var out []word.Word
	for _, f := range strings.Fields(s) {
		out = append(out, word.FromLit(strings.ReplaceAll(f, "·", " ")))
	}
	return out
}

// canon renders a reading so that spellings of the same command compare
// equal: options as a sorted set of NAME or NAME=VALUE, operands in order.
func canon(c *argspec.Cmd) string {
	var opts []string
	for _, o := range c.Opts {
		s := o.Name
		if o.Value != nil {
			s += "=" + o.Value.String()
		}
		opts = append(opts, s)
	}
	sort.Strings(opts)
	out := fmt.Sprintf("%s sub=%v opts=%v args=%q", c.Prog, c.Sub, opts, word.Strings(c.Args))
	if c.Raw {
		out += " RAW"
	}
	if c.Open {
		out += " OPEN"
	}
	return out
}

func norm(s string) *argspec.Cmd { return argspec.Normalize(fields(s), false) }

// Every spelling in a group reads the same.
func TestNormalizeEquivalent(t *testing.T) {
	groups := [][]string{
		{"rm -rf x", "rm -fr x", "rm -r -f x", "rm -f -r x", "rm --recursive --force x", "rm --recur --force x",
			"rm --force --recursive x", "rm x -rf", "rm -Rf x", "rm -R -f x", "rm --rec --for x", "rm x --recursive -f"},
		{"rm -rf /home/u", "rm /home/u -rf"}, // rm ~ -rf, after tilde expansion
		{"cp --target-directory=d a", "cp --target-directory d a", "cp -t d a", "cp -td a", "cp a --target-directory=d", "cp --target=d a"},
		{"git reset --hard", "git reset --har"},
		{"git push --force", "git push -f"}, // --forc is ambiguous for git (force-with-lease, force-if-includes)
		{"git push --force origin main", "git push -f origin main", "git push origin main --force", "git push origin --force main", "git push origin main -f"},
		{"git branch -D x", "git branch x -D"},
		{"git clean -f -d", "git clean -fd", "git clean -df", "git clean --force -d", "git clean -d --force"},
		{"git commit -m msg", "git commit --message=msg", "git commit --message msg", "git commit -mmsg"},
		{"kubectl delete -n x pod p", "kubectl -n x delete pod p", "kubectl --namespace=x delete pod p", "kubectl delete pod p -n x", "kubectl delete pod p --namespace x"},
		{"docker rm -f c", "docker rm --force c"},
		{"tar xzf a.tgz", "tar -xzf a.tgz", "tar -x -z -f a.tgz", "tar --extract --gzip --file=a.tgz", "tar --extract --gzip --file a.tgz", "tar -xz --file=a.tgz", "tar --get --ungzip -f a.tgz"},
		{"tar -xf a.tar -C dir", "tar xfC a.tar dir", "tar -x -f a.tar --directory=dir", "tar -xf a.tar --directory dir"},
		{"kill -9 1", "kill -KILL 1", "kill -s KILL 1", "kill -SIGKILL 1", "kill --signal=KILL 1", "kill -s 9 1", "kill -s SIGKILL 1", "kill -kill 1"},
		{"sed -i.bak s/a/b/ f", "sed --in-place=.bak s/a/b/ f", "sed s/a/b/ f -i.bak"},
		{"sed -n -e p f", "sed --quiet --expression=p f", "sed -ne p f", "sed --silent --expression p f"},
		{"chmod -R 755 d", "chmod --recursive 755 d", "chmod 755 d -R", "chmod 755 -R d"},
		{"chown -R u:g d", "chown --recursive u:g d", "chown u:g -R d"},
		{"ln -sf a b", "ln -s -f a b", "ln --symbolic --force a b"},
		{"mv -f a b", "mv --force a b", "mv a b -f"},
		{"rm --interactive=never x", "rm x --interactive=never"},
	}
	for _, g := range groups {
		want := canon(norm(g[0]))
		for _, s := range g[1:] {
			if got := canon(norm(s)); got != want {
				t.Errorf("%q reads as\n\t%s\nbut %q as\n\t%s", s, got, g[0], want)
			}
		}
	}
}

// What a reading contains, in detail.
func TestNormalize(t *testing.T) {
	tests := []struct {
		argv string
		want string
	}{
		{"rm -rf x", `rm sub=[] opts=[--force --recursive] args=["x"]`},
		{"rm -- -rf", `rm sub=[] opts=[] args=["-rf"]`},
		{"rm -- x -f", `rm sub=[] opts=[] args=["x" "-f"]`},
		{"rm -", `rm sub=[] opts=[] args=["-"]`},
		{"rm --interactive=never x", `rm sub=[] opts=[--interactive=never] args=["x"]`},
		{"rm --no-preserve-root -r /", `rm sub=[] opts=[--no-preserve-root --recursive] args=["/"]`},
		{"cp --p a b", `cp sub=[] opts=[--p] args=["a" "b"]`}, // ambiguous: --parents, --preserve
		{"git -C dir -c k=v reset --hard", `git sub=[reset] opts=[--hard -C=dir -c=k=v] args=[]`},
		{"git -c core.pager=less log -p", `git sub=[log] opts=[-c=core.pager=less -p] args=[]`},
		{"git --git-dir=/x/.git status", `git sub=[status] opts=[--git-dir=/x/.git] args=[]`},
		{"git stash drop stash@{0}", `git sub=[stash drop] opts=[] args=["stash@{0}"]`},
		{"git checkout -- f", `git sub=[checkout] opts=[] args=["f"]`},
		{"kubectl -n x delete pod p", `kubectl sub=[delete] opts=[--namespace=x] args=["pod" "p"]`},
		{"kubectl --context=prod delete ns x", `kubectl sub=[delete] opts=[--context=prod] args=["ns" "x"]`},
		{"docker --context x rm c", `docker sub=[rm] opts=[--context=x] args=["c"]`},
		{"docker -H tcp://h rmi img", `docker sub=[rmi] opts=[--host=tcp://h] args=["img"]`},
		{"helm -n x uninstall r", `helm sub=[uninstall] opts=[--namespace=x] args=["r"]`},
		{"terraform -chdir=infra destroy", `terraform sub=[destroy] opts=[--chdir=infra] args=[]`},
		{"tar xzf a.tgz", `tar sub=[] opts=[--extract --file=a.tgz --gzip] args=[]`},
		{"tar -xf a.tar -C dir", `tar sub=[] opts=[--directory=dir --extract --file=a.tar] args=[]`},
		{"tar -czf out.tgz src", `tar sub=[] opts=[--create --file=out.tgz --gzip] args=["src"]`},
		{"chmod -R -x f", `chmod sub=[] opts=[--recursive] args=["-x" "f"]`},
		{"chmod -x f", `chmod sub=[] opts=[] args=["-x" "f"]`},
		{"chmod u+x,g-w f", `chmod sub=[] opts=[] args=["u+x,g-w" "f"]`},
		{"kill -9 1", `kill sub=[] opts=[--signal=KILL] args=["1"]`},
		{"kill -s TERM 1", `kill sub=[] opts=[--signal=TERM] args=["1"]`},
		{"sed -i.bak s/a/b/ f", `sed sub=[] opts=[--in-place=.bak] args=["s/a/b/" "f"]`},
		{"sed -i s/a/b/ f", `sed sub=[] opts=[--in-place] args=["s/a/b/" "f"]`},
		{"find . -name x -type f -delete", `find sub=[] opts=[-delete -name=x -type=f] args=["."]`},
		{"find -L / -maxdepth 1 -print", `find sub=[] opts=[-L -maxdepth=1 -print] args=["/"]`},
		{"find . -exec rm {} ;", `find sub=[] opts=[-exec=rm {}] args=["."]`},
		{"find . ( -name a -o -name b ) -print", `find sub=[] opts=[-name=a -name=b -o -print] args=["."]`},
		{"find a b -newer c", `find sub=[] opts=[-newer=c] args=["a" "b"]`},
		{"dd if=/dev/zero of=out bs=1M", `dd sub=[] opts=[bs=1M if=/dev/zero of=out] args=[]`},
		{"unknownprog -rf x", `unknownprog sub=[] opts=[] args=["-rf" "x"] RAW`},
		{"git frobnicate --force x", `git sub=[frobnicate] opts=[] args=["--force" "x"] RAW`},
	}
	for _, tt := range tests {
		if got := canon(norm(tt.argv)); got != tt.want {
			t.Errorf("Normalize(%q)\n got  %s\n want %s", tt.argv, got, tt.want)
		}
	}
}

// Words not known until run time make a reading open where they could be
// options, never silently operands.
func TestNormalizeDynamic(t *testing.T) {
	hole := word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: "$x"}}}
	split := hole
	split.Split = true
	multi := word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: "$@"}}, Multi: true}
	rm := word.FromLit("rm")
	tests := []struct {
		name string
		argv []word.Word
		open bool
	}{
		{"rm $x", []word.Word{rm, hole}, true},
		{"rm -- $x", []word.Word{rm, word.FromLit("--"), hole}, false},
		{"rm ./$x", []word.Word{rm, func() word.Word { w := word.FromLit("./"); w.AddWord(hole); return w }()}, false},
		{"rm $x (split)", []word.Word{rm, word.FromLit("--"), split}, true},
		{"rm \"$@\"", []word.Word{rm, word.FromLit("--"), multi}, true},
		{"git $x", []word.Word{word.FromLit("git"), hole}, true},
	}
	for _, tt := range tests {
		c := argspec.Normalize(tt.argv, false)
		if c.Open != tt.open {
			t.Errorf("%s: Open = %v, want %v (%s)", tt.name, c.Open, tt.open, canon(c))
		}
		if c.Has("--recursive") {
			t.Errorf("%s: a dynamic word was read as a certain --recursive", tt.name)
		}
	}
}

func TestProgName(t *testing.T) {
	for in, want := range map[string]string{"rm": "rm", "/bin/rm": "rm", "./bin/rm": "rm", "/usr/local/bin/git": "git", "a/b/": "b"} {
		if got := argspec.ProgName(in); got != want {
			t.Errorf("ProgName(%q) = %q, want %q", in, got, want)
		}
	}
}

// effects renders the paths a command touches: "access[:op] path[ R]".
func effects(s string) []string {
	effs, _ := argspec.Effects(norm(s))
	out := []string{}
	for _, e := range effs {
		r := e.Access.String()
		if e.Op != "" {
			r += ":" + e.Op
		}
		r += " " + e.Path.String()
		if e.Recursive {
			r += " R"
		}
		out = append(out, r)
	}
	return out
}

func TestEffects(t *testing.T) {
	tests := []struct {
		argv string
		want []string
	}{
		{"rm x y", []string{"write:delete x", "write:delete y"}},
		{"rm -rf x", []string{"write:delete x R"}},
		{"rm -- -x", []string{"write:delete -x"}},
		{"rm --help", []string{}},
		{"rmdir d", []string{"write:delete d"}},
		{"mv a b", []string{"write:move a R", "write b R", "write b/a R"}},
		{"mv a b d", []string{"write:move a R", "write:move b R", "write d R", "write d/a R", "write d/b R"}},
		{"mv -t d a b", []string{"write:move a R", "write:move b R", "write d R", "write d/a R", "write d/b R"}},
		{"cp a b", []string{"read a", "write b", "write b/a"}},
		{"cp a .cla?de", []string{"read a", "write .cla?de", "write .cla?de/a"}}, // a literal here: the walker gives globs
		{"cp -r a b", []string{"read a R", "write b R", "write b/a R"}},
		{"cp -a a d", []string{"read a R", "write d R", "write d/a R"}},
		{"cp -t d a", []string{"read a", "write d", "write d/a"}},
		// A link is written through to its target: linking is writing it
		// (a symbolic link to a directory: all under it). A relative
		// symbolic target is relative to the link's directory: b, or b's.
		// A symbolic link's name stands for all below it (ln -s ev .claude).
		{"ln -s a b", []string{"write:link b/a R", "write:link a R", "write b R", "write b/a"}},
		{"ln -s ../test z/l", []string{"write:link z/test R", "write:link test R", "write:link ../test R", "write z/l R", "write z/l/test"}},
		{"ln -s /etc/x y", []string{"write:link /etc/x R", "write y R", "write y/x"}},
		{"ln a b", []string{"write:link a", "write b", "write b/a"}},
		{"ln a", []string{"write .", "write:link a"}},
		{"touch f g", []string{"write:create f", "write:create g"}},
		{"touch -r ref f", []string{"write:create f", "read ref"}},
		{"mkdir -p d", []string{"write:create d"}},
		{"tee f g", []string{"write f", "write g"}},
		{"tee -a f", []string{"write f"}},
		{"truncate -s 0 f", []string{"write:create f"}},
		{"install -m 755 a /usr/local/bin/a", []string{"read a", "write /usr/local/bin/a", "write /usr/local/bin/a/a"}},
		{"install -d d", []string{"write:create d"}},
		{"chmod 755 f", []string{"write:chmod f"}},
		{"chmod -R 755 d", []string{"write:chmod d R"}},
		{"chmod -x f", []string{"write:chmod f"}},
		{"chown u:g f", []string{"write:chown f"}},
		{"chown -R u d", []string{"write:chown d R"}},
		{"chgrp -R g d", []string{"write:chown d R"}},
		{"dd if=a of=b", []string{"write b", "read a"}},
		{"dd of=/dev/sda", []string{"write /dev/sda"}},
		{"sed -i s/a/b/ f", []string{"write f"}},
		{"sed -i.bak -e s/a/b/ f g", []string{"write f", "write g"}},
		{"sed s/a/b/ f", []string{"read f"}},
		{"sed -f script.sed f", []string{"read script.sed", "read f"}},
		{"tar -xf a.tar", []string{"write:extract . R", "read a.tar"}},
		{"tar xzf a.tgz -C d", []string{"write:extract d R", "read a.tgz"}},
		{"tar -czf out.tgz src", []string{"write out.tgz", "read src R"}},
		{"tar -C base -czf out.tgz src", []string{"write out.tgz", "read base/src R"}},
		{"tar -tf a.tar", []string{"read a.tar"}},
		{"rsync -a src/ dest/", []string{"read src/ R", "write dest/ R"}},
		{"rsync -a --delete src/ dest/", []string{"read src/ R", "write:delete dest/ R"}},
		// The paths are rewritten, and their uncommitted changes lost; a
		// lone NAME is a branch unless a file of that name is there
		// (the policy looks).
		{"git checkout -- f", []string{"write f R", "write:discard f R"}},
		{"git checkout main -- f g", []string{"write f R", "write:discard f R", "write g R", "write:discard g R"}},
		{"git checkout main", []string{"write:discard? main R"}},
		{"git checkout '*.c'", []string{"write:discard . R"}},
		{"git checkout -b topic main", []string{}},
		{"git restore f", []string{"write f R", "write:discard f R"}},
		{"git clean -f", []string{"write:delete . R"}},
		{"git clean -fd d", []string{"write:delete d R"}},
		{"git clean -n", []string{}},
		{"git clean -fn", []string{}},
		{"git rm f", []string{"write:delete f"}},
		{"git rm -r d", []string{"write:delete d R"}},
		{"git rm --cached f", []string{}},
		{"git log --output=out", []string{"write out"}},
		// --output is a diff option: every subcommand with diff or
		// revision options writes it (gitOptionEffects).
		{"git diff-tree -p --output o HEAD", []string{"write o"}},
		{"git stash show -p --output o", []string{"write o"}},
		{"git stash list --output=o", []string{"write o"}},
		{"git reflog show --output=o", []string{"write o"}},
		{"git rev-list --output=o HEAD", []string{"write o"}},
		{"git blame --contents c -S s --ignore-revs-file=i f", []string{"read f", "read c", "read s", "read i"}},
		{"git config -f c --list", []string{"read c"}},
		{"git config --file=c --get a.b", []string{"read c"}},
		{"git config --file=c a.b", []string{"read c"}},
		{"git config --file=c a.b v", []string{"read c", "write c"}},
		{"git diff --no-index a b", []string{"read a R", "read b R"}},
		{"git status", []string{}},
		{"find . -delete", []string{"write:delete . R"}},
		{"find d -name x", []string{"read d R"}},
		{"find", []string{"read . R"}},
		{"find . -fprint out", []string{"read . R", "write out"}},
		{"curl -o out https://x", []string{"write out"}},
		{"curl https://x --output=out", []string{"write out"}},
		{"curl -O https://x/f", []string{"write . R"}},
		{"curl -d @body.json https://x", []string{"read body.json"}},
		{"curl https://x", []string{}},
		// jq's first operand is its filter, not a file.
		{"jq .env package.json", []string{"read package.json"}},
		{"jq -r --arg k .env '.[$k]' a.json b.json", []string{"read a.json", "read b.json"}},
		{"jq -n --rawfile key .env --slurpfile s data.json '$key'", []string{"read .env", "read data.json"}},
		{"jq -rf prog.jq in.json", []string{"read prog.jq", "read in.json"}},
		{"jq -n '$ARGS' --args a b", []string{}},
		// Every option of curl's that names a file (curlEffects).
		{"curl --trace t --trace-ascii - --stderr e --libcurl l --etag-save s -D h -c j https://x", []string{"write h", "write j", "write t", "write e", "write l", "write s"}},
		{"curl --hsts h --alt-svc a https://x", []string{"read h", "read a", "write h", "write a"}},
		{"curl --json @j --data-ascii @a --data-raw @raw -H @h --proxy-header @p -w @w https://x", []string{"read a", "read j", "read h", "read p", "read w"}},
		{"curl --data-urlencode @u --data-urlencode n@v --data-urlencode a=b@c --variable x@f https://x", []string{"read u", "read v", "read f"}},
		{"curl -F f=@a;type=text/plain -F g=<b --form-string s=@c https://x", []string{"read a", "read b"}},
		{"curl -b cookies.txt -b a=b https://x", []string{"read cookies.txt"}},
		{"curl -w '%output{o}x%output{>>p}' https://x", []string{"write o", "write p"}},
		{"curl --cert c.pem:secret --key k.pem https://x", []string{"read k.pem", "read c.pem"}},
		{"curl file:///etc/hosts FILE://localhost/etc/x", []string{"read /etc/hosts", "read /etc/x"}},
		{"curl -o out#1 https://x/{a,b}", []string{"write outa name made from the URL's glob"}},
		{"curl -g -o out#1 https://x/{a,b}", []string{"write out#1"}},
		{"wget -a log --save-cookies c --rejected-log r --warc-file w https://x", []string{"write log", "write c", "write r", "write wthe suffix wget adds to a WARC file's name", "write . R"}},
		{"wget -O - -i urls.txt --load-cookies k https://x", []string{"read k", "read urls.txt"}},
		{"wget -e robots=off -e output_document=x https://x", []string{"write what the .wgetrc command output_document=x sets", "write . R"}},
		// An option curl's complete list does not have: anything may be written.
		{"curl --expand-output '{{v}}' https://x", []string{"write a file --expand-output may name (curl's catalogue does not know the option)", "read/write '{{v}}'", "read/write https://x"}},
		{"wget https://x", []string{"write . R"}},
		{"wget -O out https://x", []string{"write out"}},
		{"wget -O - https://x", []string{}},
		{"shred -u f", []string{"write:delete f"}},
		{"sort -o out in", []string{"write out", "read in"}},
		// tar's options that name files, in any mode (tarOptionEffects).
		{"tar -tvf x.tar --index-file=i", []string{"read x.tar", "write i"}},
		{"tar -cf /dev/null -T names", []string{"write /dev/null", "read the files names names R", "read names"}},
		{"sort --files0-from=- x", []string{"read -", "read the files - names", "read x"}},
		{"rsync -a --files-from=l / d", []string{"read the files l names R", "read / R", "write d R"}},
		{"tar -czf a.tgz -g snap d", []string{"write a.tgz", "read d R", "write snap", "read snap"}},
		{"tar -tf x.tar --frobnicate", []string{"read x.tar", "write a file --frobnicate may name (tar's catalogue does not know the option)", "read/write x.tar"}},
		{"find -files0-from list -name x", []string{"read . R", "read list"}},
		{"find -files0-from - -name x", []string{"read . R"}},
		// less's lesskey file may set LESSOPEN, a command (lessEffects).
		{"less -R f", []string{"read f"}},
		{"less -Skkeys f", []string{"read keys", "write a program the lesskey file keys may name (#env LESSOPEN)", "read f"}},
		{"less --lesskey-s=keys f", []string{"read keys", "write a program the lesskey file keys may name (#env LESSOPEN)", "read f"}},
		{"less --log=log f", []string{"write log", "read f"}},
		// kubectl's options that name files (kubectlEffects).
		{"kubectl get pods -o wide", []string{}},
		{"kubectl --kubeconfig kc get pods", []string{"read kc", "write a program the kubeconfig kc may name (a user's exec credential plugin)"}},
		{"kubectl version --profile=cpu --profile-output=p", []string{"write p"}},
		{"kubectl get pods -o=jsonpath-file=t", []string{"read t"}},
		{"kubectl get pods -o templatefile --template t", []string{"read t"}},
		{"kubectl get -R -f d", []string{"read d R"}},
		// diff compares directories file by file (diffEffects).
		{"diff -u a b", []string{"read a R", "read b R"}},
		{"diff --from-file=f -X x a - b", []string{"read a R", "read b R", "read f R", "read x"}},
		{"diff --frob a b", []string{"read a R", "read b R", "write a file --frob may name (diff's catalogue does not know the option)", "read/write a", "read/write b"}},
		// Readers' options with values, as getopt_long and xxd read them.
		{"xxd -o 1 f out", []string{"read f", "write out"}},
		{"xxd -s -16 f", []string{"read f"}},
		{"wc --files0=F", []string{"read F"}},
		{"du --f=F -sh", []string{"read F"}},
		{"date -uf dates", []string{"read dates"}},
		{"date -uIs", []string{}},
		{"date -us x", []string{"write the system clock (date --set)"}},
		{"file --magic=a:b f", []string{"read a", "read b", "read f"}},
		{"file --comp -m m", []string{"read m", "write m.mgc", "read m"}},
		// jq's modules come from its search path (jqModuleEffects), and a
		// relative name from the working directory too, unless the
		// import names its own search path (jq 1.6).
		{"jq -L/d include·\"m\";·. f", []string{"read /d R", "read m.json", "read m.jq", "read m R", "read f"}},
		{"jq -n import·\"m\"·as·$m·{search:·[\"a\",·\"b\"]};·include·\"/x\";·$m", []string{"read a R", "read b R", "read /x.json", "read /x.jq", "read /x R"}},
		{"jq --arg import x . f", []string{"read f"}},
		{"helm status web --kubeconfig kc", []string{"read kc", "write a program the kubeconfig kc may name (a user's exec credential plugin)"}},
		{"helm list -n web", []string{}},
		// tree -R writes 00Tree.html in every directory (treeEffects).
		{"tree -RL 1 d", []string{"write:create d R", "read 1 R", "read d R"}},
		{"tree --infofile=i d", []string{"read i", "read d R"}},
		// pagers that run with no terminal (pagerEffects, batEffects)
		{"ag --pag=less x", []string{"write what ag's pager less does", "read . R"}}, // ag searches the working directory
		{"bat --paging=always --pager less f", []string{"write what bat's pager less does", "read less", "read f"}},
		{"bat cache --build", []string{"write:delete bat's cache (~/.cache/bat) and themes R", "read cache"}},
		// cloc's options as Getopt::Long reads them (clocEffects).
		{"cloc -extr=x a.tar", []string{"write what the command x cloc runs does", "read a.tar"}},
		{"cloc --vcs git", []string{"read git"}},
		{"cloc --report=r --exclude-dir=node_modules .", []string{"write r", "read ."}},
		{"strings @opts f", []string{"read opts", "read @opts", "read f"}},
		{"yq --in-place -y .b=2 f.yaml", []string{"read/write f.yaml", "read .b=2", "read f.yaml"}},
		{"ack -files-f=names x", []string{"read names", "read . R"}}, // read as if it searched the working directory too
		{"json_pp -f=eval", []string{"write what the Perl code json_pp -f eval evaluates does", "read/write eval"}},
		{"json_pp -f json -t dumper", []string{"read/write json", "read/write dumper"}},
		{"ss -tlnp", []string{}},
		{"ss -tD f", []string{"write f"}},
		{"ss -f inet -K dst x", []string{"write:delete the sockets ss -K closes"}},
		{"xzcat --files0=names", []string{"read names"}},
		{"man --ht=firefox ls", []string{"write what the browser man -H runs does", "read/write ls", "read/write firefox"}},
		{"man -aHx ls", []string{"write what the browser man -H runs does", "read/write ls"}},
		{"man 5 crontab", []string{"read/write 5", "read/write crontab"}},
		{"unzip a.zip -d d", []string{"read a.zip", "write:extract d R"}},
		{"unzip -l a.zip", []string{"read a.zip"}},
		{"cat a b", []string{"read a", "read b"}},
		{"grep -r pat dir", []string{"read dir R"}},
		{"grep -e pat f", []string{"read f"}},
		{"echo rm -rf /", []string{}},
		// pytest removes its --basetemp before the run (pytest.go).
		{"pytest --basetemp=/x t.py", []string{"write:delete /x R", "read/write t.py"}},
		{"pytest --basetemp /x", []string{"write:delete /x R", "read/write /x"}},
		{"pytest -o cache_dir=c --cache-clear", []string{"write c R", "write:delete c/d R", "write:delete c/v R", "read/write cache_dir=c"}},
		{"pytest -ocache_dir=c", []string{"write c R"}},
		{"pytest --override-ini=cache_dir=c", []string{"write c R"}},
		{"pytest -o xfail_strict=true", []string{"read/write xfail_strict=true"}},
		{"pytest --junitxml=r.xml --cov-report=html:cov --cov-report=term", []string{"write r.xml", "write cov R"}},
		{"pytest -- --basetemp=/x", []string{}}, // an operand: no delete
		{"pytest -x -q tests", []string{"read/write tests"}},
	}
	for _, tt := range tests {
		if got := effects(tt.argv); !slices.Equal(got, tt.want) {
			t.Errorf("Effects(%q)\n got  %q\n want %q", tt.argv, got, tt.want)
		}
	}
}

// A program the catalogue does not know: its operands may be paths of any
// access, so path rules can still ask about them.
func TestEffectsUnknownProgram(t *testing.T) {
	effs, known := argspec.Effects(norm("frob -v a b"))
	if known {
		t.Errorf("frob: known = true, want false")
	}
	var got []string
	for _, e := range effs {
		got = append(got, e.Access.String()+" "+e.Path.String())
	}
	if want := []string{"read/write a", "read/write b"}; !slices.Equal(got, want) {
		t.Errorf("frob -v a b: effects %q, want %q", got, want)
	}
	// An option's value may be a path too, attached or not, with a spec
	// or without one.
	for argv, want := range map[string][]string{
		"frob --out=/etc/x -k=v a":          {"read/write a", "read/write /etc/x", "read/write v"},
		"go build -o /etc/x .":              {"read/write build", "read/write /etc/x", "read/write ."},
		"go test -coverprofile=c.out ./...": {"read/write test", "read/write ./...", "read/write c.out"},
	} {
		effs, _ := argspec.Effects(norm(argv))
		var got []string
		for _, e := range effs {
			got = append(got, e.Access.String()+" "+e.Path.String())
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: effects %q, want %q", argv, got, want)
		}
	}
}

// The normalised form is shown to people (check --json, explain): an
// operand that looks like an option must not read as one, and a "--" that
// means something to the program (git checkout main -- f: f is a path)
// stays where it was, and is not invented where it would change meaning
// (git checkout --force -- main would make main a path).
func TestNormalizedString(t *testing.T) {
	for in, want := range map[string]string{
		"rm -rf x":                "rm --recursive --force x",
		"rm x -fr":                "rm --force --recursive x",
		"rm -- -rf":               "rm -- -rf",
		"rm -f -- -x":             "rm --force -- -x",
		"rm x":                    "rm x",
		"rm -f x -- -y":           "rm --force x -- -y",
		"git checkout main -- f":  "git checkout main -- f",
		"git checkout -f main":    "git checkout --force main",
		"git checkout -f -- main": "git checkout --force -- main",
	} {
		if got := norm(in).String(); got != want {
			t.Errorf("Normalize(%q).String() = %q, want %q", in, got, want)
		}
	}
}

// TestCatalog: every program of the catalogue (each case of catalogSpec,
// read from its source) has a spec of its own name whose option notation
// parses, and Lookup returns the same spec every time.
func TestCatalog(t *testing.T) {
	src, err := os.ReadFile("catalog.go")
	if err != nil {
		t.Fatal(err)
	}
	body, _, _ := strings.Cut(string(src[bytes.Index(src, []byte("func catalogSpec(")):]), "\n}\n")
	names := regexp.MustCompile(`(?m)^\tcase "([^"]+)":$`).FindAllStringSubmatch(body, -1)
	if len(names) < 50 {
		t.Fatalf("found %d programs in catalog.go; the test no longer reads it right", len(names))
	}
	for _, m := range append(names, []string{"", "git"}, []string{"", "kubectl"}) {
		s := argspec.Lookup(m[1])
		if s == nil || s.Name != m[1] {
			t.Errorf("argspec.Lookup(%q) = %+v", m[1], s)
			continue
		}
		s.Opt("--help") // parses the notation; a bad one panics
		if argspec.Lookup(m[1]) != s {
			t.Errorf("argspec.Lookup(%q) built a second spec", m[1])
		}
	}
	if argspec.Lookup("no-such-program") != nil {
		t.Error("Lookup of an unknown program is not nil")
	}
}

// Variables that make a read-only program run what a file names
// (envCodeEffects).
func TestEnvCodeEffects(t *testing.T) {
	for _, tt := range []struct {
		name, value string
		want        []string
	}{
		{"LESSKEYIN", "k", []string{"read k", "write a program the lesskey file may name (LESSKEYIN=k)"}},
		{"LESS", "-R", []string{}},
		{"LESS", "--lesskey-src=k", []string{"read k", "write a program the lesskey file k may name (#env LESSOPEN)"}},
		{"TAR_OPTIONS", "--no-same-owner", []string{}},
		{"MANOPT", "-a", []string{}},
		{"XZ_OPT", "-9 -T0", []string{}},
		{"XZ_OPT", "--files=list", []string{"write the files xz's --files list names, compressed and removed (XZ_OPT=--files=list)", "read list"}},
		{"MANOPT", "--html=firefox", []string{"write a program man's options name (MANOPT=--html=firefox)"}},
		{"MANOPT", "-Pcat", []string{"write a program man's options name (MANOPT=-Pcat)"}},
		{"TAR_OPTIONS", "--checkpoint-action=exec=id", []string{"write a program tar's options name (TAR_OPTIONS=--checkpoint-action=exec=id)"}},
		{"RIPGREP_CONFIG_PATH", "rc", []string{"read rc", "write a program the ripgrep configuration may name (--pre) (RIPGREP_CONFIG_PATH=rc)"}},
		{"KUBECONFIG", "a:b", []string{"read a", "read b", "write a program the kubeconfig may name (a user's exec credential plugin) (KUBECONFIG=a:b)"}},
		{"GOFLAGS", "-v", []string{}},
	} {
		got := []string{}
		for _, e := range argspec.EnvEffects(tt.name, word.FromLit(tt.value)) {
			got = append(got, e.Access.String()+" "+e.Path.String())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("EnvEffects(%s=%s)\n got  %q\n want %q", tt.name, tt.value, got, tt.want)
		}
	}
}
