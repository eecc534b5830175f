// Package word holds a bash word as far as it can be known before it runs,
// and matches such words against the glob patterns of rules.
//
// A [Word] is a sequence of segments. A literal segment is text that bash
// will produce exactly (after quote removal, escapes, $'…' and known
// variables). A glob segment (*, ?, [...]) is an unquoted pattern that bash
// expands against the file system at run time. A hole stands for any text
// at all: a variable whose value is not known here, a command substitution,
// an arithmetic result. A word with only literal segments is static; any
// other word is dynamic.
//
// Matching answers in three values ([Yes], [No], [Maybe]). A static word
// either matches a pattern or not. A dynamic word matches Maybe when some
// value it could take matches the pattern and some other does not, Yes only
// when every value does. Callers decide what Maybe means; the policy lets a
// Maybe count towards deny and ask, never towards allow.
//
// Two pattern dialects exist. Command patterns (rule words) use *, ? and
// [...], where * and ? match any character including '/'. Path patterns
// follow github.com/bmatcuk/doublestar/v4: * and ? stop at '/', and a whole
// segment ** spans any number of segments, including none.
package word
