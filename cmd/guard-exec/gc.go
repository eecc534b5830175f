package main

import (
	"runtime"
	"runtime/debug"
)

// The guard lives for a few milliseconds on a one-line command: collecting
// garbage would cost more than the memory it frees, so the collector runs
// only when the heap reaches a limit, which a short command never does. A
// long script does: judging one allocates about 45 bytes a byte of text,
// most of it syntax dropped once walked, and with the limit at frugalLimit
// a 3 MB script is judged in a few collections instead of 165 MB.
//
// A text whose live memory is itself near that limit (the worst inputs of
// README "Limits", or a script near shellparse.MaxBytes) would then be
// collected over and over for little gain: after frugalCollections
// collections the limit is raised to roomyLimit, the limit the guard had
// for every input before.
const (
	frugalLimit       = 88 << 20
	frugalCollections = 6
	roomyLimit        = 512 << 20
)

func collectGarbage() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(frugalLimit)
	watchCollections(frugalCollections)
}

// gcSentinel is garbage made to be collected: its finalizer runs after
// the collection that frees it.
type gcSentinel struct{ _ [16]byte }

// watchCollections raises the limit after n more collections.
func watchCollections(n int) {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		if n <= 1 {
			debug.SetMemoryLimit(roomyLimit)
			return // no more watching
		}
		watchCollections(n - 1)
	})
}
