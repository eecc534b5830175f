package pycode

import "sync"

// A module is a reviewed standard-library module the code may import and
// use without a question. A module absent from the table is never allowed
// on its own ("imports shutil"). The review is of what the module can do
// when its functions are called with any arguments: compute, read, print.
type module struct {
	why string
	// all: every public attribute, except those in deny. Otherwise only
	// those in allow.
	all   bool
	allow []string
	deny  map[string]string // attribute → what it would do
}

// Special attributes: calls judged as commands, network requests or file
// effects rather than asked about (see analysis.go).
var commandCalls = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"subprocess.run": "argv", "subprocess.call": "argv", "subprocess.check_call": "argv",
		"subprocess.check_output": "argv", "subprocess.Popen": "argv",
		"subprocess.getoutput": "shell", "subprocess.getstatusoutput": "shell",
		"os.system": "shell", "os.popen": "shell",
	}
})

// modules is the reviewed table. Each entry says why it is safe, and the
// parts that are not (asked about by name).
var modules = sync.OnceValue(func() map[string]module {
	return map[string]module{
		"json": {why: "encodes and decodes JSON", all: true,
			deny: map[string]string{"tool": "is json's command line, which writes the file it names"}},
		"json.decoder": {why: "decodes JSON", all: true, deny: map[string]string{"scanner": "is the module json.scanner"}},
		"json.encoder": {why: "encodes JSON", all: true},
		"json.scanner": {why: "decodes JSON", all: true},
		"re":           {why: "regular expressions", all: true},
		"math":         {why: "arithmetic", all: true},
		"cmath":        {why: "arithmetic", all: true},
		"decimal":      {why: "arithmetic", all: true},
		"fractions":    {why: "arithmetic", all: true},
		"statistics":   {why: "arithmetic", all: true},
		"random":       {why: "pseudo-random numbers", all: true},
		"secrets":      {why: "random tokens", all: true},
		"string": {why: "string constants and templates", all: true,
			deny: map[string]string{"Formatter": "gets attributes by names written in a string (get_field)"}},
		"textwrap":        {why: "text formatting", all: true},
		"difflib":         {why: "compares sequences", all: true},
		"pprint":          {why: "prints values", all: true},
		"reprlib":         {why: "prints values", all: true},
		"collections":     {why: "containers", all: true},
		"collections.abc": {why: "container interfaces", all: true},
		"itertools":       {why: "iteration", all: true},
		"functools": {why: "higher-order functions", all: true,
			deny: map[string]string{"singledispatch": "evaluates annotations written as strings", "singledispatchmethod": "evaluates annotations written as strings"}},
		"operator": {why: "operators as functions", all: true,
			deny: map[string]string{"attrgetter": "gets attributes by a name", "methodcaller": "calls methods by a name"}},
		"heapq":  {why: "heaps", all: true},
		"bisect": {why: "sorted lists", all: true},
		"array":  {why: "typed arrays", all: true},
		"copy":   {why: "copies values", all: true},
		"enum":   {why: "enumerations", all: true, deny: map[string]string{"bltns": "is the builtins module (exec, eval, open)"}},
		"dataclasses": {why: "record classes (their methods are made from the fields' names, which only class annotations give: __annotations__ asks)", all: true,
			deny: map[string]string{"make_dataclass": "makes methods from field names given as strings, which it runs as code"}},
		"typing": {why: "type annotations", all: true,
			deny: map[string]string{"get_type_hints": "evaluates annotations written as strings", "ForwardRef": "evaluates a string as code",
				"stdlib_re":            "is the module re, under another name",
				"evaluate_forward_ref": "evaluates a string as code"}},
		"abc":      {why: "abstract classes", all: true},
		"numbers":  {why: "numeric interfaces", all: true},
		"datetime": {why: "dates and times", all: true},
		"calendar": {why: "calendars", all: true},
		"zoneinfo": {why: "time zones (reads the zone database)", all: true},
		"time": {why: "clocks and sleeping", all: true,
			deny: map[string]string{"tzset": "changes the process's time zone"}},
		"uuid": {why: "identifiers", all: true,
			deny: map[string]string{"getnode": "may run ifconfig to find a MAC address", "uuid1": "may run ifconfig to find a MAC address"}},
		"threading": {why: "threads that run the code's own functions", all: true},
		"queue":     {why: "queues between threads", all: true},
		"concurrent.futures": {why: "thread pools that run the code's own functions", all: true,
			deny: map[string]string{"ProcessPoolExecutor": "starts interpreter processes", "process": "starts interpreter processes",
				"thread": "is a module that holds os"}},
		"signal": {why: "the process's own signal handlers, timers and masks", all: true,
			deny: map[string]string{"pidfd_send_signal": "signals another process", "set_wakeup_fd": "writes to a file descriptor it is given"}},
		"select":        {why: "waits on file descriptors the code has", all: true},
		"selectors":     {why: "waits on file descriptors the code has", all: true},
		"hashlib":       {why: "hashes", all: true},
		"hmac":          {why: "hashes", all: true},
		"base64":        {why: "encodings", all: true},
		"binascii":      {why: "encodings", all: true},
		"struct":        {why: "binary packing", all: true},
		"zlib":          {why: "compression in memory", all: true},
		"unicodedata":   {why: "character data", all: true},
		"keyword":       {why: "Python keywords", all: true},
		"ast":           {why: "parses Python without running it", all: true},
		"tokenize":      {why: "reads Python source", all: true},
		"shlex":         {why: "shell-like splitting and quoting", all: true},
		"fnmatch":       {why: "name patterns", all: true},
		"glob":          {why: "lists files (reads directories)", all: true},
		"html":          {why: "escapes HTML", all: true},
		"html.parser":   {why: "parses HTML text it is given", all: true},
		"html.entities": {why: "HTML entity tables", all: true},
		"urllib.parse":  {why: "parses URLs", all: true},
		"ipaddress":     {why: "IP address arithmetic", all: true},
		"graphlib":      {why: "topological sorting", all: true},
		"errno":         {why: "error numbers", all: true},
		"stat":          {why: "file mode constants", all: true},
		"tomllib":       {why: "reads TOML", all: true},
		"csv":           {why: "reads and writes CSV on files the code opened (open() is judged)", all: true},
		"contextlib": {why: "context managers", all: true,
			deny: map[string]string{"chdir": "changes the working directory"}},
		"warnings": {why: "warnings", all: true,
			deny: map[string]string{"formatwarning": "prints a line of the file it is given", "showwarning": "prints a line of the file it is given",
				"warn_explicit": "prints a line of the file it is given"}},
		"traceback": {why: "prints tracebacks", all: true,
			deny: map[string]string{"FrameSummary": "reads a line of the file it is given", "StackSummary": "reads lines of the files it is given",
				"format_list": "reads lines of the files it is given", "print_list": "reads lines of the files it is given"}},
		"argparse": {why: "reads the command line", all: true,
			deny: map[string]string{"FileType": "opens files named on the command line, for writing too"}},
		"getopt":  {why: "reads the command line", all: true},
		"getpass": {why: "reads a password from the terminal", all: true},
		"pathlib": {why: "paths; its methods that change files are judged as writes (see pathWrites)", all: true,
			deny: map[string]string{"attrgetter": "is operator.attrgetter, which gets attributes by a name"}},
		"os.path":     {why: "path arithmetic and file tests", all: true},
		"posixpath":   {why: "path arithmetic and file tests", all: true},
		"genericpath": {why: "file tests (os.path's exists, isdir, getsize …)", all: true},
		"zipfile": {why: "reads zip archives: ZipFile is a read of the archive it opens (mode w, a or x asks), and .extract()/.extractall() ask on any object",
			allow: []string{"ZipInfo", "BadZipFile", "BadZipfile", "LargeZipFile", "ZIP_STORED", "ZIP_DEFLATED", "ZIP_BZIP2", "ZIP_LZMA", "error"}},
		"io": {why: "in-memory files", allow: []string{"StringIO", "BytesIO", "TextIOWrapper", "BufferedReader", "SEEK_SET", "SEEK_CUR", "SEEK_END", "IOBase", "TextIOBase", "UnsupportedOperation", "DEFAULT_BUFFER_SIZE"}},
		"logging": {why: "log messages (to stderr unless a file is named)", all: true,
			deny: map[string]string{"FileHandler": "writes a log file", "handlers": "log handlers write files and send messages",
				"config": "logging.config can listen for and run configuration"}},
		"sys": {why: "the interpreter's arguments, streams and facts", allow: []string{
			"argv", "stdin", "stdout", "stderr", "exit", "version", "version_info", "platform", "maxsize", "maxunicode",
			"byteorder", "executable", "implementation", "float_info", "int_info", "hexversion", "getsizeof",
			"getrecursionlimit", "setrecursionlimit", "getdefaultencoding", "getfilesystemencoding", "exc_info",
			"exception", "stdlib_module_names", "builtin_module_names", "flags", "prefix", "base_prefix", "exec_prefix",
			"api_version", "copyright", "orig_argv", "set_int_max_str_digits", "get_int_max_str_digits", "getrefcount",
			"intern", "is_finalizing", "last_value", "last_type", "last_traceback", "float_repr_style", "path"}},
		"os": {why: "facts about the process and reading the file system", allow: []string{
			"path", "getcwd", "getcwdb", "listdir", "scandir", "walk", "stat", "lstat", "access", "fspath", "fsencode", "fsdecode",
			"getenv", "environ", "sep", "altsep", "extsep", "pathsep", "linesep", "defpath", "devnull", "curdir", "pardir",
			"name", "cpu_count", "getpid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getgroups", "getlogin",
			"uname", "get_terminal_size", "isatty", "urandom", "times", "getloadavg", "strerror", "sched_getaffinity",
			"R_OK", "W_OK", "X_OK", "F_OK", "O_RDONLY", "SEEK_SET", "SEEK_CUR", "SEEK_END", "DirEntry", "PathLike",
			"error", "terminal_size", "stat_result", "get_exec_path", "readlink", "supports_follow_symlinks", "fstat",
			"getpgrp", "getsid"}},
		"shutil": {why: "its questions about the system, copies between files the code opened, and copies of one file (pathCalls)",
			allow: []string{"which", "get_terminal_size", "disk_usage", "copyfileobj", "SameFileError", "Error"}},
		"platform": {why: "only the facts it reads without running programs", allow: []string{
			"python_version", "python_version_tuple", "python_implementation", "system", "machine", "release", "node", "version"}},
		"subprocess": {why: "only literal commands, judged as commands (commandCalls)", allow: []string{
			"PIPE", "DEVNULL", "STDOUT", "CalledProcessError", "TimeoutExpired", "CompletedProcess", "SubprocessError"}},
		"urllib.request": {why: "only urlopen of a literal URL, judged like curl", allow: []string{}},
	}
})

// pathCalls are functions of reviewed modules that change, or copy, the
// file their arguments name: each named file is a write (or, for what a
// copy reads, a read) that the path rules judge, as they judge the shell
// command that does the same (mkdir -p, rm, rmdir, chmod, cp). What moves
// or deletes a whole tree (os.rename of a directory, shutil.move, rmtree,
// copytree) or reaches a file through another (dir_fd, symlink) is not
// here: it is asked about.
var pathCalls = sync.OnceValue(func() map[string][]pathArg {
	one := []pathArg{{0, "path", true}}
	copy := []pathArg{{0, "src", false}, {1, "dst", true}}
	return map[string][]pathArg{
		"os.mkdir": one, "os.makedirs": {{0, "name", true}}, "os.remove": one, "os.unlink": one, "os.rmdir": one,
		"zipfile.is_zipfile": {{0, "filename", false}}, "zipfile.Path": {{0, "root", false}},
		"os.chmod": one, "shutil.copyfile": copy, "shutil.copy": copy, "shutil.copy2": copy, "shutil.copymode": copy,
		"shutil.copystat": copy,
	}
})

// cliEntryPoints are the names of modules' command lines (base64.main,
// tokenize.main, ast.main, calendar.main, random._test): they read
// sys.argv and the files it names. Asked about in every module, whatever
// the table says of the rest (TestEntryPointsDenied holds the table to
// the modules' source).
var cliEntryPoints = map[string]bool{"main": true, "_main": true, "test": true, "_test": true, "_script": true}

// fileMethods are methods of reviewed classes that open a file a string
// names, asked about on any object (shlex.shlex's sourcehook).
var fileMethods = map[string]string{"sourcehook": "opens the file it is given (shlex)"}

// optionAttrs are options the analysis judges where an object is made
// (argparse.ArgumentParser(fromfile_prefix_chars=…)) or that make a
// reviewed object read files (shlex's source), each with what it does:
// set as an attribute afterwards (p.fromfile_prefix_chars = '@'), or
// passed to another call, they ask. optionOwner is the call judged for
// each ("" for none).
var optionAttrs = map[string]string{
	"fromfile_prefix_chars": "makes a parser read the files its command line names",
	"source":                "makes a shlex lexer read the files its input names",
}

var optionOwner = map[string]string{"fromfile_prefix_chars": "argparse.ArgumentParser", "source": ""}

// extractMethods are methods that write the files an archive names
// (zipfile's, tarfile's): asked about on any object, since the archive
// object can come from anywhere.
var extractMethods = map[string]bool{"extract": true, "extractall": true}

// pathArg is an argument of a pathCalls function: its position, its
// keyword, and whether the file it names is written.
type pathArg struct {
	pos   int
	kw    string
	write bool
}

// pathCallKw are the keywords of pathCalls functions that change nothing
// about which file they touch.
var pathCallKw = map[string]bool{"mode": true, "exist_ok": true, "follow_symlinks": true}

// pathWrites are pathlib.Path methods that change the file system, with
// how many positional arguments they take when they are Path's (a call
// that cannot be Path's, such as str.replace(a, b), is left alone).
var pathWrites = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"write_text": -1, "write_bytes": -1, "touch": -1, "mkdir": -1, "unlink": -1, "rmdir": -1,
		"rename": 1, "replace": 1, "symlink_to": -1, "hardlink_to": -1, "link_to": -1, "chmod": -1, "lchmod": -1,
		"open": -1,
	}
})

// pathReads are pathlib.Path methods that read a file's content.
var pathReads = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"read_text": true, "read_bytes": true, "iterdir": true, "glob": true, "rglob": true, "walk": true}
})

// pathReaders are functions of reviewed modules that read what a path
// names (a file's content, a directory's entries): their first argument
// is a read effect, so that rules about secret files see it.
var pathReaders = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"os.listdir": true, "os.scandir": true, "os.walk": true, "os.readlink": true,
		"glob.glob": true, "glob.iglob": true, "tokenize.open": true,
	}
})

// frameAttrs are attributes of frames, tracebacks, generators and
// functions that reach the names of other modules (f_globals…) or code
// objects, and AttributeError's obj (the object a lookup failed on: a
// whole module after os.path.zz, a red team's): never followed.
var frameAttrs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"obj":       true,
		"f_globals": true, "f_locals": true, "f_builtins": true, "f_back": true, "f_code": true, "tb_frame": true,
		"tb_next": true, "gi_frame": true, "gi_code": true, "cr_frame": true, "cr_code": true, "ag_frame": true,
		"ag_code": true, "co_code": true, "func_globals": true, "gi_yieldfrom": true, "cr_await": true,
	}
})

// builtins that reach past the names the analysis can follow, or run
// something other than the code.
var riskyBuiltins = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"exec": "runs code built at run time (exec)", "eval": "evaluates code built at run time (eval)",
		"compile": "compiles code built at run time (compile)", "__import__": "imports a module by a name (__import__)",
		"globals": "reaches names through globals()", "locals": "reaches names through locals()", "vars": "reaches names through vars()",
		"breakpoint": "calls breakpoint(), which runs the hook PYTHONBREAKPOINT names",
		"help":       "calls help(), which runs a pager", "setattr": "sets an attribute by name (setattr)",
		"delattr": "deletes an attribute by name (delattr)", "__build_class__": "uses __build_class__",
		"__builtins__": "reaches the builtins through __builtins__", "__loader__": "uses the module loader",
		"__spec__": "uses the module spec",
	}
})

// okDunders are special names whose use reaches nothing new.
var okDunders = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"__name__": true, "__doc__": true, "__file__": true, "__version__": true, "__qualname__": true,
		"__module__": true, "__init__": true, "__all__": true, "__slots__": true,
		"__author__": true, "__debug__": true, "__enter__": true, "__exit__": true, "__post_init__": true,
		"__str__": true, "__repr__": true, "__len__": true, "__iter__": true, "__next__": true, "__eq__": true,
		"__hash__": true, "__lt__": true,
	}
})

// harmlessEnv are PYTHON* variables of the command that change nothing
// of what code runs; any other one (PYTHONPATH is followed, the rest
// asked about) may.
var harmlessEnv = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true, "PYTHONIOENCODING": true, "PYTHONHASHSEED": true,
		"PYTHONUTF8": true, "PYTHONFAULTHANDLER": true, "PYTHONNOUSERSITE": true, "PYTHONOPTIMIZE": true,
		"PYTHONVERBOSE": true, "PYTHONSAFEPATH": true, "PYTHONDEVMODE": true, "PYTHONTRACEMALLOC": true,
		"PYTHONLEGACYWINDOWSSTDIO": true, "PYTHONCOERCECLOCALE": true, "PYTHONMALLOC": true, "PYTHONINTMAXSTRDIGITS": true,
	}
})

// HarmlessEnv reports whether setting the variable for a python command
// leaves what it runs unchanged (PYTHONPATH is not: it is followed).
func HarmlessEnv(name string) bool { return harmlessEnv()[name] }
