package argspec

import (
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// toolEffects are the deletes and writes outside their operands that the
// options of test runners and package managers cause (checked against the
// real programs: jest 30, vitest 4, tox 3.28, nox 2022.11, pip 23.2, npm
// 11). They come on top of the guesses for a program the catalogue does
// not fully know (Effects).
func toolEffects(prog string, args []word.Word) []Effect {
	var effs []Effect
	anywhere := func(text string) word.Word { return word.Word{Segs: []word.Seg{{Kind: word.Hole, Text: text}}} }
	switch prog {
	case "jest":
		// --clearCache removes the cache directory, whole. (yargs takes
		// every option in kebab case too.)
		if rawFlag(&Cmd{Args: args, Raw: true}, "", "--clearCache", "--clear-cache") {
			for _, d := range OptionValues(args, "--cacheDirectory", "--cache-directory") {
				effs = append(effs, Effect{Path: d, Access: Write, Op: "delete", Recursive: true})
			}
		}
	case "vitest":
		// coverage.clean (on by default) removes the reports directory
		// before the run.
		if !rawFlag(&Cmd{Args: args, Raw: true}, "", "--coverage.clean=false") {
			for _, d := range OptionValues(args, "--coverage.reportsDirectory") {
				effs = append(effs, Effect{Path: d, Access: Write, Op: "delete", Recursive: true})
			}
		}
	case "tox":
		// tox empties WORKDIR/log (shutil.rmtree) and writes its
		// environments under WORKDIR.
		for _, d := range AbbrevValues(args, "--workdir") {
			effs = append(effs, Effect{Path: d, Access: Write, Recursive: true},
				Effect{Path: join(d, word.FromLit("log")), Access: Write, Op: "delete", Recursive: true})
		}
	case "nox":
		// nox removes ENVDIR/SESSION before it makes a session's
		// environment, for any session name the noxfile has.
		for _, d := range AbbrevValues(args, "--envdir") {
			effs = append(effs, Effect{Path: d, Access: Write, Recursive: true},
				Effect{Path: join(d, anywhere("$SESSION")), Access: Write, Op: "delete", Recursive: true})
		}
		for _, f := range AbbrevValues(args, "--report") {
			effs = append(effs, Effect{Path: f, Access: Write})
		}
	case "pip", "pip3":
		upgrade := rawFlag(&Cmd{Args: args, Raw: true}, "U", "--upgrade")
		for _, d := range append(AbbrevValues(args, "--target"), OptionValues(args, "-t")...) {
			effs = append(effs, Effect{Path: d, Access: Write, Recursive: true})
			if upgrade {
				// The packages it replaces there are removed first.
				effs = append(effs, Effect{Path: join(d, anywhere("$PACKAGE")), Access: Write, Op: "delete", Recursive: true})
			}
		}
		if rawFlag(&Cmd{Args: args, Raw: true}, "", "--user") {
			effs = append(effs, Effect{Path: anywhere("$HOME/.local"), Access: Write, Recursive: true})
		}
	case "playwright":
		// playwright test empties its --output directory before the run
		// (checked with playwright 1.5x: .git given as --output was
		// destroyed).
		for _, d := range OptionValues(args, "--output") {
			effs = append(effs, Effect{Path: d, Access: Write, Op: "delete", Recursive: true})
		}
	case "pylint":
		// --output-format=json:FILE,text writes FILE.
		for _, v := range OptionValues(args, "--output-format", "-f") {
			t, ok := v.Static()
			if !ok {
				effs = append(effs, Effect{Path: anywhere(v.String()), Access: Write})
				continue
			}
			for _, f := range strings.Split(t, ",") {
				if _, file, ok := strings.Cut(f, ":"); ok && file != "" {
					effs = append(effs, Effect{Path: word.FromLit(file), Access: Write})
				}
			}
		}
	case "rspec", "rubocop":
		// -o FILE, --out FILE, and -oFILE (Ruby's OptionParser).
		for _, f := range OptionValues(args, "-o", "--out") {
			effs = append(effs, Effect{Path: f, Access: Write})
		}
	case "mvn", "mvnw":
		for _, f := range OptionValues(args, "-l", "--log-file") {
			effs = append(effs, Effect{Path: f, Access: Write})
		}
	case "npm", "pnpm":
		// Global installs write the global prefix (npm prefix -g).
		global := rawFlag(&Cmd{Args: args, Raw: true}, "g", "--global", "--location=global")
		for _, v := range OptionValues(args, "--location") {
			if t, ok := v.Static(); !ok || t == "global" {
				global = true
			}
		}
		if global {
			effs = append(effs, Effect{Path: anywhere("$(npm prefix -g)"), Access: Write, Recursive: true})
		}
	}
	return effs
}

// fileFlags are file(1)'s short options that take no value (file 5.44).
const fileFlags = "bcCdEhiklLNnprsSvzZ0"

// manFlags are man-db's short options that take no value.
const manFlags = "acdDfhiIklKtuVwWZ7"

// ssFlags are ss's short options that take no value (iproute2 6.1).
const ssFlags = "hVnrapletuwxSsmiEZzbOH46M0KTjQ"

// readerWrites are the files that programs of the read-only catalogue
// write when an option says so (checked against the real programs where
// installed: xxd 2022, less 590, GNU tree 2.1, file 5.44): without them a
// read-only allow would cover a write anywhere.
func readerWrites(prog string, args []word.Word) (effs []Effect, ok bool) {
	c := &Cmd{Args: args, Raw: true}
	write := func(ws []word.Word) {
		for _, w := range ws {
			if s, ok := w.Static(); ok && s == "-" {
				continue // standard output
			}
			effs = append(effs, Effect{Path: w, Access: Write})
		}
	}
	switch prog {
	case "xxd":
		// xxd [options] [infile [outfile]]: the second operand is
		// written, with or without -r.
		ops := xxdOperands(args)
		for i, o := range ops {
			if i == 1 {
				write([]word.Word{o})
				continue
			}
			effs = append(effs, Effect{Path: o, Access: Read})
		}
		return effs, true
	case "tree":
		write(OptionValues(args, "-o"))
		effs = append(effs, treeEffects(c, args)...)
	case "ag":
		effs = append(effs, pagerEffects(gnuValues(args, "", "--pager"), "ag")...)
	case "bat", "batcat":
		effs = append(effs, batEffects(c, prog, args)...)
	case "less", "zless":
		effs = append(effs, lessEffects(args)...)
	case "more":
		write(OptionValues(args, "-o", "-O", "--log-file", "--LOG-FILE"))
	case "jq", "gojq":
		effs = append(effs, jqModuleEffects(args)...)
	case "yq":
		effs = append(effs, jqModuleEffects(args)...)
		// -i is --in-place in python yq 3 (checked: yq --in-place -y
		// '.b=2' f rewrote f), --inplace in mikefarah's yq 4.
		if rawFlag(c, "i", "--inplace", "--in-place") {
			for _, o := range nonOptions(args)[min(1, len(nonOptions(args))):] {
				effs = append(effs, Effect{Path: o, Access: Write | Read})
			}
		}
	case "cloc":
		write(perlValues(args, "--out", "--report-file", "--sql", "--write-lang-def", "--write-lang-def-incl-dup",
			"--categorized", "--counted", "--found", "--ignored", "--unique"))
		effs = append(effs, clocEffects(args)...)
	case "ack":
		// ack --files-from=F (Getopt::Long: -files-f=F too) takes the
		// names to search from F, and prints each that is no file in
		// the error (ack 3.6: "ack: aws_secret_access_key = …: No such
		// file"); --ackrc F is read for options.
		for _, f := range perlValues(args, "--files-from", "--ackrc") {
			effs = append(effs, Effect{Path: f, Access: Read})
		}
	case "ss":
		// ss -D FILE (--diag, and -tD FILE) dumps raw socket
		// information into FILE, and -K (--kill) closes the sockets
		// the filter matches (iproute2 6.1): neither is a listing.
		write(gnuValues(args, ssFlags, "-D", "--diag"))
		if gnuFlag(args, "--kill") || gnuShort(args, ssFlags, 'K') {
			effs = append(effs, Effect{Path: word.Unknown("the sockets ss -K closes"), Access: Write, Op: "delete"})
		}
	case "xzcat":
		// xz --files=F (--files0=F) takes the names to decompress from
		// F, and prints each that is no file in the error (xz 5.4:
		// "xzcat: aws_secret_access_key = …: No such file").
		for _, f := range gnuValues(args, "", "--files", "--files0") {
			effs = append(effs, Effect{Path: f, Access: Read})
		}
	case "man":
		// man -H[CMD] and --html[=CMD] (--ht=CMD too) format the page as
		// HTML and run CMD, or $BROWSER, on it (man-db 2.11: man
		// --html='touch pwned' ls ran it; -P is judged as code by the
		// walker).
		if gnuFlag(args, "--html") || gnuShort(args, manFlags, 'H') {
			effs = append(effs, Effect{Path: word.Unknown("what the browser man -H runs does"), Access: Write})
		}
		// man -l FILE (and a page named by a path, ./x.1) formats a
		// document of the command's, which can include any file (.so,
		// .mso: echo .so ~/.ssh/id_rsa | man -l - printed the key, a
		// red team's). The system's pages are the system's.
		local := gnuFlag(args, "--local-file") || gnuShort(args, manFlags, 'l')
		for _, a := range args {
			if t, ok := a.Static(); !ok || !strings.HasPrefix(t, "-") && strings.Contains(t, "/") {
				local = true
			}
		}
		if local {
			effs = append(effs, Effect{Path: word.UnknownData("the files a roff document man formats includes (.so)"), Access: Read})
		}
	case "json_pp":
		// json_pp -f eval evaluates its input as Perl (JSON::PP 4:
		// echo 'system(…)' | json_pp -f eval ran it); Getopt::Long
		// reads -f eval, -f=eval and --f=eval.
		for i, a := range args {
			t, ok := a.Static()
			var v word.Word
			switch {
			case !ok:
				continue
			case (t == "-f" || t == "--f") && i+1 < len(args):
				v = args[i+1]
			case strings.HasPrefix(t, "-f=") || strings.HasPrefix(t, "--f="):
				v = word.FromLit(t[strings.IndexByte(t, '=')+1:])
			default:
				continue
			}
			if s, ok := v.Static(); !ok || s != "json" {
				effs = append(effs, Effect{Path: word.Unknown("what the Perl code json_pp -f " + v.String() + " evaluates does"), Access: Write})
			}
		}
	case "strings":
		// binutils reads @FILE as more options: each word of FILE that
		// is no file is printed in the error (strings @.env).
		for _, a := range args {
			if f, ok := a.TrimPrefix("@"); ok && len(f.Segs) > 0 {
				effs = append(effs, Effect{Path: f, Access: Read})
			}
		}
	case "file":
		// file -f NAMES reads names from NAMES (and shows those that
		// are no file: its contents).
		for _, f := range gnuValues(args, fileFlags, "-f", "--files-from") {
			effs = append(effs, Effect{Path: f, Access: Read})
		}
		// file -m A:B reads magic files, and prints each line it cannot
		// read in a warning ("F, 2: Warning: offset `LINE' invalid").
		for _, f := range magicFiles(gnuValues(args, fileFlags, "-m", "--magic-file")) {
			effs = append(effs, Effect{Path: f, Access: Read})
		}
		// file -C compiles each -m magic file into FILE.mgc.
		if rawFlag(c, "C", "--compile") || gnuFlag(args, "--compile") {
			ms := magicFiles(gnuValues(args, fileFlags, "-m", "--magic-file"))
			if len(ms) == 0 {
				ms = []word.Word{word.FromLit("magic")}
			}
			for _, m := range ms {
				mgc := m
				mgc.Matches = nil
				mgc.AddLit(".mgc")
				effs = append(effs, Effect{Path: mgc, Access: Write})
			}
		}
	case "wc", "du":
		// A file of names: a name that is no file is printed in the
		// error, so the file's contents are shown.
		for _, f := range gnuValues(args, "", "--files0-from") {
			effs = append(effs, Effect{Path: f, Access: Read})
		}
	case "date":
		// date -f FILE reads FILE's lines as dates, and prints those it
		// cannot read: its contents.
		for _, f := range gnuValues(args, "uR", "-f", "--file") {
			effs = append(effs, Effect{Path: f, Access: Read})
		}
		// date -s (--set, --se, -us) sets the system clock: no file, but
		// not what a read-only date is allowed for (the rule for date -s
		// does not see the abbreviations and clusters).
		if len(gnuValues(args, "uR", "-s", "--set")) > 0 {
			effs = append(effs, Effect{Path: word.Unknown("the system clock (date --set)"), Access: Write})
		}
		return effs, true
	case "history":
		if rawFlag(c, "rn", "") {
			for _, f := range nonOptions(args) {
				effs = append(effs, Effect{Path: f, Access: Read})
			}
		}
		if rawFlag(c, "wa", "") {
			ops := nonOptions(args)
			if len(ops) == 0 {
				ops = []word.Word{{Segs: []word.Seg{{Kind: word.Hole, Text: "$HISTFILE"}}}}
			}
			write(ops)
		}
		return effs, true
	default:
		return nil, false
	}
	return effs, false
}
