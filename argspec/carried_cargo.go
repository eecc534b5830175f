package argspec

import (
	"strings"

	"github.com/guard-exec/guard-exec/word"
)

// cargoCarried: cargo builds and runs the project's crate. --config
// settings, --manifest-path elsewhere and -Z flags change what it runs.
func cargoCarried(r *carry) {
	args := r.argv[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		t, ok := a.Static()
		if !ok {
			if a.CouldStartWith('-') {
				r.Opaque("cargo with an argument not known here where an option could be")
				return
			}
			continue
		}
		if t == "--" {
			return // the program's or test binary's arguments
		}
		name, val, hasVal := strings.Cut(t, "=")
		if strings.HasPrefix(t, "-Z") {
			r.Opaque("cargo " + t + " turns on unstable behaviour the guard does not read")
			continue
		}
		if strings.HasPrefix(t, "+") && strings.ContainsAny(t, "/.") {
			r.Opaque("cargo " + t + " runs the toolchain at that path")
			continue
		}
		switch name {
		case "--config", "--manifest-path", "-C":
		default:
			continue
		}
		v, ok := optionValue(args, &i, val, hasVal)
		if !ok {
			continue
		}
		switch name {
		case "--config":
			r.cargoConfigArg(v)
		case "--manifest-path", "-C":
			if r.outside(v) {
				r.Opaque("cargo " + name + " builds the crate at " + v.String() + ", which may not be the project's")
			}
		}
	}
}

// cargoConfigArg judges --config KEY=VALUE (a TOML setting) or --config
// FILE.
func (r *carry) cargoConfigArg(v word.Word) {
	t, ok := v.Static()
	if !ok {
		r.Opaque("cargo --config with a setting not known here")
		return
	}
	key, val, isSetting := strings.Cut(t, "=")
	key = strings.TrimSpace(key)
	if !isSetting || key == "" || strings.ContainsAny(key, "/ ") {
		r.Opaque("cargo --config reads the file " + t + ", which can name programs to run")
		return
	}
	key = strings.ReplaceAll(key, `"`, "")
	r.cargoSetting(key, strings.TrimSpace(val), "cargo --config "+key, true)
}

// cargoSetting judges one cargo configuration key (from --config or a
// CARGO_* variable). Keys that name a program are judged as that program;
// keys known to change nothing that runs pass; every other key may (its
// rustflags, env, paths, patches, aliases, includes) and asks.
func (r *carry) cargoSetting(key, val, what string, toml bool) {
	k := strings.ToLower(key)
	parts := strings.Split(k, ".")
	last := parts[len(parts)-1]
	switch {
	case k == "build.rustc" || k == "build.rustc-wrapper" || k == "build.rustc-workspace-wrapper" || k == "build.rustdoc" ||
		k == "doc.browser" || k == "registry.credential-provider" || k == "credential-provider" ||
		(parts[0] == "target" || parts[0] == "host") && (last == "runner" || last == "linker") ||
		parts[0] == "registries" && last == "credential-provider":
		prog, ok := val, true
		if toml {
			prog, ok = tomlProgram(val)
		}
		if !ok {
			r.Opaque(what + " names a program the guard cannot read (" + val + ")")
			return
		}
		r.program(word.FromLit(prog), what)
	case parts[0] == "build" && (last == "target-dir" || last == "dep-info-basedir"):
		// Where cargo writes the build: inside the working directory
		// it is the project's target; elsewhere, a write the guard does
		// not place (--config build.target-dir="/x" wrote there).
		if v := strings.Trim(val, `"' `); v == "" || r.outside(word.FromLit(v)) {
			r.Opaque(what + " makes cargo write the build in " + val)
		}
	case parts[0] == "build" && (last == "jobs" || last == "target" || last == "incremental"),
		parts[0] == "term", parts[0] == "cargo-new", parts[0] == "future-incompat-report",
		k == "net.offline" || k == "net.retry" || k == "net.git-fetch-with-cli",
		parts[0] == "http" && (last == "timeout" || last == "multiplexing" || last == "debug" || last == "low-speed-limit" ||
			last == "proxy" || last == "cainfo" || last == "check-revoke"),
		parts[0] == "registries" && len(parts) == 3 && last == "protocol", k == "registry.default",
		parts[0] == "profile" && len(parts) == 3 && cargoProfileKey(last):
	case parts[0] == "build" && (last == "rustflags" || last == "rustdocflags"),
		parts[0] == "target" && (last == "rustflags" || last == "rustdocflags"):
		if !toml {
			r.rustFlags(val, what)
			return
		}
		r.Opaque(what + " passes flags to rustc, which can name programs")
	default:
		r.Opaque(what + " changes cargo's configuration in a way that can run other programs or code")
	}
}

func cargoProfileKey(k string) bool {
	switch k {
	case "opt-level", "debug", "split-debuginfo", "strip", "debug-assertions", "overflow-checks", "lto", "panic",
		"incremental", "codegen-units":
		return true
	}
	return false
}

// tomlProgram reads a TOML string ("prog args", 'prog') or array of
// strings (["prog", "arg"]) as a command line.
func tomlProgram(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		s := v[1 : len(v)-1]
		if v[0] == '"' && strings.Contains(s, `\`) {
			return "", false
		}
		return s, true
	}
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		var out []string
		for _, e := range strings.Split(v[1:len(v)-1], ",") {
			e = strings.TrimSpace(e)
			if e == "" {
				continue
			}
			s, ok := tomlProgram(e)
			if !ok || strings.ContainsAny(s, " \t") {
				return "", false
			}
			out = append(out, s)
		}
		return strings.Join(out, " "), len(out) > 0
	}
	return "", false
}

// rustFlags judges RUSTFLAGS: lint levels, cfgs and code-generation
// settings that run nothing pass; -C linker names a program; any other
// flag can load code (-Z codegen-backend, -C link-arg, plugins) and asks.
func (r *carry) rustFlags(t, what string) {
	fields := strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == '\t' || r == '\x1f' })
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch {
		case f == "-D" || f == "-W" || f == "-A" || f == "-F" || f == "--cfg" || f == "--cap-lints" || f == "--check-cfg":
			i++
		case len(f) > 2 && (f[:2] == "-D" || f[:2] == "-W" || f[:2] == "-A" || f[:2] == "-F"),
			strings.HasPrefix(f, "--cfg=") || strings.HasPrefix(f, "--cap-lints=") || f == "-g" || f == "-O":
		case f == "-C" || strings.HasPrefix(f, "-C"):
			setting := strings.TrimPrefix(f, "-C")
			if setting == "" && i+1 < len(fields) {
				i++
				setting = fields[i]
			}
			k, v, _ := strings.Cut(setting, "=")
			switch k {
			case "linker":
				r.program(word.FromLit(v), what+" -C linker")
			case "target-cpu", "target-feature", "opt-level", "debuginfo", "debug-assertions", "overflow-checks",
				"codegen-units", "incremental", "instrument-coverage", "lto", "panic", "relocation-model",
				"force-frame-pointers", "strip", "embed-bitcode", "split-debuginfo", "symbol-mangling-version", "code-model":
			default:
				r.Opaque(what + " passes -C " + k + " to rustc, which the guard does not read")
			}
		default:
			r.Opaque(what + " passes " + f + " to rustc, which the guard does not read")
		}
	}
}

// cargoEnv: the programs cargo runs, rustc's flags, and CARGO_* (cargo's
// configuration keys, read as --config settings).
func (r *carry) cargoEnv(a envVar) bool {
	name := a.Name
	t, static := a.Value.Static()
	switch {
	case name == "RUSTC" || name == "RUSTC_WRAPPER" || name == "RUSTC_WORKSPACE_WRAPPER" || name == "RUSTDOC" || name == "CARGO" ||
		name == "RUSTC_LINKER":
		r.program(a.Value, name+" (a program cargo runs)")
	case name == "RUSTFLAGS" || name == "RUSTDOCFLAGS" || name == "CARGO_ENCODED_RUSTFLAGS" || name == "CARGO_ENCODED_RUSTDOCFLAGS":
		if !static {
			r.Opaque(name + " is set to flags not known here (rustc flags can name programs)")
			return true
		}
		r.rustFlags(t, name)
	case name == "CARGO_HOME" || name == "RUSTUP_HOME":
		r.untrustedLocation(a, "cargo and rustup read their configuration and toolchains")
	case name == "RUSTUP_TOOLCHAIN":
		if !static || strings.ContainsAny(t, "/~") {
			r.Opaque("RUSTUP_TOOLCHAIN=" + a.Value.String() + " runs the toolchain at that path")
		}
	case strings.HasPrefix(name, "CARGO_"):
		key := cargoEnvKey(name)
		if key == "" {
			return false
		}
		if !static {
			r.Opaque(name + " is set to a value not known here (cargo reads it as its " + key + " setting)")
			return true
		}
		r.cargoSetting(key, t, name, false)
	default:
		return false
	}
	return true
}

// cargoEnvKey maps a CARGO_* variable to the configuration key cargo
// reads from it, or "" when it is not configuration (CARGO_PKG_NAME and
// the other variables cargo sets for build scripts). A variable not
// listed maps to a key cargoSetting does not know, which asks.
func cargoEnvKey(name string) string {
	rest := strings.TrimPrefix(name, "CARGO_")
	switch rest {
	case "MANIFEST_DIR", "MANIFEST_PATH", "CRATE_NAME", "PRIMARY_PACKAGE", "TARGET_TMPDIR", "MAKEFLAGS", "LOG", "LOG_COLOR":
		return ""
	case "TARGET_DIR", "BUILD_TARGET_DIR":
		return "build.target-dir"
	case "INCREMENTAL", "BUILD_INCREMENTAL":
		return "build.incremental"
	case "BUILD_JOBS":
		return "build.jobs"
	case "BUILD_TARGET":
		return "build.target"
	case "BUILD_RUSTC":
		return "build.rustc"
	case "BUILD_RUSTC_WRAPPER":
		return "build.rustc-wrapper"
	case "BUILD_RUSTC_WORKSPACE_WRAPPER":
		return "build.rustc-workspace-wrapper"
	case "BUILD_RUSTDOC":
		return "build.rustdoc"
	case "BUILD_RUSTFLAGS":
		return "build.rustflags"
	case "BUILD_RUSTDOCFLAGS":
		return "build.rustdocflags"
	case "NET_OFFLINE":
		return "net.offline"
	case "NET_RETRY":
		return "net.retry"
	case "NET_GIT_FETCH_WITH_CLI":
		return "net.git-fetch-with-cli"
	case "HTTP_TIMEOUT":
		return "http.timeout"
	case "HTTP_MULTIPLEXING":
		return "http.multiplexing"
	case "HTTP_DEBUG":
		return "http.debug"
	case "HTTP_PROXY":
		return "http.proxy"
	case "HTTP_CAINFO":
		return "http.cainfo"
	case "HTTP_CHECK_REVOKE":
		return "http.check-revoke"
	case "REGISTRY_CREDENTIAL_PROVIDER":
		return "registry.credential-provider"
	}
	switch {
	case strings.HasPrefix(rest, "PKG_") || strings.HasPrefix(rest, "CFG_") || strings.HasPrefix(rest, "BIN_") ||
		strings.HasPrefix(rest, "FEATURE_"):
		return ""
	case strings.HasPrefix(rest, "TERM_"):
		return "term.x"
	case strings.HasPrefix(rest, "TARGET_") && strings.HasSuffix(rest, "_RUNNER"):
		return "target.x.runner"
	case strings.HasPrefix(rest, "TARGET_") && strings.HasSuffix(rest, "_LINKER"):
		return "target.x.linker"
	case strings.HasPrefix(rest, "TARGET_") && strings.HasSuffix(rest, "_RUSTFLAGS"):
		return "target.x.rustflags"
	case strings.HasPrefix(rest, "REGISTRIES_") && strings.HasSuffix(rest, "_CREDENTIAL_PROVIDER"):
		return "registries.x.credential-provider"
	case strings.HasPrefix(rest, "REGISTRIES_") && strings.HasSuffix(rest, "_PROTOCOL"):
		return "registries.x.protocol"
	case strings.HasPrefix(rest, "PROFILE_"):
		for _, k := range []string{"OPT_LEVEL", "DEBUG", "SPLIT_DEBUGINFO", "STRIP", "DEBUG_ASSERTIONS", "OVERFLOW_CHECKS", "LTO", "PANIC", "INCREMENTAL", "CODEGEN_UNITS"} {
			if strings.HasSuffix(rest, "_"+k) {
				return "profile.x." + strings.ReplaceAll(strings.ToLower(k), "_", "-")
			}
		}
	}
	return "(" + name + ")"
}
