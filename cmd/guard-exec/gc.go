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
// a 3 MB script is judged in two collections instead of 165 MB.
//
// A text whose live memory is itself near that limit (the worst inputs of
// README "Limits", or a script near shellparse.MaxBytes) would then be
// collected over and over for little gain. Once a collection comes after
// less than a quarter of the limit was allocated since the one before
// (what the collector frees), the limit is raised to roomyLimit, the limit
// the guard had for every input before.
const (
	frugalLimit = 88 << 20
	roomyLimit  = 512 << 20
)

func collectGarbage() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(frugalLimit)
	watchCollections(0, 0)
}

// gcSentinel is garbage made to be collected: its finalizer runs after
// the collection that frees it.
type gcSentinel struct{ _ [16]byte }

// watchCollections raises the limit after a collection that came too
// soon: alloc and collections are the bytes allocated and the collections
// made by the last look.
func watchCollections(alloc uint64, collections uint32) {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		// ReadMemStats stops the world for a moment: only after a
		// collection, which only long texts make.
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		n := uint64(max(ms.NumGC-collections, 1))
		if (ms.TotalAlloc-alloc)/n < frugalLimit/4 {
			debug.SetMemoryLimit(roomyLimit)
			return // no more watching
		}
		watchCollections(ms.TotalAlloc, ms.NumGC)
	})
}
