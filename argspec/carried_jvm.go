package argspec

import (
	"path"
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/word"
)

// mavenPhase reports a phase of Maven's default, clean or site lifecycle:
// it runs the plugins the project's POM binds. Any other goal
// (plugin:goal, exec:exec) runs a plugin named on the command line.
func mavenPhase(s string) bool {
	switch s {
	case "validate", "initialize", "generate-sources", "process-sources", "generate-resources", "process-resources",
		"compile", "process-classes", "generate-test-sources", "process-test-sources", "generate-test-resources",
		"process-test-resources", "test-compile", "process-test-classes", "test", "prepare-package", "package",
		"pre-integration-test", "integration-test", "post-integration-test", "verify", "install", "deploy",
		"pre-clean", "clean", "post-clean", "pre-site", "site", "post-site", "site-deploy":
		return true
	}
	return false
}

// mvnValued are Maven's options that take a value, short and long.
var mvnValued = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"-b": true, "--builder": true, "-D": true, "--define": true, "-f": true, "--file": true, "-gs": true,
		"--global-settings": true, "-gt": true, "--global-toolchains": true, "-l": true, "--log-file": true, "-P": true,
		"--activate-profiles": true, "-pl": true, "--projects": true, "-rf": true, "--resume-from": true, "-s": true,
		"--settings": true, "-t": true, "--toolchains": true, "-T": true, "--threads": true, "--color": true,
	}
})

// mvnCarried: mvn runs the lifecycle phases the project's POM defines.
// Plugin goals named on the command line, another POM, settings or
// toolchains files, and properties that name programs or JVM options are
// code of their own.
func mvnCarried(r *carry) {
	args := r.argv[1:]
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			r.Opaque("mvn with an argument not known here (a goal or an option)")
			continue
		}
		if !strings.HasPrefix(t, "-") {
			if !mavenPhase(t) {
				r.Opaque("mvn " + t + " runs a plugin goal named on the command line")
			}
			continue
		}
		name, val, hasVal := strings.Cut(t, "=")
		if strings.HasPrefix(t, "-D") && len(t) > 2 {
			name, val, hasVal = "-D", t[2:], true
		}
		// Maven's commons-cli takes a short option's value attached:
		// -f/tmp/pom.xml, -s/tmp/s.xml, -l/tmp/log.
		for _, short := range []string{"-f", "-s", "-t", "-l", "-b", "-e"} {
			if !mvnValued()[name] && strings.HasPrefix(t, short) && len(t) > 2 && !strings.HasPrefix(t, "--") && mvnValued()[short] {
				name, val, hasVal = short, t[2:], true
			}
		}
		if !mvnValued()[name] {
			continue // a switch, or an option mvn refuses
		}
		v, ok := optionValue(args, &i, val, hasVal)
		if !ok {
			continue
		}
		switch name {
		case "-f", "--file":
			if tv, _ := v.Static(); r.outside(v) || path.Base(tv) != "pom.xml" && tv != "." {
				r.Opaque("mvn -f builds the POM " + v.String() + ", not the project's")
			}
		case "-s", "--settings", "-gs", "--global-settings", "-t", "--toolchains", "-gt", "--global-toolchains":
			r.Opaque("mvn " + name + " reads " + v.String() + ", which can change the programs the build runs")
		case "-D", "--define":
			r.mavenProperty(v)
		}
	}
}

// mavenProperty judges -Dname=value. Properties configure the POM's
// plugins; those that name the program a plugin runs or the JVM options of
// a forked JVM are code.
func (r *carry) mavenProperty(v word.Word) {
	name, val, _ := v.Cut("=")
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, "executable") || n == "jvm" || strings.HasSuffix(n, ".jvm") || strings.HasSuffix(n, "command"):
		r.program(val, "mvn -D"+name)
	case strings.HasSuffix(n, "argline") || strings.HasSuffix(n, "jvmargs") || strings.HasPrefix(n, "maven.ext.") ||
		strings.Contains(n, "javaagent") || n == "exec.args" || n == "exec.mainclass":
		r.Opaque("mvn -D" + name + " sets code or JVM options a plugin runs")
	}
}

// gradleCarried: init scripts, another build or settings file, another
// project directory and JVM options are code the project did not name.
func gradleCarried(r *carry) {
	args := r.argv[1:]
	for i := 0; i < len(args); i++ {
		t, ok := args[i].Static()
		if !ok {
			if args[i].CouldStartWith('-') {
				r.Opaque("gradle with an argument not known here where an option could be")
			}
			continue
		}
		name, _, _ := strings.Cut(t, "=")
		switch name {
		case "-I", "--init-script":
			r.Opaque("gradle " + name + " runs an init script")
		case "-b", "--build-file", "-c", "--settings-file":
			r.Opaque("gradle " + name + " runs another build script")
		case "-p", "--project-dir", "--include-build", "-g", "--gradle-user-home":
			_, val, hasVal := strings.Cut(t, "=")
			v, ok := optionValue(args, &i, val, hasVal)
			if !ok {
				v = word.FromLit("")
			}
			if r.outside(v) || name == "-g" || name == "--gradle-user-home" {
				r.Opaque("gradle " + name + " " + v.String() + " builds or configures from outside the project")
			}
		default:
			if strings.HasPrefix(t, "-I") && len(t) > 2 {
				r.Opaque("gradle -I runs an init script")
			}
			if strings.HasPrefix(t, "-Dorg.gradle.java.home") || strings.HasPrefix(t, "-Dorg.gradle.jvmargs") ||
				strings.HasPrefix(t, "-Porg.gradle.java.home") || strings.HasPrefix(t, "-Porg.gradle.jvmargs") {
				r.Opaque("gradle " + name + " changes the JVM the build runs in")
			}
		}
	}
}

// jvmEnv: options every JVM (or Maven, Gradle) reads from the
// environment. Memory and GC settings pass; agents, class paths, OnError
// commands and anything else ask.
func (r *carry) jvmEnv(a envVar) bool {
	switch a.Name {
	case "MAVEN_OPTS", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "GRADLE_OPTS", "JAVA_OPTS", "MAVEN_ARGS":
	case "JAVA_HOME", "MAVEN_HOME", "M2_HOME", "GRADLE_USER_HOME":
		r.untrustedLocation(a, "mvn and gradle run java (or read settings and init scripts)")
		return true
	case "MVNW_REPOURL", "MVNW_USERNAME":
		if a.Name == "MVNW_REPOURL" {
			r.Opaque("MVNW_REPOURL makes ./mvnw download Maven from " + a.Value.String())
		}
		return true
	default:
		return false
	}
	t, ok := a.Value.Static()
	if !ok {
		r.Opaque(a.Name + " is set to JVM options not known here (such as -javaagent)")
		return true
	}
	for _, f := range strings.Fields(t) {
		switch {
		case strings.HasPrefix(f, "-Xmx") || strings.HasPrefix(f, "-Xms") || strings.HasPrefix(f, "-Xss") || strings.HasPrefix(f, "-Xmn"),
			f == "-ea" || f == "-da" || f == "-server" || f == "-client" || f == "-B" || f == "-q" || f == "--batch-mode" || f == "--no-transfer-progress" || f == "-ntp",
			strings.HasPrefix(f, "-XX:") && !strings.HasPrefix(f, "-XX:On") && !strings.Contains(strings.ToLower(f), "agent"):
		case strings.HasPrefix(f, "-D"):
			if a.Name == "MAVEN_OPTS" || a.Name == "MAVEN_ARGS" {
				r.mavenProperty(word.FromLit(f[2:]))
			}
		default:
			r.Opaque(a.Name + " passes " + f + " to the JVM, which the guard does not read")
			return true
		}
	}
	return true
}
