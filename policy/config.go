package policy

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

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
}

// ConfigError is a problem in a config file, with its position.
type ConfigError struct {
	File string
	Line int
	Msg  string
	Hint string
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
}

type fileConfig struct {
	Shell         string     `toml:"shell"`
	Mode          string     `toml:"mode"`
	Presets       []string   `toml:"presets"`
	AuditRedact   *bool      `toml:"audit_redact"`
	PromptTimeout string     `toml:"prompt_timeout"`
	Rule          []fileRule `toml:"rule"`
}

// File is a parsed config file.
type File struct {
	Path     string
	Layer    Layer
	Settings Settings
	Rules    []*Rule
}

// parseErrorLine is the line a person should look at. The TOML lexer
// reports an error found at a line's end ("[[rule]" then newline) on the
// next line, past the newline it choked on; the error's byte offset is
// where it starts.
func parseErrorLine(pe toml.ParseError, text []byte) int {
	if st := pe.Position.Start; st > 0 && st <= len(text) {
		return 1 + bytes.Count(text[:st], []byte("\n"))
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
	var fc fileConfig
	md, err := toml.Decode(string(text), &fc)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &ConfigError{File: path, Line: parseErrorLine(pe, text), Msg: "not valid TOML: " + pe.Message, Hint: "fix the TOML syntax at that line"}
		}
		return nil, &ConfigError{File: path, Line: typeErrorLine(err, string(text)), Msg: err.Error(), Hint: "check the value's type (strings are quoted, lists use [ ])"}
	}
	lines := strings.Split(string(text), "\n")
	var headers []int
	for i, l := range lines {
		if isRuleHeader(l) {
			headers = append(headers, i+1)
		}
	}
	if und := md.Undecoded(); len(und) > 0 {
		key := und[0]
		return nil, &ConfigError{File: path, Line: keyLine(lines, headers, key), Msg: fmt.Sprintf("unknown key %q", key.String()),
			Hint: "known keys: shell, mode, presets, audit_redact, prompt_timeout, and [[rule]] with decision, command, flags, path, access, why, instead, match, not_match"}
	}
	f := &File{Path: path, Layer: layer}
	f.Settings = Settings{Shell: fc.Shell, Mode: fc.Mode, Presets: fc.Presets, AuditRedact: fc.AuditRedact}
	if fc.Shell != "" && !filepath.IsAbs(fc.Shell) {
		return nil, &ConfigError{File: path, Line: findKey(lines, 0, len(lines), "shell"), Msg: fmt.Sprintf("shell must be an absolute path, not %q", fc.Shell), Hint: `for example shell = "/bin/bash"`}
	}
	switch fc.Mode {
	case "", "enforce", "audit":
	default:
		return nil, &ConfigError{File: path, Line: findKey(lines, 0, len(lines), "mode"), Msg: fmt.Sprintf("mode must be \"enforce\" or \"audit\", not %q", fc.Mode)}
	}
	for _, p := range fc.Presets {
		if _, ok := Presets()[p]; !ok {
			return nil, &ConfigError{File: path, Line: findKey(lines, 0, len(lines), "presets"), Msg: fmt.Sprintf("unknown preset %q", p), Hint: "known presets: " + strings.Join(PresetNames(), ", ")}
		}
	}
	if fc.PromptTimeout != "" {
		d, err := time.ParseDuration(fc.PromptTimeout)
		if err != nil || d < 0 {
			return nil, &ConfigError{File: path, Line: findKey(lines, 0, len(lines), "prompt_timeout"), Msg: fmt.Sprintf("prompt_timeout %q is not a duration", fc.PromptTimeout), Hint: `for example prompt_timeout = "2m"`}
		}
		f.Settings.PromptTimeout = d
	}
	for i, fr := range fc.Rule {
		line := 0
		if i < len(headers) {
			line = headers[i]
		}
		d, ok := ParseDecision(fr.Decision)
		if !ok {
			msg := fmt.Sprintf("decision must be \"allow\", \"ask\" or \"deny\", not %q", fr.Decision)
			if fr.Decision == "" {
				msg = "rule has no decision"
			}
			return nil, &ConfigError{File: path, Line: line, Msg: msg, Hint: `add decision = "allow", "ask" or "deny"`}
		}
		f.Rules = append(f.Rules, &Rule{
			Decision: d, Command: fr.Command, Flags: fr.Flags, Path: fr.Path, Access: fr.Access,
			Why: fr.Why, Instead: fr.Instead, Match: fr.Match, NotMatch: fr.NotMatch,
			Source: fmt.Sprintf("%s:%d", path, line), Layer: layer,
		})
	}
	return f, nil
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
	return ParseFile(path, text, layer)
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
	presets := map[string]bool{}
	for _, f := range files {
		pol.Files = append(pol.Files, f.Path)
		mergeSettings(&pol.Settings, f.Settings, f.Layer == Project && !src.ProjectTrusted)
		for _, r := range f.Rules {
			if f.Layer == Project && !src.ProjectTrusted && r.Decision == Allow {
				continue
			}
			// Checked now (a broken file is refused whole), compiled when
			// first needed: a guard process judges a command or two.
			err := r.check(src.Env)
			if err == nil && len(r.Match)+len(r.NotMatch) > 0 {
				err = r.compile(src.Env) // its examples are run below
			}
			if err != nil {
				line := 0
				fmt.Sscanf(r.Source[strings.LastIndexByte(r.Source, ':')+1:], "%d", &line)
				return nil, &ConfigError{File: f.Path, Line: line, Msg: err.Error(), Hint: "see the README for the rule format"}
			}
			r.lazy, r.env = len(r.Match)+len(r.NotMatch) == 0, src.Env
			pol.rules = append(pol.rules, r)
		}
		if f.Layer == Project && !src.ProjectTrusted {
			n := 0
			for _, r := range f.Rules {
				if r.Decision == Allow {
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
	names := make([]string, 0, len(presets))
	for p := range presets {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, r := range Presets()[name].rules() {
			// Compiled when first needed (TestPresetsCompile checks them).
			r.Layer, r.Source, r.lazy, r.env = User, "preset "+name, true, src.Env
			pol.rules = append(pol.rules, r)
		}
	}
	for _, r := range src.Session {
		r.Layer = Session
		if err := r.check(src.Env); err != nil {
			continue // a corrupt approval is never an allow
		}
		r.lazy, r.env = true, src.Env // and one that fails to compile never matches
		pol.rules = append(pol.rules, r)
	}
	pol.idx = newIndex(pol.rules)
	if src.CheckExamples {
		for _, f := range files {
			for _, r := range f.Rules {
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
	dst.Presets = append(dst.Presets, s.Presets...)
}
