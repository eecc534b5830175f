package policy

// SetSubIndex turns judging by a program's rules that name a word of the
// part (subWord) on or off, for comparing the two; it returns the setting
// before.
func SetSubIndex(on bool) bool {
	was := useSubIndex
	useSubIndex = on
	return was
}

// SetLazyPaths turns making and trying the built-in rules about paths
// only for parts that touch one (those about writes only for parts that
// write) on or off, for comparing the two; it returns the setting before.
func SetLazyPaths(on bool) bool {
	was := lazyPaths
	lazyPaths = on
	return was
}
