// Package gitindex lists the paths a git index (.git/index) tracks,
// reading the file itself: no git runs, so no configuration of the
// repository (core.fsmonitor and the like) can run a program.
//
// It reads index versions 2, 3 and 4, with SHA-1 or SHA-256 object names,
// up to a size bound; an index it cannot read is an error, and the caller
// then knows nothing about what the repository tracks.
package gitindex

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/guard-exec/guard-exec/atomicfile"
)

// Paths returns the paths the index file tracks, reading at most limit
// bytes of it.
func Paths(file string, limit int64) ([]string, error) {
	b, err := atomicfile.ReadFile(file, limit)
	if err != nil {
		return nil, err
	}
	var first error
	for _, hash := range []int{20, 32} {
		paths, err := parse(b, hash)
		if err == nil {
			return paths, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

var errShort = errors.New("index entry runs past the end of the file")

// parse reads the entries of an index whose object names are hash bytes.
func parse(b []byte, hash int) ([]string, error) {
	if len(b) < 12 || string(b[:4]) != "DIRC" {
		return nil, errors.New("not a git index (no DIRC signature)")
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("git index version %d is not known here", version)
	}
	n := int(binary.BigEndian.Uint32(b[8:12]))
	if n > len(b)/(40+hash+2) {
		return nil, errShort
	}
	paths := make([]string, 0, n)
	off := 12
	prev := ""
	for range n {
		start := off
		off += 40 + hash // stat data and the object name
		if off+2 > len(b) {
			return nil, errShort
		}
		flags := binary.BigEndian.Uint16(b[off:])
		off += 2
		if flags&0x4000 != 0 {
			if version < 3 {
				return nil, errors.New("extended flags in a version 2 index")
			}
			off += 2
		}
		if off > len(b) {
			return nil, errShort
		}
		var name string
		if version == 4 {
			// The name is the previous one less strip bytes, then the
			// text up to a NUL.
			strip, k := varint(b[off:])
			if k == 0 || strip > len(prev) {
				return nil, errors.New("bad name compression in a version 4 index")
			}
			off += k
			end := bytes.IndexByte(b[off:], 0)
			if end < 0 {
				return nil, errShort
			}
			name = prev[:len(prev)-strip] + string(b[off:off+end])
			off += end + 1
		} else {
			end := bytes.IndexByte(b[off:], 0)
			if end < 0 {
				return nil, errShort
			}
			if l := int(flags & 0xfff); l < 0xfff && l != end {
				return nil, errors.New("an entry's name length does not match its name")
			}
			name = string(b[off : off+end])
			// Entries are padded with 1 to 8 NULs to a multiple of 8.
			size := (off + end - start + 8) &^ 7
			pad := start + size
			if pad > len(b) {
				return nil, errShort
			}
			for _, c := range b[off+end : pad] {
				if c != 0 {
					return nil, errors.New("an entry's padding is not NUL")
				}
			}
			off = pad
		}
		if name == "" {
			return nil, errors.New("an entry with an empty name")
		}
		paths = append(paths, name)
		prev = name
	}
	return paths, nil
}

// varint reads git's offset encoding (index version 4): the value and the
// bytes it took, 0 when it runs out.
func varint(b []byte) (int, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := int(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || v > 1<<40 {
			return 0, 0
		}
		c = b[i]
		i++
		v = ((v + 1) << 7) | int(c&127)
	}
	return v, i
}
