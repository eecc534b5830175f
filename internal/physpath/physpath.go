// Package physpath resolves paths as the kernel does: component by
// component from the root, following each symbolic link it meets, so that
// a ".." after a link leads to the parent of the link's target. Cleaning
// a path as text (filepath.Clean, filepath.Join) drops "l/.." together,
// which names another file whenever l is a link: l/../../zz/ls is not
// ../zz/ls.
//
// A ".." after a component that does not exist when the path is resolved
// makes the answer unknown: the command being judged may make that
// component a link before it uses the path. Callers treat an unknown
// answer as a place they cannot name (a question, never an allow).
//
// Links into /proc (/dev/stdin, /dev/fd/N) name open files rather than
// paths; the link's own name is kept for them, and a ".." after one leads
// to its target's parent (/dev/fd/.. is /proc/self).
package physpath

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A Resolver resolves absolute paths against the file system as it is
// now. It remembers what it looked up (one lstat per component), so it is
// for one judgement at a time, and not for concurrent use.
type Resolver func(path string) (real string, ok bool)

// New returns a Resolver with an empty memory.
func New() Resolver {
	type entry struct {
		real   string
		exists bool
		// into: the target of a link into /proc that real keeps the
		// link's own name for.
		into string
	}
	cache := map[string]entry{"/": {"/", true, ""}}
	var resolve func(path string, depth int) entry
	// walk follows path's components from cur as the kernel does: a ".."
	// after a link leads to its target's parent. It reports false for a
	// ".." after a component that is not there.
	walk := func(cur entry, path string, depth int) (entry, bool) {
		for _, c := range strings.Split(path, "/") {
			switch c {
			case "", ".":
			case "..":
				if !cur.exists {
					return cur, false
				}
				if cur.into != "" {
					cur = resolve(filepath.Dir(cur.into), depth)
					break
				}
				cur = entry{filepath.Dir(cur.real), true, ""}
			default:
				cur = resolve(filepath.Join(cur.real, c), depth)
			}
		}
		return cur, true
	}
	resolve = func(path string, depth int) entry {
		if e, ok := cache[path]; ok {
			return e
		}
		if depth > 40 { // a loop of links: ELOOP for the kernel too
			return entry{path, false, ""}
		}
		parent := resolve(filepath.Dir(path), depth)
		here := filepath.Join(parent.real, filepath.Base(path))
		e := entry{here, false, ""}
		if parent.into != "" || fdDir(parent.real) {
			// /dev/fd/3, /proc/self/fd/3: the command's open files, not
			// this process's (a red team's exec 3<~/.claude; echo >
			// /dev/fd/3/settings.json was read as one of the guard's).
			cache[path] = e
			return e
		}
		if parent.exists {
			if fi, err := os.Lstat(here); err == nil {
				e.exists = true
				if fi.Mode()&os.ModeSymlink != 0 {
					raw, err := os.Readlink(here)
					target := raw
					if err == nil && !filepath.IsAbs(target) {
						target = filepath.Join(parent.real, target)
					}
					// Another link into /proc is followed that far, and
					// no further (pfd -> /proc/self/fd: pfd/255 is bash's
					// script).
					if target = filepath.Clean(target); err == nil && target != "/proc" && !strings.HasPrefix(target, "/proc/") {
						// The target's components as written, from the
						// link's directory: up -> lnk/.. is lnk's target's
						// parent, not the link's directory (a red team's).
						start := parent
						if filepath.IsAbs(raw) {
							start = entry{"/", true, ""}
						}
						if r, ok := walk(start, raw, depth+1); ok {
							e = r
						} else {
							e = entry{here, false, ""}
						}
					} else if err == nil && !strings.HasPrefix(here, "/dev/") {
						e = entry{target, false, ""}
					} else if err == nil {
						e.into = target
					}
				}
			}
		}
		cache[path] = e
		return e
	}
	return func(path string) (string, bool) {
		if !filepath.IsAbs(path) {
			return "", false
		}
		cur, ok := walk(entry{"/", true, ""}, path, 0)
		if !ok {
			return "", false // what is not there yet may be made a link first
		}
		// A link to / leads to / (r -> /; rm -rf r/ empties the root).
		return cur.real, true
	}
}

// fdDir reports a directory of a process's open files under /proc.
func fdDir(p string) bool {
	rest, ok := strings.CutPrefix(p, "/proc/")
	if !ok {
		return false
	}
	parts := strings.Split(rest, "/")
	return len(parts) == 2 && parts[1] == "fd" || len(parts) == 4 && parts[1] == "task" && parts[3] == "fd"
}

// Join puts a relative path below dir as the kernel reads it, without
// cleaning it as text; an absolute path is returned as it is.
func Join(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return strings.TrimSuffix(dir, "/") + "/" + path
}

// HasDotDot reports whether a path has a ".." component.
func HasDotDot(path string) bool {
	return slices.Contains(strings.Split(path, "/"), "..")
}
