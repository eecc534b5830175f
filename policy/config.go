package policy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/BurntSushi/toml"

	"github.com/guard-exec/guard-exec/atomicfile"
)

// Settings are the non-rule keys of the config files.
type Settings struct {
	Shell         string
	Mode          string // "enforce" or "audit"
	Presets       []string
	AuditRedact   *bool
	PromptTimeout time.Duration
	// DevPorts are the ports of the project's own development server:
	// curl and wget may send data to them on this machine (devserver.go).
	DevPorts []int
	// devPortsSource is where DevPorts were set, for explanations.
	devPortsSource string
	// AskVia is how an ask reaches a person: "tty" (the default), "queue"
	// (the approval queue), or "tty,queue" (the terminal, else the queue).
	AskVia string
	// QueueTimeout is how long a queued request waits for a decision.
	QueueTimeout time.Duration
}

// ConfigError is a problem in a config file, with its position.
type ConfigError struct {
	File string
	Line int
	Msg  string
	Hint string
}

// ConfigErrors are every problem found in the configuration, in order.
type ConfigErrors []*ConfigError

func (es ConfigErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap lets errors.As find each *ConfigError.
func (es ConfigErrors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// err is nil, the one error, or all of them.
func (es ConfigErrors) err() error {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	return es
}

var configKeys = []string{"shell", "mode", "presets", "audit_redact", "prompt_timeout", "dev_ports", "ask_via", "queue_timeout", "rule"}
var ruleKeys = []string{"decision", "command", "flags", "path", "access", "why", "instead", "match", "not_match", "exact", "project"}

// unknownKeyHint suggests the key a typo was meant to be, and lists them.
func unknownKeyHint(key toml.Key) string {
	known, where := configKeys, "known keys: shell, mode, presets, audit_redact, prompt_timeout, dev_ports, ask_via, queue_timeout, and [[rule]] with decision, command, flags, path, access, why, instead, match, not_match, exact, project"
	if len(key) >= 2 && key[0] == "rule" {
		known = ruleKeys
	}
	if near := didYouMean(key[len(key)-1], known); near != "" {
		return near + "; " + where
	}
	return where
}

// didYouMean names the word a typo was probably meant to be, or "".
func didYouMean(typo string, words []string) string {
	best, bestD := "", 3
	for _, w := range words {
		if d := editDistance(strings.ToLower(typo), w); d < bestD && d <= max(1, len(w)/3) {
			best, bestD = w, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("did you mean %q?", best)
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of neighbours that turn a into b.
func editDistance(a, b string) int {
	prevPrev := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prevPrev[j-2]+1) // two letters swapped
			}
		}
		prevPrev, prev = prev, cur
	}
	return prev[len(b)]
}

func (e *ConfigError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

type fileRule struct {
	Decision string   `toml:"decision"`
	Command  string   `toml:"command"`
	Flags    []string `toml:"flags"`
	Path     string   `toml:"path"`
	Access   string   `toml:"access"`
	Why      string   `toml:"why"`
	Instead  string   `toml:"instead"`
	Match    []string `toml:"match"`
	NotMatch []string `toml:"not_match"`
	Exact    bool     `toml:"exact"`
	Project  string   `toml:"project"`
}

type fileConfig struct {
	Shell         string     `toml:"shell"`
	Mode          string     `toml:"mode"`
	Presets       []string   `toml:"presets"`
	AuditRedact   *bool      `toml:"audit_redact"`
	PromptTimeout string     `toml:"prompt_timeout"`
	DevPorts      []int      `toml:"dev_ports"`
	AskVia        string     `toml:"ask_via"`
	QueueTimeout  string     `toml:"queue_timeout"`
	Rule          []fileRule `toml:"rule"`
}

// File is a parsed config file.
type File struct {
	Path     string
	Layer    Layer
	Settings Settings
	// rules are the file's rules: all of them when it was decoded; when
	// readSimpleConfig read it, those made so far (rule), at the index of
	// their simple rule, nil until then.
	rules  []*Rule
	simple []plainRule
}

// Rules returns every rule of the file, in order.
func (f *File) Rules() []*Rule {
	for i := range f.simple {
		f.rule(i)
	}
	return f.rules
}

// count is the number of rules in the file.
func (f *File) count() int {
	if f.simple != nil {
		return len(f.simple)
	}
	return len(f.rules)
}

// rule returns the file's i-th rule, making it from its simple rule the
// first time: a Rule made once, so that every policy built of the file
// shares it (Shadowed compares rules by identity).
func (f *File) rule(i int) *Rule {
	if r := f.rules[i]; r != nil {
		return r
	}
	s := &f.simple[i]
	r := &Rule{Layer: f.Layer, Source: f.Path + ":" + strconv.Itoa(int(s.Line))}
	s.fill(r)
	f.rules[i] = r
	return r
}

// decision is the decision of the file's i-th rule.
func (f *File) decision(i int) Decision {
	if f.simple != nil {
		return f.simple[i].Decision
	}
	return f.rules[i].Decision
}

// line is the line of the file's i-th rule.
func (f *File) line(i int) int {
	if f.simple != nil {
		return int(f.simple[i].Line)
	}
	r := f.rules[i]
	line := 0
	fmt.Sscanf(r.Source[strings.LastIndexByte(r.Source, ':')+1:], "%d", &line)
	return line
}

// parseErrorLine is the line a person should look at. The TOML lexer
// reports an error found at a line's end ("[[rule]" then newline) on the
// next line, past the newline it choked on; the error's byte offset is
// where it starts.
func parseErrorLine(pe toml.ParseError, text string) int {
	if st := pe.Position.Start; st > 0 && st <= len(text) {
		return 1 + strings.Count(text[:st], "\n")
	}
	return pe.Position.Line
}

// isRuleHeader reports whether a line starts a [[rule]] table, as the
// regular expression ^\s*\[\[\s*rule\s*\]\] would (a regexp cost more
// than decoding a small file).
func isRuleHeader(l string) bool {
	const space = " \t\n\f\r"
	l = strings.TrimLeft(l, space)
	l, ok := strings.CutPrefix(l, "[[")
	if !ok {
		return false
	}
	l, ok = strings.CutPrefix(strings.TrimLeft(l, space), "rule")
	return ok && strings.HasPrefix(strings.TrimLeft(l, space), "]]")
}

// ParseFile parses config text. Rules are returned uncompiled; Build
// compiles and checks them.
func ParseFile(path string, text []byte, layer Layer) (*File, error) {
	return parseFile(path, text, layer, true)
}

// parseFile parses config text; with fast, a file of plain rules is read
// without the TOML decoder (readSimpleConfig), to the same result.
func parseFile(path string, text []byte, layer Layer, fast bool) (*File, error) {
	return parseText(path, string(text), layer, fast)
}

// parseText is parseFile of text as a string, which the rules' strings may
// share.
func parseText(path, src string, layer Layer, fast bool) (*File, error) {
	if fast {
		if rules, ok := readSimpleConfig(src); ok {
			// Plain rules, no settings: nothing more to check here. Each
			// Rule is made when it is needed (File.rule).
			return &File{Path: path, Layer: layer, simple: rules, rules: make([]*Rule, len(rules))}, nil
		}
	}
	var fc fileConfig
	var undecoded []toml.Key
	var headers []int
	{
		md, err := toml.Decode(src, &fc)
		if err != nil {
			var pe toml.ParseError
			if errors.As(err, &pe) {
				return nil, &ConfigError{File: path, Line: parseErrorLine(pe, src), Msg: "not valid TOML: " + pe.Message, Hint: "fix the TOML syntax at that line"}
			}
			return nil, &ConfigError{File: path, Line: typeErrorLine(err, src), Msg: err.Error(), Hint: "check the value's type (strings are quoted, lists use [ ])"}
		}
		undecoded = md.Undecoded()
		// The decoder matches keys ignoring case, so [[Rule]] beside
		// [[rule]] was read one way or the other by map order: a key
		// spelled in another case is unknown, as any misspelling is.
		said := map[string]bool{}
		for _, k := range md.Keys() {
			for i, c := range k {
				if !slices.Contains(configKeys, c) && !slices.Contains(ruleKeys, c) &&
					(slices.Contains(configKeys, strings.ToLower(c)) || slices.Contains(ruleKeys, strings.ToLower(c))) {
					if top := k[:i+1]; !said[top.String()] {
						said[top.String()] = true
						undecoded = append(undecoded, top)
					}
					break
				}
			}
		}
		for i, l := range strings.Split(src, "\n") {
			if isRuleHeader(l) {
				headers = append(headers, i+1)
			}
		}
	}
	// The lines, for finding a key's line: split only when a key is wrong.
	var lineCache []string
	lines := func() []string {
		if lineCache == nil {
			lineCache = strings.Split(src, "\n")
		}
		return lineCache
	}
	// Every problem of the file at once, each at its line.
	var errs ConfigErrors
	bad := func(line int, msg, hint string) {
		errs = append(errs, &ConfigError{File: path, Line: line, Msg: msg, Hint: hint})
	}
	keyAt := func(key string) int { l := lines(); return findKey(l, 0, len(l), key) }
	for _, key := range undecoded {
		bad(keyLine(lines(), headers, key), fmt.Sprintf("unknown key %q", key.String()), unknownKeyHint(key))
	}
	f := &File{Path: path, Layer: layer}
	f.Settings = Settings{Shell: fc.Shell, Mode: fc.Mode, Presets: fc.Presets, AuditRedact: fc.AuditRedact, DevPorts: fc.DevPorts}
	for _, port := range fc.DevPorts {
		if port < 1 || port > 65535 {
			bad(keyAt("dev_ports"), fmt.Sprintf("dev_ports: %d is not a port", port), "for example dev_ports = [3000, 5173]")
		}
	}
	if len(fc.DevPorts) > 0 {
		f.Settings.devPortsSource = fmt.Sprintf("%s:%d", path, keyAt("dev_ports"))
	}
	if fc.Shell != "" && !filepath.IsAbs(fc.Shell) {
		bad(keyAt("shell"), fmt.Sprintf("shell must be an absolute path, not %q", fc.Shell), `for example shell = "/bin/bash"`)
	}
	switch fc.Mode {
	case "", "enforce", "audit":
	default:
		bad(keyAt("mode"), fmt.Sprintf("mode must be \"enforce\" or \"audit\", not %q", fc.Mode), didYouMean(fc.Mode, []string{"enforce", "audit"}))
	}
	for _, p := range fc.Presets {
		if _, ok := Presets()[p]; !ok {
			hint := "known presets: " + strings.Join(PresetNames(), ", ")
			if near := didYouMean(p, PresetNames()); near != "" {
				hint = near + "; " + hint
			}
			bad(keyAt("presets"), fmt.Sprintf("unknown preset %q", p), hint)
		}
	}
	if fc.PromptTimeout != "" {
		d, err := time.ParseDuration(fc.PromptTimeout)
		if err != nil || d < 0 {
			bad(keyAt("prompt_timeout"), fmt.Sprintf("prompt_timeout %q is not a duration", fc.PromptTimeout), `for example prompt_timeout = "2m"`)
		}
		f.Settings.PromptTimeout = d
	}
	switch fc.AskVia {
	case "", "tty", "queue", "tty,queue":
		f.Settings.AskVia = fc.AskVia
	default:
		bad(keyAt("ask_via"), fmt.Sprintf("ask_via must be \"tty\", \"queue\" or \"tty,queue\", not %q", fc.AskVia),
			`"tty,queue" asks on the terminal when there is one, else in the approval queue (guard-exec approvals)`)
	}
	if fc.QueueTimeout != "" {
		d, err := time.ParseDuration(fc.QueueTimeout)
		if err != nil || d <= 0 {
			bad(keyAt("queue_timeout"), fmt.Sprintf("queue_timeout %q is not a positive duration", fc.QueueTimeout), `for example queue_timeout = "90s"`)
		}
		f.Settings.QueueTimeout = d
	}
	// The rules, allocated together, and their sources ("file:line") cut
	// from one string: a file may hold thousands.
	rules := make([]Rule, len(fc.Rule))
	sources := ruleSources(path, headers, len(fc.Rule))
	f.rules = make([]*Rule, 0, len(fc.Rule))
	for i := range fc.Rule {
		fr := &fc.Rule[i]
		line := 0
		if i < len(headers) {
			line = headers[i]
		}
		d, ok := ParseDecision(fr.Decision)
		if !ok {
			msg := fmt.Sprintf("decision must be \"allow\", \"ask\" or \"deny\", not %q", fr.Decision)
			hint := `add decision = "allow", "ask" or "deny"`
			if fr.Decision == "" {
				msg = "rule has no decision"
			} else if near := didYouMean(fr.Decision, []string{"allow", "ask", "deny"}); near != "" {
				hint = near
			}
			bad(line, msg, hint)
			continue
		}
		r := &rules[i]
		*r = Rule{
			Decision: d, Command: fr.Command, Flags: fr.Flags, Path: fr.Path, Access: fr.Access,
			Why: fr.Why, Instead: fr.Instead, Match: fr.Match, NotMatch: fr.NotMatch, Exact: fr.Exact, Project: fr.Project,
			Source: sources[i], Layer: layer,
		}
		f.rules = append(f.rules, r)
	}
	if len(errs) > 0 {
		// Say what else is wrong too, rules included, so that one run of
		// guard-exec test lists it all (Build checks rules of a file that
		// parses).
		for _, r := range f.rules {
			if err := r.check(&Env{Home: "/", Project: "/"}); err != nil {
				line := 0
				fmt.Sscanf(r.Source[strings.LastIndexByte(r.Source, ':')+1:], "%d", &line)
				bad(line, err.Error(), "see the README for the rule format")
			}
		}
		sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
		return nil, errs.err()
	}
	return f, nil
}

// ruleSources returns "path:line" for each of n rules, cut from one
// string. A rule past the headers found (which should not happen) is at
// line 0, as before.
func ruleSources(path string, headers []int, n int) []string {
	b := make([]byte, 0, n*(len(path)+8))
	ends := make([]int, n)
	for i := range n {
		line := 0
		if i < len(headers) {
			line = headers[i]
		}
		b = append(b, path...)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(line), 10)
		ends[i] = len(b)
	}
	all := unsafe.String(unsafe.SliceData(b), len(b)) // b is written no more
	out := make([]string, n)
	start := 0
	for i, end := range ends {
		out[i], start = all[start:end], end
	}
	return out
}

// keyLine finds the line of an undecoded key.
func keyLine(lines []string, headers []int, key toml.Key) int {
	if len(key) >= 2 && key[0] == "rule" {
		// Keys of the n-th [[rule]] are not numbered by toml: search every
		// rule for the key name.
		for i, h := range headers {
			end := len(lines)
			if i+1 < len(headers) {
				end = headers[i+1] - 1
			}
			if l := findKey(lines, h, end, key[len(key)-1]); l > 0 {
				return l
			}
		}
	}
	return findKey(lines, 0, len(lines), key[len(key)-1])
}

func findKey(lines []string, from, to int, key string) int {
	re := regexp.MustCompile(`^\s*"?` + regexp.QuoteMeta(key) + `"?\s*=`)
	// An unknown table ([extra], [[rules]], [rule.x]) is named by its header.
	hdr := regexp.MustCompile(`^\s*\[\[?\s*([A-Za-z0-9_.-]+\.)?"?` + regexp.QuoteMeta(key) + `"?\s*\]`)
	for i := from; i < to && i < len(lines); i++ {
		if re.MatchString(lines[i]) || hdr.MatchString(lines[i]) {
			return i + 1
		}
	}
	return 0
}

var lineInErr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })

func typeErrorLine(err error, text string) int {
	if m := lineInErr().FindStringSubmatch(err.Error()); m != nil {
		n := 0
		fmt.Sscan(m[1], &n)
		return n
	}
	return 0
}

// MaxConfigBytes is the largest config file read (about 100,000 rules).
const MaxConfigBytes = 16 << 20

// ReadConfig reads a config file's text. A missing file is an error
// matching os.ErrNotExist; anything but a regular file of at most
// MaxConfigBytes (a FIFO, a device, a directory) is a *ConfigError, so that
// no file put in the project tree can make the guard hang or run out of
// memory: a config that cannot be read refuses every command, as a broken
// one does.
func ReadConfig(path string) ([]byte, error) {
	text, err := atomicfile.ReadFile(path, MaxConfigBytes)
	if errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		hint := "check the file's permissions"
		if errors.Is(err, atomicfile.ErrNotRegular) || errors.Is(err, atomicfile.ErrTooLarge) {
			hint = "a config file is a regular file of at most 16 MiB; replace or remove it"
		}
		return nil, &ConfigError{File: path, Msg: "cannot read: " + err.Error(), Hint: hint}
	}
	return text, nil
}

// LoadFile reads and parses a config file; a missing file is (nil, nil).
func LoadFile(path string, layer Layer) (*File, error) {
	text, err := ReadConfig(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(text) == 0 {
		return ParseFile(path, text, layer)
	}
	// The rules' strings are cut from the text: this buffer is no one
	// else's and is never written again, so it is the string, not copied
	// (a file of 10,000 rules is most of a megabyte, every call).
	return parseText(path, unsafe.String(&text[0], len(text)), layer, true)
}

// Sources are the configuration layers to build a policy from.
type Sources struct {
	Env     *Env
	User    *File // may be nil
	Project *File // may be nil
	// ProjectTrusted: a person has trusted the project file's current
	// content; otherwise only its deny and ask rules apply.
	ProjectTrusted bool
	Session        []*Rule
	// CheckExamples runs every rule's match/not_match examples.
	CheckExamples bool
}

// Build compiles the layers into a policy.
func Build(src Sources) (*Policy, error) {
	builtin, err := builtinRules(src.Env)
	if err != nil {
		return nil, fmt.Errorf("built-in rules: %v", err)
	}
	pol := &Policy{Env: src.Env, builtin: builtin}
	var files []*File
	for _, f := range []*File{src.User, src.Project} {
		if f != nil {
			files = append(files, f)
		}
	}
	n := len(src.Session)
	for _, f := range files {
		n += f.count()
	}
	pol.rules = make([]*Rule, 0, n) // presets and dev ports may add a few
	presets := map[string]bool{}
	var ruleErrs ConfigErrors // every broken rule of every file, at once
	var scratch Rule          // a simple rule is checked as this Rule
	for _, f := range files {
		pol.Files = append(pol.Files, f.Path)
		mergeSettings(&pol.Settings, f.Settings, f.Layer == Project && !src.ProjectTrusted)
		for i := range f.count() {
			// Checked now (a broken file is refused whole), compiled when
			// first needed: a guard process judges a command or two. A
			// simple rule is made a Rule when first needed, too.
			var r *Rule
			if f.simple != nil && f.rules[i] == nil {
				s := &f.simple[i]
				if f.Layer == Project && !src.ProjectTrusted && f.decision(i) == Allow {
					continue
				}
				scratch = Rule{}
				s.fill(&scratch)
				if err := scratch.check(src.Env); err != nil {
					ruleErrs = append(ruleErrs, &ConfigError{File: f.Path, Line: int(s.Line), Msg: err.Error(), Hint: "see the README for the rule format"})
					continue
				}
				if pol.lazy == nil {
					pol.lazy = make([]lazyRule, len(pol.rules), cap(pol.rules))
				}
				pol.rules = append(pol.rules, nil)
				pol.lazy = append(pol.lazy, lazyRule{f: f, i: int32(i)})
				continue
			}
			r = f.rule(i)
			if f.Layer == Project && !src.ProjectTrusted && r.Decision == Allow {
				continue
			}
			err := r.check(src.Env)
			if err == nil && len(r.Match)+len(r.NotMatch) > 0 {
				err = r.compile(src.Env) // its examples are run below
			}
			if err != nil {
				ruleErrs = append(ruleErrs, &ConfigError{File: f.Path, Line: f.line(i), Msg: err.Error(), Hint: "see the README for the rule format"})
				continue
			}
			r.lazy, r.env = len(r.Match)+len(r.NotMatch) == 0, src.Env
			pol.add(r)
		}
		if f.Layer == Project && !src.ProjectTrusted {
			n := 0
			for i := range f.count() {
				if f.decision(i) == Allow {
					n++
				}
			}
			if n > 0 || len(f.Settings.Presets) > 0 {
				pol.Notices = append(pol.Notices, fmt.Sprintf("%s is not trusted: its %d allow rule(s) and presets are ignored until a person runs 'guard-exec trust' in that project", f.Path, n))
			}
		}
		if !(f.Layer == Project && !src.ProjectTrusted) {
			for _, p := range f.Settings.Presets {
				presets[p] = true
			}
		}
	}
	if err := ruleErrs.err(); err != nil {
		return nil, err
	}
	if len(pol.Settings.DevPorts) > 0 {
		r := devServerRule(pol.Settings.DevPorts, pol.Settings.devPortsSource)
		r.env = src.Env
		pol.add(r)
	}
	names := make([]string, 0, len(presets))
	for p := range presets {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, r := range Presets()[name].rules() {
			// Compiled when first needed (TestPresetsCompile checks them).
			r.Layer, r.Source, r.lazy, r.env, r.preset = User, "preset "+name, true, src.Env, true
			pol.add(r)
		}
	}
	for _, r := range src.Session {
		r.Layer = Session
		if err := r.check(src.Env); err != nil {
			continue // a corrupt approval is never an allow
		}
		r.lazy, r.env = true, src.Env // and one that fails to compile never matches
		pol.add(r)
	}
	pol.idx = newIndex(pol)
	if src.CheckExamples {
		for _, f := range files {
			if f.simple != nil {
				continue // no examples: readSimpleConfig reads none
			}
			for _, r := range f.rules {
				if err := pol.CheckExamples(r); err != nil {
					return nil, err
				}
			}
		}
	}
	return pol, nil
}

func mergeSettings(dst *Settings, s Settings, untrusted bool) {
	if untrusted {
		// An untrusted project file may only tighten: it can turn audit
		// mode into enforce, never the other way.
		if s.Mode == "enforce" {
			dst.Mode = "enforce"
		}
		return
	}
	if s.Shell != "" {
		dst.Shell = s.Shell
	}
	if s.Mode != "" {
		dst.Mode = s.Mode
	}
	if s.AuditRedact != nil {
		dst.AuditRedact = s.AuditRedact
	}
	if s.PromptTimeout != 0 {
		dst.PromptTimeout = s.PromptTimeout
	}
	if s.AskVia != "" {
		dst.AskVia = s.AskVia
	}
	if s.QueueTimeout != 0 {
		dst.QueueTimeout = s.QueueTimeout
	}
	dst.Presets = append(dst.Presets, s.Presets...)
	if len(s.DevPorts) > 0 {
		dst.DevPorts = append(dst.DevPorts, s.DevPorts...)
		dst.devPortsSource = s.devPortsSource
	}
}
