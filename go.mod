module github.com/guard-exec/guard-exec

go 1.26.8

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/creack/pty v1.1.24
	golang.org/x/sys v0.50.0
	golang.org/x/term v0.48.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/tools v0.38.0 // indirect
)
