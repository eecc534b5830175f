//go:build !unix

package prompt

import (
	"fmt"
	"runtime"
)

// Ask refuses: asking on a terminal is implemented for Unix only.
func (t *TTY) Ask(q Question) (Answer, error) {
	return No, fmt.Errorf("%w: not supported on %s", ErrNoTerminal, runtime.GOOS)
}

// Terminal reports ErrNoTerminal: asking on a terminal is implemented for
// Unix only.
func Terminal() error {
	return fmt.Errorf("%w: not supported on %s", ErrNoTerminal, runtime.GOOS)
}
