//go:build unix && !linux

package prompt

// blockJobControl does nothing where the guard has no pthread_sigmask: a
// shell that takes the terminal between the ownership check and a read
// can still make that read hang there.
func blockJobControl() (restore func()) { return func() {} }
