//go:build !unix

package prompt

import (
	"fmt"
	"runtime"
)

// Run refuses: a console is implemented for Unix only.
func (c *Console) Run(current func() (Item, bool), answer func(it Item, a Answer, note string) string) error {
	return fmt.Errorf("%w: not supported on %s", ErrNoTerminal, runtime.GOOS)
}
