// Package policy holds the rules and decides what happens to a command.
//
// A rule says allow, ask or deny for a command pattern (command = "git push
// --force", matched against the argv the way the program reads it), a set
// of flags, or a path pattern with an access (path = "test/**", access =
// "write"), which applies to every program that touches the path. Rules
// come in layers: the built-in defaults, the user's config, the project's
// .guard-exec.toml (its allow rules only once a person has trusted it), and
// this session's approvals. An absolute denylist (catastrophic commands and
// the guard's own files) is checked before everything and cannot be
// overridden.
//
// Precedence is one comparable key, [Key]: the most specific rule wins; at
// equal specificity a configured rule beats a built-in default (so a user
// can relax a default by naming the same command), and among rules of equal
// specificity and origin the strictest wins. Order in a file never matters.
//
// A command has aspects, judged separately: its argv (command rules) and
// each path it reads or writes (path rules). Its verdict is the strictest of
// its aspects; a program without any matching command rule is allowed only
// if it is in the read-only catalogue, and asks otherwise.
//
// A word not known until run time can make a deny or ask rule match
// (word.Maybe), never an allow rule. When such a rule would have won had it
// matched, the verdict is at least ask.
//
// Decisions are data ([Verdict], [Match]) so that the CLI can explain them,
// log them and ask about them; this package never prints.
package policy
