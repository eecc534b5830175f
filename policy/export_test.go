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

// SetPathIndex turns trying only the configured path rules whose literal
// prefix an effect's path may reach (index.pathRules) on or off, for
// comparing with trying every one; it returns the setting before.
func SetPathIndex(on bool) bool {
	was := usePathIndex
	usePathIndex = on
	return was
}
