package policy

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// projectProposals reads a project's files for what guard-exec init can
// propose beyond presets (found names those in the config): the ports its
// development server listens on (dev_ports), read-only docker compose verbs
// when it has a compose file, and what its package.json, Makefile,
// pyproject.toml and scripts/ hold (starter_project.go). What it cannot
// tell for sure it does not propose, and every proposal has a comment
// saying what it found and where.
func projectProposals(p ProjectFiles, found []string) string {
	read := p.Read
	var b strings.Builder
	ports, where := devPorts(read)
	if len(ports) > 0 {
		b.WriteString("# The project's development server, found in:\n")
		for _, w := range where {
			fmt.Fprintf(&b, "#   %s\n", w)
		}
		b.WriteString("# curl and wget may send data (POST, -d, --json …) to these ports on this\n# machine (localhost, 127.0.0.1, ::1) without asking; other hosts and ports ask.\n")
		strs := make([]string, len(ports))
		for i, p := range ports {
			strs[i] = strconv.Itoa(p)
		}
		fmt.Fprintf(&b, "dev_ports = [%s]\n\n", strings.Join(strs, ", "))
	}
	for _, f := range composeFiles {
		if _, ok := read(f); !ok {
			continue
		}
		fmt.Fprintf(&b, "# %s: the project's containers. docker compose ps, logs, images, top, ls\n# and version only show them and are allowed by default; up, build, down and\n# exec keep asking, and so does config, which prints the values it reads from\n# .env and env_file (secrets).\n\n", f)
		break
	}
	b.WriteString(nodeProposals(read, found))
	b.WriteString(makeProposals(read, found))
	b.WriteString(pyprojectProposals(read, found, p.Allowed))
	b.WriteString(scriptsDirNote(p.Executables))
	return b.String()
}

var composeFiles = []string{"compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml"}

// devTools are development servers and the port each listens on unless
// told otherwise.
var devTools = []struct {
	re   string
	port int
}{
	{`\bvite(\s|$)(?:dev\b)?`, 5173}, {`\bnext\s+dev\b`, 3000}, {`\breact-scripts\s+start\b`, 3000},
	{`\bnuxt\s+dev\b`, 3000}, {`\bastro\s+dev\b`, 4321}, {`\bng\s+serve\b`, 4200},
	{`\bwebpack(-dev-server|\s+serve)\b`, 8080}, {`\bvue-cli-service\s+serve\b`, 8080},
	{`\bgatsby\s+develop\b`, 8000}, {`\bremix\s+dev\b`, 3000}, {`\bsvelte-kit\s+dev\b`, 5173},
}

var portFlag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:--port[= ]|(?:^|\s)-p\s+|\bPORT=|localhost:|127\.0\.0\.1:)(\d{2,5})\b`)
})

// envExamples are the example environment files projects commit.
var envExamples = []string{".env.example", ".env.sample", ".env.template"}

var envPort = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:export\s+)?((?:[A-Z0-9]+_)*(?:BACKEND|SERVER|API|APP|WEB|DEV|FRONTEND|HTTP)_PORT|PORT)=["']?(\d{2,5})["']?$`)
})

var composePort = sync.OnceValue(func() *regexp.Regexp {
	// - "3000:3000", - 127.0.0.1:8080:80, - "5432:5432/tcp"
	return regexp.MustCompile(`^\s*-\s*["']?(?:(?:127\.0\.0\.1|localhost|0\.0\.0\.0):)?(\d{2,5}):\d{1,5}(?:/tcp)?["']?\s*$`)
})

// devPorts finds the ports of the project's development server: in
// package.json scripts (a dev tool's default, or --port/-p/PORT=), in the
// host side of compose port mappings (of services that are not a
// published image, see composeDevPortLines), a server's *_PORT in
// .env.example, and the defaults of Django
// (manage.py: 8000), Flask (5000) and Rails (3000) where the project has
// them. where says where each was found.
func devPorts(read func(string) ([]byte, bool)) (ports []int, where []string) {
	found := map[int]string{}
	add := func(p int, why string) {
		if p >= 1024 && p <= 65535 {
			if _, ok := found[p]; !ok {
				found[p] = why
			}
		}
	}
	if b, ok := read("package.json"); ok {
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal(b, &pkg) == nil {
			names := make([]string, 0, len(pkg.Scripts))
			for n := range pkg.Scripts {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				script := pkg.Scripts[n]
				why := fmt.Sprintf("package.json script %q: %s", n, script)
				explicit := false
				for _, m := range portFlag().FindAllStringSubmatch(script, -1) {
					if p, err := strconv.Atoi(m[1]); err == nil {
						add(p, why)
						explicit = true
					}
				}
				if explicit {
					continue
				}
				for _, t := range devTools {
					if regexp.MustCompile(t.re).MatchString(script) {
						add(t.port, why+" (the tool's default port)")
						break
					}
				}
			}
		}
	}
	for _, f := range composeFiles {
		b, ok := read(f)
		if !ok {
			continue
		}
		for _, line := range composeDevPortLines(string(b)) {
			if m := composePort().FindStringSubmatch(line); m != nil {
				if p, err := strconv.Atoi(m[1]); err == nil {
					add(p, f+": ports "+strings.TrimSpace(line))
				}
			}
		}
	}
	// The example environment a project commits for its settings (never
	// .env itself, which holds secrets): a port its server is told to
	// listen on, by a name that says so (PORT, APP_PORT, API_PORT,
	// IES_BACKEND_PORT; not DB_PORT or REDIS_PORT).
	for _, f := range envExamples {
		b, ok := read(f)
		if !ok {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if m := envPort().FindStringSubmatch(strings.TrimSpace(line)); m != nil {
				if p, err := strconv.Atoi(m[2]); err == nil {
					add(p, f+": "+m[1]+"="+m[2])
				}
			}
		}
	}
	if _, ok := read("manage.py"); ok {
		add(8000, "manage.py (Django's runserver default)")
	}
	for _, f := range []string{"pyproject.toml", "requirements.txt"} {
		if b, ok := read(f); ok && regexp.MustCompile(`(?im)^\s*"?flask\b`).Match(b) {
			add(5000, f+" names flask (its default port)")
		}
	}
	if b, ok := read("Gemfile"); ok && regexp.MustCompile(`(?m)^\s*gem\s+["']rails["']`).Match(b) {
		add(3000, "Gemfile names rails (its default port)")
	}
	for p := range found {
		ports = append(ports, p)
	}
	sort.Ints(ports)
	for _, p := range ports {
		where = append(where, fmt.Sprintf("%d: %s", p, found[p]))
	}
	return ports, where
}

// composeDevPortLines returns the lines of a compose file (block style)
// that may map a port of the project's own server: the lines of its
// services' blocks, leaving out the services that run a published image
// and build nothing (image: and no build:). Those are databases, caches and
// other servers (neo4j, qdrant, elasticsearch, postgres) whose HTTP APIs
// delete data on a POST, not the project's development server, and
// dev_ports would allow curl to send them anything.
func composeDevPortLines(text string) []string {
	var out, block []string
	inServices, svcIndent, keyIndent := false, -1, -1
	image, build := false, false
	flush := func() {
		if !(image && !build) {
			out = append(out, block...)
		}
		block, image, build, keyIndent = nil, false, false, -1
	}
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		if indent == 0 {
			flush()
			inServices = strings.HasPrefix(trimmed, "services:")
			svcIndent = -1
			continue
		}
		if !inServices {
			continue
		}
		if svcIndent < 0 {
			svcIndent = indent
		}
		switch {
		case indent < svcIndent:
			flush()
			svcIndent = indent
		case indent == svcIndent:
			flush() // the next service
		default:
			if keyIndent < 0 {
				keyIndent = indent
			}
			// The service's own keys, not a nested one (deploy: …).
			if key, _, _ := strings.Cut(trimmed, ":"); indent == keyIndent {
				image = image || key == "image"
				build = build || key == "build"
			}
			block = append(block, line)
		}
	}
	flush()
	return out
}
