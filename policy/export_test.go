package policy

// SetSubIndex turns judging by a program's rules that name a word of the
// part (subWord) on or off, for comparing the two; it returns the setting
// before.
func SetSubIndex(on bool) bool {
	was := useSubIndex
	useSubIndex = on
	return was
}

// SetLazyWrites turns making and trying the built-in rules about writes
// only for parts that write on or off, for comparing the two; it returns
// the setting before.
func SetLazyWrites(on bool) bool {
	was := lazyWrites
	lazyWrites = on
	return was
}
