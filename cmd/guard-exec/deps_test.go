package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoStartupHeavyDeps keeps out of the binary the packages whose
// initialisation every command would pay for and that the guard does not
// need: the network stack (net/url brings net/netip's tables). The hook's
// start-up is measured against a minimal Go hook (README, "Speed"); one
// stray import (a URL decoder) had brought net/netip back.
func TestNoStartupHeavyDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	banned := map[string]bool{"net": true, "net/url": true, "net/netip": true, "net/http": true}
	for _, p := range strings.Fields(string(out)) {
		if banned[p] {
			t.Errorf("guard-exec links %s; find the importer with go list -f '{{.ImportPath}} {{.Imports}}' -deps ./cmd/guard-exec and replace what it uses", p)
		}
	}
}
