package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkDecide measures everything the guard does before exec for a
// typical one-line command: loading the configuration layers, judging,
// and the audit log.
func BenchmarkDecide(b *testing.B) {
	dir := b.TempDir()
	environ := append(os.Environ(), "XDG_STATE_HOME="+dir+"/state", "XDG_CONFIG_HOME="+dir+"/config", "GUARD_EXEC_SESSION=bench")
	for i := 0; i < b.N; i++ {
		code, ex := run([]string{"guard-exec", "-c", "true"}, strings.NewReader(""), io.Discard, io.Discard, environ)
		if code != 0 || ex == nil {
			b.Fatalf("not allowed: %d", code)
		}
	}
}

// scaleConfig is a config of n rules in the mix tools/bench -scale uses:
// command rules of many programs, deny rules with a reason, path rules.
func scaleConfig(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "[[rule]]\ndecision = \"allow\"\ncommand = \"tool%d build\"\n\n", i)
		case 1:
			fmt.Fprintf(&b, "[[rule]]\ndecision = \"deny\"\ncommand = \"tool%d deploy --prod\"\nwhy = \"releases go through the pipeline\"\n\n", i)
		case 2:
			fmt.Fprintf(&b, "[[rule]]\ndecision = \"ask\"\npath = \"area%d/**\"\naccess = \"write\"\n\n", i)
		default:
			fmt.Fprintf(&b, "[[rule]]\ndecision = \"allow\"\ncommand = \"git push origin feature-%d\"\n\n", i)
		}
	}
	return b.String()
}

// BenchmarkRules measures a decision under 10 and under 10,000 configured
// rules: the cost of a call should hardly grow with the rules (issue 15).
func BenchmarkRules(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := b.TempDir()
			cfg := filepath.Join(dir, "rules.toml")
			if err := os.WriteFile(cfg, []byte(scaleConfig(n)), 0o644); err != nil {
				b.Fatal(err)
			}
			environ := append(os.Environ(), "XDG_STATE_HOME="+dir+"/state", "XDG_CONFIG_HOME="+dir+"/config",
				"GUARD_EXEC_SESSION=bench", "GUARD_EXEC_CONFIG="+cfg)
			for i := 0; i < b.N; i++ {
				var stderr strings.Builder
				code, ex := run([]string{"guard-exec", "-c", "ls -la | grep x; git --version"}, strings.NewReader(""), io.Discard, &stderr, environ)
				if code != 0 || ex == nil {
					b.Fatalf("not allowed: %d: %s", code, stderr.String())
				}
			}
		})
	}
}

// BenchmarkHook is the Claude Code hook's work for the command that
// tools/bench -scale times: reading the JSON, loading, judging, the
// audit record and the answer.
func BenchmarkHook(b *testing.B) {
	dir := b.TempDir()
	environ := append(os.Environ(), "XDG_STATE_HOME="+dir+"/state", "XDG_CONFIG_HOME="+dir+"/config", "GUARD_EXEC_SESSION=bench")
	in := `{"session_id":"bench","cwd":"` + dir + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la | grep x"}}`
	b.ReportAllocs()
	for b.Loop() {
		var out strings.Builder
		code, _ := run([]string{"guard-exec", "hook", "claude-code"}, strings.NewReader(in), &out, io.Discard, environ)
		if code != 0 || !strings.Contains(out.String(), `"allow"`) {
			b.Fatalf("not allowed: %d: %s", code, out.String())
		}
	}
}
