package shellparse_test

import (
	"slices"
	"testing"

	"github.com/guard-exec/guard-exec/shellparse"
)

// Issue 9 §6: code a program is handed on its command line is a part of
// its own, whatever rule allows the program.
func TestCarriedCode(t *testing.T) {
	runTable(t, []tcase{
		// git: rebase -x runs shell code after each commit, in every
		// spelling git accepts.
		{"git rebase -x 'touch pwned' main", []string{"git rebase -x 'touch pwned' main", "touch pwned via=git rebase --exec"}},
		{"git rebase --exec=pwn main", []string{"git rebase --exec=pwn main", "pwn via=git rebase --exec"}},
		{"git rebase --exe pwn main", []string{"git rebase --exe pwn main", "pwn via=git rebase --exec"}},
		{"git rebase -ixpwn main", []string{"git rebase -ixpwn main", "pwn via=git rebase --exec"}},
		{"git rebase -x \"$C\" main", []string{"git rebase -x ⟨$C⟩ main", "git rebase -x ⟨$C⟩ main OPAQUE"}},
		{"git rebase -i main", []string{"git rebase -i main"}},
		// upload-pack / receive-pack run through the shell (locally for a
		// local remote).
		{"git fetch --upload-pack='pwn; git-upload-pack' origin", []string{"git fetch '--upload-pack=pwn; git-upload-pack' origin", "pwn via=git fetch --upload-pack", "git-upload-pack via=git fetch --upload-pack"}},
		{"git pull --upload-pack pwn", []string{"git pull --upload-pack pwn", "pwn via=git pull --upload-pack"}},
		{"git fetch -u origin", []string{"git fetch -u origin"}}, // -u is --update-head-ok
		{"git clone -u pwn r d", []string{"git clone -u pwn r d", "pwn via=git clone --upload-pack"}},
		{"git clone -c core.sshCommand=pwn r", []string{"git clone -c core.sshCommand=pwn r", "pwn via=git clone --config core.sshCommand"}},
		{"git clone --template=/tmp/t r", []string{"git clone --template=/tmp/t r", "git clone --template=/tmp/t r OPAQUE"}},
		{"git push --receive-pack=pwn origin", []string{"git push --receive-pack=pwn origin", "pwn via=git push --receive-pack"}},
		{"git push --exec=pwn origin", []string{"git push --exec=pwn origin", "pwn via=git push --receive-pack"}},
		{"git ls-remote --upload-pack=pwn origin", []string{"git ls-remote --upload-pack=pwn origin", "pwn via=git ls-remote --upload-pack"}},
		// A merge strategy that is not built in is the program git-merge-NAME.
		{"git merge -s pwn x", []string{"git merge -s pwn x", "git-merge-pwn via=git merge --strategy"}},
		{"git pull --strategy=ours", []string{"git pull --strategy=ours"}},
		{"git submodule foreach 'pwn $name'", []string{"git submodule foreach 'pwn $name'", "pwn ⟨$name⟩ via=git submodule foreach cwd=?"}},
		{"git bisect run pwn arg", []string{"git bisect run pwn arg", "pwn arg via=git bisect run"}},
		{"git filter-branch --tree-filter 'pwn' HEAD", []string{"git filter-branch --tree-filter pwn HEAD", "pwn via=git filter-branch --tree-filter"}},
		{"git grep -Opwn x", []string{"git grep -Opwn x", "pwn ⟨$@⟩ via=git grep --open-files-in-pager"}},
		{"git grep -O x", []string{"git grep -O x"}},
		{"git difftool -x pwn", []string{"git difftool -x pwn", "pwn ⟨$1⟩ ⟨$2⟩ via=git difftool --extcmd"}},
		{"git send-email --sendmail-c=pwn x", []string{"git send-email --sendmail-c=pwn x", "pwn via=git send-email --sendmail-cmd"}},
		{"git -c core.pager=pwn log", []string{"git -c core.pager=pwn log", "pwn via=git -c core.pager"}},
		// Another repository's configuration and hooks, another exec path.
		{"git --exec-path=/tmp/x ls-remote .", []string{"git --exec-path=/tmp/x ls-remote .", "git --exec-path=/tmp/x ls-remote . OPAQUE"}},
		{"git -C /tmp/x status", []string{"git -C /tmp/x status", "git -C /tmp/x status OPAQUE"}},
		{"git --git-dir=../x/.git log", []string{"git --git-dir=../x/.git log", "git --git-dir=../x/.git log OPAQUE"}},
		{"git -C src status", []string{"git -C src status"}},
		{"git fetch 'ext::sh -c pwn'", []string{"git fetch 'ext::sh -c pwn'", "git fetch 'ext::sh -c pwn' OPAQUE"}},
		{"git fetch origin main", []string{"git fetch origin main"}},
		{"GIT_PROXY_COMMAND=pwn git fetch", []string{"pwn via=GIT_PROXY_COMMAND (git's proxy command)", "git fetch"}},
		{"GIT_DIR=/tmp/x/.git git log", []string{"GIT_DIR=/tmp/x/.git OPAQUE", "git log"}},
		{"docker -H ssh://h ps", []string{"docker -H ssh://h ps", "ssh h docker system dial-stdio via=docker -H", "docker system dial-stdio via=docker -H>wrapper ssh cwd=?"}},
		{"git -C /home/u/proj/src status", []string{"git -C /home/u/proj/src status"}},

		// npm, npx, yarn, pnpm: exec-style commands run their operand as
		// a command; options that name a shell or node options are code.
		{"npm exec -- sh -c 'pwn'", []string{"npm exec -- sh -c pwn", "sh -c pwn via=npm exec", "pwn via=npm exec>shell sh"}},
		{"npm exe pwn", []string{"npm exe pwn", "pwn via=npm exec"}},
		{"npm x --yes pwn a", []string{"npm x --yes pwn a", "pwn a via=npm exec"}},
		{"npm exec -c 'pwn'", []string{"npm exec -c pwn", "pwn via=npm exec --call"}},
		{"npm exec --package=evil -- x", []string{"npm exec --package=evil -- x", "npm exec --package=evil -- x OPAQUE"}},
		{"npx pwn --flag", []string{"npx pwn --flag", "pwn --flag via=npx"}},
		{"npx --odd pwn", []string{"npx --odd pwn", "npx --odd pwn OPAQUE"}},
		{"npx -y tsc", []string{"npx -y tsc", "tsc via=npx"}},
		{"npm test --script-shell=pwn", []string{"npm test --script-shell=pwn", "npm test --script-shell=pwn OPAQUE"}},
		{"npm test --script-shell=/bin/bash", []string{"npm test --script-shell=/bin/bash"}},
		{"npm run build --node-options=--require=./x.js", []string{"npm run build --node-options=--require=./x.js", "npm run build --node-options=--require=./x.js OPAQUE"}},
		{"npm test -- --script-shell=pwn", []string{"npm test -- --script-shell=pwn"}},
		{"npm --prefix /tmp/x test", []string{"npm --prefix /tmp/x test", "npm --prefix /tmp/x test OPAQUE"}},
		{"npm explore pkg -- pwn", []string{"npm explore pkg -- pwn", "pwn via=npm explore cwd=?"}},
		{"npm run build -- --watch", []string{"npm run build -- --watch"}},
		{"npm_config_script_shell=pwn npm test", []string{"npm_config_script_shell=pwn OPAQUE", "npm test"}},
		// Yarn 1 runs the words as a command, Yarn 2+ the first as a line of
		// its shell (here bash reading its input): both are judged.
		{"yarn exec bash -c 'pwn'", []string{"yarn exec bash -c pwn", "bash -c pwn via=yarn exec", "pwn via=yarn exec>shell bash", "bash via=yarn exec (its shell) OPAQUE"}},
		{"yarn exec 'pwn; x'", []string{"yarn exec 'pwn; x'", "'pwn; x' via=yarn exec", "pwn via=yarn exec (its shell)", "x via=yarn exec (its shell)"}},
		{"yarn dlx pwn", []string{"yarn dlx pwn", "pwn via=yarn dlx"}},
		{"yarn node -e 'x'", []string{"yarn node -e x", "node -e x via=yarn node", "node -e x via=yarn node OPAQUE"}},
		{"pnpm exec pwn", []string{"pnpm exec pwn", "pwn via=pnpm exec"}},
		{"pnpm exec -c 'pwn a'", []string{"pnpm exec -c 'pwn a'", "pwn a via=pnpm exec --shell-mode"}},
		{"pnpm dlx pwn", []string{"pnpm dlx pwn", "pwn via=pnpm dlx"}},

		// make: --eval text, another makefile, a shell, variables.
		{"make test --eval 'x:=$(shell pwn)'", []string{"make test --eval 'x:=$(shell pwn)'", "make test --eval 'x:=$(shell pwn)' OPAQUE"}},
		{"make --ev=x test", []string{"make --ev=x test", "make --ev=x test OPAQUE"}},
		{"make -f other.mk", []string{"make -f other.mk", "make -f other.mk OPAQUE"}},
		{"make -f Makefile test", []string{"make -f Makefile test"}},
		{"make SHELL=pwn", []string{"make SHELL=pwn", "make SHELL=pwn OPAQUE"}},
		{"make SHELL=/bin/bash test", []string{"make SHELL=/bin/bash test"}},
		{"make .SHELLFLAGS='-c pwn;' test", []string{"make '.SHELLFLAGS=-c pwn;' test", "make '.SHELLFLAGS=-c pwn;' test OPAQUE"}},
		{"make .SHELLFLAGS=-ec test", []string{"make .SHELLFLAGS=-ec test"}},
		{"make 'X!=pwn'", []string{"make X!=pwn", "pwn via=make X != (run by make's shell)"}},
		{"make CC=pwn", []string{"make CC=pwn", "pwn via=make variable CC (a recipe may run its value)"}},
		{"make X='a; pwn'", []string{"make 'X=a; pwn'", "a via=make variable X (a recipe may run its value)", "pwn via=make variable X (a recipe may run its value)"}},
		{"make X='$(shell pwn)'", []string{"make 'X=$(shell pwn)'", "make 'X=$(shell pwn)' OPAQUE"}},
		{"make V=1 CFLAGS='-O2 -g' -j4 test", []string{"make V=1 'CFLAGS=-O2 -g' -j4 test"}},
		{"make MAKEFLAGS=--eval=x", []string{"make MAKEFLAGS=--eval=x", "make MAKEFLAGS=--eval=x OPAQUE"}},
		{"MAKEFLAGS='-f x.mk' make", []string{"MAKEFLAGS='-f x.mk' OPAQUE", "make"}},
		{"TEST_CMD=pwn make test", []string{"make test", "pwn via=variable TEST_CMD in make's environment (a recipe may run its value)"}},
		{"make -C /tmp/x", []string{"make -C /tmp/x", "make -C /tmp/x OPAQUE"}},
		{"make -C sub test", []string{"make -C sub test"}},
		{"make $T", []string{"make ⟨$T⟩", "make ⟨$T⟩ OPAQUE"}},

		// go: -exec, -toolexec, -vettool, -ldflags -extld, GOFLAGS.
		{"go test -exec pwn ./...", []string{"go test -exec pwn ./...", "pwn via=go test -exec"}},
		{"go test ./... -exec='pwn a'", []string{"go test ./... '-exec=pwn a'", "pwn a via=go test -exec"}},
		{"go run -exec pwn .", []string{"go run -exec pwn .", "pwn via=go run -exec"}},
		{"go run . -exec pwn", []string{"go run . -exec pwn"}}, // the program's own arguments
		{"go build -toolexec=pwn ./...", []string{"go build -toolexec=pwn ./...", "pwn via=go build -toolexec"}},
		{"go vet -vettool=pwn ./...", []string{"go vet -vettool=pwn ./...", "pwn via=go vet -vettool"}},
		{"go build -ldflags='-extld=pwn' .", []string{"go build -ldflags=-extld=pwn .", "pwn via=go build -ldflags -extld"}},
		{"go build -ldflags '-X main.v=1' .", []string{"go build -ldflags '-X main.v=1' ."}},
		{"GOFLAGS=-toolexec=pwn go build", []string{"pwn via=go (GOFLAGS) -toolexec", "go build"}},
		{"go run github.com/x/y@latest", []string{"go run github.com/x/y@latest", "go run github.com/x/y@latest OPAQUE"}},
		{"go run /tmp/x.go", []string{"go run /tmp/x.go", "go run /tmp/x.go OPAQUE"}},
		{"go env -w GOFLAGS=-toolexec=x", []string{"go env -w GOFLAGS=-toolexec=x", "go env -w GOFLAGS=-toolexec=x OPAQUE"}},
		{"go -C /tmp/x test", []string{"go -C /tmp/x test", "go -C /tmp/x test OPAQUE"}},

		// cargo: runners, linkers and wrappers in --config or CARGO_*.
		{`cargo --config 'target.x86_64-unknown-linux-gnu.runner="pwn a"' test`, []string{`cargo --config 'target.x86_64-unknown-linux-gnu.runner="pwn a"' test`, `pwn a via=cargo --config target.x86_64-unknown-linux-gnu.runner`}},
		{`cargo test --config=build.rustc-wrapper='["pwn"]'`, []string{`cargo test --config=build.rustc-wrapper=["pwn"]`, "pwn via=cargo --config build.rustc-wrapper"}},
		{"cargo --config /tmp/c.toml run", []string{"cargo --config /tmp/c.toml run", "cargo --config /tmp/c.toml run OPAQUE"}},
		{"cargo test --config 'env.LD_PRELOAD=\"x\"'", []string{`cargo test --config env.LD_PRELOAD="x"`, `cargo test --config env.LD_PRELOAD="x" OPAQUE`}},
		{"cargo build --config profile.dev.opt-level=3", []string{"cargo build --config profile.dev.opt-level=3"}},
		{"cargo test --manifest-path /tmp/x/Cargo.toml", []string{"cargo test --manifest-path /tmp/x/Cargo.toml", "cargo test --manifest-path /tmp/x/Cargo.toml OPAQUE"}},
		{"cargo test -- --config x", []string{"cargo test -- --config x"}},
		{"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=pwn cargo run", []string{"pwn via=CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", "cargo run"}},
		{"RUSTC_WRAPPER=pwn cargo build", []string{"pwn via=RUSTC_WRAPPER (a program cargo runs)", "cargo build"}},
		{"export CARGO_BUILD_RUSTC_WRAPPER=pwn", []string{"pwn via=CARGO_BUILD_RUSTC_WRAPPER", "export CARGO_BUILD_RUSTC_WRAPPER=pwn"}},
		{"RUSTFLAGS='-C linker=pwn' cargo build", []string{"pwn via=RUSTFLAGS -C linker", "cargo build"}},
		// A place cargo writes is a part of its own, for the path rules.
		{"RUSTFLAGS='-D warnings' CARGO_TARGET_DIR=t cargo build", []string{"CARGO_TARGET_DIR=t", "cargo build"}},
		{"CARGO_REGISTRIES_CRATES_IO_PROTOCOL=sparse CARGO_INCREMENTAL=0 CARGO_TERM_COLOR=always RUSTFLAGS=-Ctarget-cpu=native cargo test", []string{"cargo test"}},
		{"CARGO_UNSTABLE_BUILD_STD=std cargo build", []string{"CARGO_UNSTABLE_BUILD_STD=std OPAQUE", "cargo build"}},
		{"CARGO_HOME=/tmp/h cargo build", []string{"CARGO_HOME=/tmp/h", "CARGO_HOME=/tmp/h OPAQUE", "cargo build"}},

		// python tools.
		{"uv run pwn", []string{"uv run pwn", "pwn via=uv run"}},
		{"uv run -m pytest -q", []string{"uv run -m pytest -q", "python -m pytest -q via=uv run", "pytest -q via=uv run>python -m"}},
		{"uv run x.py", []string{"uv run x.py", "python x.py via=uv run", "python x.py via=uv run OPAQUE"}},
		{"uv run --with evil pytest", []string{"uv run --with evil pytest", "uv run --with evil pytest OPAQUE", "pytest via=uv run"}},
		{"poetry run pwn", []string{"poetry run pwn", "pwn via=poetry run"}},
		{"coverage run -m pytest", []string{"coverage run -m pytest", "python -m pytest via=coverage run", "pytest via=coverage run>python -m"}},
		{"tox -e py -- -k x", []string{"tox -e py -- -k x"}},
		{"tox exec -e py -- pwn", []string{"tox exec -e py -- pwn", "pwn via=tox exec"}},
		{"tox -x testenv.commands=pwn", []string{"tox -x testenv.commands=pwn", "tox -x testenv.commands=pwn OPAQUE"}},
		{"tox --installpkg /tmp/x.whl", []string{"tox --installpkg /tmp/x.whl", "tox --installpkg /tmp/x.whl OPAQUE"}},
		{"tox -c tox.ini -e py", []string{"tox -c tox.ini -e py"}},

		// java and ruby.
		{"mvn exec:exec -Dexec.executable=pwn", []string{"mvn exec:exec -Dexec.executable=pwn", "mvn exec:exec -Dexec.executable=pwn OPAQUE", "pwn via=mvn -Dexec.executable"}},
		{"mvn -q -DskipTests package", []string{"mvn -q -DskipTests package"}},
		{"mvn test -DargLine=-javaagent:/tmp/a.jar", []string{"mvn test -DargLine=-javaagent:/tmp/a.jar", "mvn test -DargLine=-javaagent:/tmp/a.jar OPAQUE"}},
		{"./gradlew build -I init.gradle", []string{"./gradlew build -I init.gradle OPAQUE", "./gradlew build -I init.gradle", "./gradlew build -I init.gradle OPAQUE"}},
		{"./gradlew test", []string{"./gradlew test OPAQUE", "./gradlew test"}}, // a program file of the project (a rule of the person's, such as the java preset's, allows it)
		{"bundle exec pwn", []string{"bundle exec pwn", "pwn via=bundle exec"}},
		{"rake -e 'x'", []string{"rake -e x", "rake -e x OPAQUE"}},
		{"rake test RUBYOPT=-rx", []string{"rake test RUBYOPT=-rx", "RUBYOPT=-rx OPAQUE"}},
		{"rspec -r /tmp/x.rb", []string{"rspec -r /tmp/x.rb", "rspec -r /tmp/x.rb OPAQUE"}},
		{"docker logs x", []string{"docker logs x"}},

		// Test runners, linters and pip load code named in their
		// arguments: the project's is ordinary, other code asks.
		{"pytest tests/ -k x -q", []string{"pytest tests/ -k x -q"}},
		{"pytest tests/t.py::test_a[1] tests/*.py", []string{"pytest ⟨tests/t.py::test_a[1]⟩ ⟨tests/*.py⟩"}},
		{"pytest /tmp/*.py", []string{"pytest ⟨/tmp/*.py⟩", "pytest ⟨/tmp/*.py⟩ OPAQUE"}},
		{"pytest \"$T\"", []string{"pytest ⟨$T⟩", "pytest ⟨$T⟩ OPAQUE"}},
		{"pip install -e .[dev] 'x[y]'", []string{"pip install -e ⟨.[dev]⟩ x[y]"}},
		{"pytest /tmp/x/test_a.py", []string{"pytest /tmp/x/test_a.py", "pytest /tmp/x/test_a.py OPAQUE"}},
		{"pytest --rootdir=../x", []string{"pytest --rootdir=../x", "pytest --rootdir=../x OPAQUE"}},
		{"pytest -c /tmp/x.ini", []string{"pytest -c /tmp/x.ini", "pytest -c /tmp/x.ini OPAQUE"}},
		{"pytest --basetemp /tmp/bt tests", []string{"pytest --basetemp /tmp/bt tests"}},
		{"python -m pytest /tmp/x", []string{"python -m pytest /tmp/x", "pytest /tmp/x via=python -m", "pytest /tmp/x via=python -m OPAQUE"}},
		{"rspec spec/a_spec.rb", []string{"rspec spec/a_spec.rb"}},
		{"rspec -r /tmp/x.rb", []string{"rspec -r /tmp/x.rb", "rspec -r /tmp/x.rb OPAQUE"}},
		{"rspec ~/x_spec.rb", []string{"rspec /home/u/x_spec.rb", "rspec /home/u/x_spec.rb OPAQUE"}},
		{"rubocop -c /tmp/r.yml", []string{"rubocop -c /tmp/r.yml", "rubocop -c /tmp/r.yml OPAQUE"}},
		{"jest --config /tmp/j.js", []string{"jest --config /tmp/j.js", "jest --config /tmp/j.js OPAQUE"}},
		{"jest -t 'adds /x' src", []string{"jest -t 'adds /x' src"}},
		{"npx jest --globalSetup=/tmp/s.js", []string{"npx jest --globalSetup=/tmp/s.js", "jest --globalSetup=/tmp/s.js via=npx", "jest --globalSetup=/tmp/s.js via=npx OPAQUE"}},
		{"eslint --rulesdir /tmp/rules .", []string{"eslint --rulesdir /tmp/rules .", "eslint --rulesdir /tmp/rules . OPAQUE"}},
		{"prettier --plugin=/tmp/p.js --write .", []string{"prettier --plugin=/tmp/p.js --write .", "prettier --plugin=/tmp/p.js --write . OPAQUE"}},
		{"pip install requests 'flask>=2' -e .", []string{"pip install requests flask>=2 -e ."}},
		{"npm install lodash @types/node left-pad@1.3.0 x@npm:y ./pkg", []string{"npm install lodash @types/node left-pad@1.3.0 x@npm:y ./pkg"}},
		{"npm i github:u/r", []string{"npm i github:u/r", "npm i github:u/r OPAQUE"}},
		{"npm i @x/y@github:u/r", []string{"npm i @x/y@github:u/r", "npm i @x/y@github:u/r OPAQUE"}},
		{"npm i @x/y@^2 z@npm:@a/b@1", []string{"npm i @x/y@^2 z@npm:@a/b@1"}},
		{"npm add u/r", []string{"npm add u/r", "npm add u/r OPAQUE"}},
		{"npm install git+https://x/y.git", []string{"npm install git+https://x/y.git", "npm install git+https://x/y.git OPAQUE"}},
		{"npm install /tmp/pkg", []string{"npm install /tmp/pkg", "npm install /tmp/pkg OPAQUE"}},
		{"npm install -D ../x.tgz", []string{"npm install -D ../x.tgz", "npm install -D ../x.tgz OPAQUE"}},
		{"yarn add https://x/y.tgz", []string{"yarn add https://x/y.tgz", "yarn add https://x/y.tgz OPAQUE"}},
		{"pnpm add -D vitest", []string{"pnpm add -D vitest"}},
		{"pip install -r requirements.txt", []string{"pip install -r requirements.txt"}},
		{"pip install git+https://x/y.git", []string{"pip install git+https://x/y.git", "pip install git+https://x/y.git OPAQUE"}},
		{"pip install /tmp/pkg", []string{"pip install /tmp/pkg", "pip install /tmp/pkg OPAQUE"}},
		{"pip install -e ../other", []string{"pip install -e ../other", "pip install -e ../other OPAQUE"}},
		{"pip install --target /tmp/t requests", []string{"pip install --target /tmp/t requests"}},
		{"uv pip install /tmp/pkg", []string{"uv pip install /tmp/pkg", "uv pip install /tmp/pkg OPAQUE"}},
		{"go build -modfile=/tmp/go.mod .", []string{"go build -modfile=/tmp/go.mod .", "go build -modfile=/tmp/go.mod . OPAQUE"}},
	})
}

// The variables build tools read, wherever the text sets them.
func TestCarriedEnv(t *testing.T) {
	runTable(t, []tcase{
		{"PYTHONPATH=src pytest", []string{"pytest"}},
		{"PYTHONPATH=/tmp/x pytest", []string{"PYTHONPATH=/tmp/x OPAQUE", "pytest"}},
		{"PYTHONPATH=/home/u/proj/src:lib pytest", []string{"pytest"}},
		{"RUBYLIB=../x rake test", []string{"RUBYLIB=../x OPAQUE", "rake test"}},
		{"MAVEN_OPTS='-Xmx2g -XX:+UseG1GC' mvn test", []string{"mvn test"}},
		{"MAVEN_OPTS=-javaagent:/tmp/a.jar mvn test", []string{"MAVEN_OPTS=-javaagent:/tmp/a.jar OPAQUE", "mvn test"}},
		{"JAVA_TOOL_OPTIONS='-XX:OnError=pwn' gradle test", []string{"JAVA_TOOL_OPTIONS=-XX:OnError=pwn OPAQUE", "gradle test"}},
		{"export CC=pwn", []string{"pwn via=CC (the program build tools run as CC)", "export CC=pwn"}},
		{"env CXX=pwn make", []string{"env CXX=pwn make", "pwn via=wrapper env>CXX (the program build tools run as CXX)", "make via=wrapper env"}},
		{"CC= make", []string{"make"}},
		{"GOFLAGS='-mod=mod -tags=x' go build", []string{"go build"}},
		{"GOROOT=/tmp/go go build", []string{"GOROOT=/tmp/go OPAQUE", "go build"}},
		{"DOCKER_HOST=ssh://h docker ps", []string{"ssh h docker system dial-stdio via=DOCKER_HOST", "docker system dial-stdio via=DOCKER_HOST>wrapper ssh cwd=?", "docker ps"}},
		{"NPM_CONFIG_NODE_OPTIONS=-r/tmp/x npm test", []string{"NPM_CONFIG_NODE_OPTIONS=-r/tmp/x OPAQUE", "npm test"}},
		{"MAKE=pwn make", []string{"make", "pwn via=variable MAKE in make's environment (a recipe may run its value)"}},
		{"GOROOT=/usr/local/go go build", []string{"go build"}},
		{"JAVA_HOME=/usr/lib/jvm/java-17 ./gradlew test", []string{"./gradlew test OPAQUE", "./gradlew test"}},
		{"JAVA_HOME=./jdk ./gradlew test", []string{"JAVA_HOME=./jdk OPAQUE", "./gradlew test OPAQUE", "./gradlew test"}},
		{"GOWORK=/tmp/go.work go test ./...", []string{"GOWORK=/tmp/go.work OPAQUE", "go test ./..."}},
		{"RUSTUP_TOOLCHAIN=/tmp/tc cargo build", []string{"RUSTUP_TOOLCHAIN=/tmp/tc OPAQUE", "cargo build"}},
		{"pnpm test --config.script-shell=pwn", []string{"pnpm test --config.script-shell=pwn", "pnpm test --config.script-shell=pwn OPAQUE"}},
	})
}

// A make variable whose value is a plain word that names no program in
// PATH carries nothing (GOOS=linux); one that names a program is judged.
func TestMakeValueProgram(t *testing.T) {
	opts := shellparse.Options{Cwd: proj,
		Getenv: func(k string) string {
			if k == "PATH" {
				return "/usr/bin:/bin"
			}
			return getenv(k)
		},
		Glob: func(p string, _ shellparse.GlobMode) ([]string, bool) {
			if p == "/usr/bin/clang" {
				return []string{p}, true
			}
			return nil, true
		}}
	for src, want := range map[string][]string{
		"make GOOS=linux TAG=v1.2 build": {"make GOOS=linux TAG=v1.2 build"},
		"GOARCH=arm64 make":              {"make"},
		"make CC=clang":                  {"make CC=clang", "clang via=make variable CC (a recipe may run its value)"},
		"make X=eval":                    {"make X=eval", "eval via=make variable X (a recipe may run its value)"},
		"make X=./run":                   {"make X=./run", "./run via=make variable X (a recipe may run its value) OPAQUE", "./run via=make variable X (a recipe may run its value)"},
	} {
		res, err := shellparse.Parse(src, opts)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		if got := renderAll(res); !slices.Equal(got, want) {
			t.Errorf("Parse(%q)\n got  %s\n want %s", src, fmtList(got), fmtList(want))
		}
	}
}
