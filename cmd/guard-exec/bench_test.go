package main

import (
	"io"
	"os"
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
