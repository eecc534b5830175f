// Brace expansion, adapted from mvdan.cc/sh/v3/expand/braces.go (v3.14.1)
// so that the guard does not link the expand package, whose start-up
// (compiling regular expressions) every guard process would pay.
//
// Copyright (c) 2016, Daniel Martí. All rights reserved.
//
// Redistribution and use in source and binary forms, with or without
// modification, are permitted provided that the following conditions are
// met:
//
//   - Redistributions of source code must retain the above copyright
//     notice, this list of conditions and the following disclaimer.
//   - Redistributions in binary form must reproduce the above copyright
//     notice, this list of conditions and the following disclaimer in the
//     documentation and/or other materials provided with the distribution.
//   - Neither the name of the copyright holder nor the names of its
//     contributors may be used to endorse or promote products derived from
//     this software without specific prior written permission.
//
// THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS
// "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT
// LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR
// A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT
// OWNER OR CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL,
// SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
// LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE,
// DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
// THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
// (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
// OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.

package shellparse

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// braceLimit is how many words a brace expansion may make; past it,
// expandBraces reports false.
const braceLimit = 16 << 10

// expandBraces calls yield with each word a word holding
// [syntax.BraceExp] parts (see syntax.SplitBraces) expands to, as
// mvdan.cc/sh/v3/expand.BracesSeq does. It returns false when the
// expansion would exceed braceLimit words; yield returning false stops it.
func expandBraces(wd *syntax.Word, yield func(*syntax.Word) bool) (ok bool) {
	count := 0
	ok = true
	bracesRec(wd, func(w *syntax.Word) bool {
		if count++; count > braceLimit {
			ok = false
			return false
		}
		return yield(w)
	})
	return ok
}

// bracesRec yields each fully expanded word descended from word. It
// returns false if iteration should stop.
func bracesRec(word *syntax.Word, yield func(*syntax.Word) bool) bool {
	var left []syntax.WordPart
	for i, wp := range word.Parts {
		br, ok := wp.(*syntax.BraceExp)
		if !ok {
			left = append(left, wp)
			continue
		}
		rest := word.Parts[i+1:]
		// Yield each word produced by recursing on next, after
		// prepending left to its parts.
		expand := func(next *syntax.Word) bool {
			return bracesRec(next, func(w *syntax.Word) bool {
				w.Parts = slices.Concat(left, w.Parts)
				return yield(w)
			})
		}
		if br.Sequence {
			fromLit := br.Elems[0].Lit()
			toLit := br.Elems[1].Lit()
			chars := false
			from, err1 := strconv.ParseInt(fromLit, 10, 64)
			to, err2 := strconv.ParseInt(toLit, 10, 64)
			if err1 != nil || err2 != nil {
				chars = true
				from = int64(fromLit[0])
				to = int64(toLit[0])
			}
			// Endpoints with leading zeros pad all results to the
			// widest endpoint: {01..10} gives 01 02 … 09 10.
			width := 0
			if !chars && (hasLeadingZeros(fromLit) || hasLeadingZeros(toLit)) {
				width = max(len(fromLit), len(toLit))
			}
			upward := from <= to
			incr := int64(1)
			if len(br.Elems) > 2 {
				n, _ := strconv.ParseInt(br.Elems[2].Lit(), 10, 64)
				if n < 0 {
					n = -n // only the absolute value of the step matters
				}
				if n != 0 {
					incr = n
				}
			}
			if !upward {
				incr = -incr
			}
			for n := from; (upward && n <= to) || (!upward && n >= to); n += incr {
				next := *word
				lit := &syntax.Lit{}
				switch {
				case chars:
					lit.Value = string(rune(n))
				case width > 0:
					lit.Value = fmt.Sprintf("%0*d", width, n)
				default:
					lit.Value = strconv.FormatInt(n, 10)
				}
				next.Parts = append([]syntax.WordPart{lit}, rest...)
				if !expand(&next) {
					return false
				}
			}
			return true
		}
		for _, elem := range br.Elems {
			next := *word
			next.Parts = slices.Concat(elem.Parts, rest)
			if !expand(&next) {
				return false
			}
		}
		return true
	}
	return yield(&syntax.Word{Parts: left})
}

func hasLeadingZeros(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}
