//go:build !linux

package state

import "errors"

// bootNanos: marks need /proc's start times, which only Linux has.
func bootNanos() (int64, error) {
	return 0, errors.New("guarded-shell marks need Linux's /proc")
}
