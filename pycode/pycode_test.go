package pycode

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// realAnalyser uses the python3 on this machine (the system's, which
// starts faster than a version manager's shim); tests skip without one.
func realAnalyser(t *testing.T) *Analyser {
	t.Helper()
	py, err := exec.LookPath("python3")
	if _, e := os.Stat("/usr/bin/python3"); e == nil {
		py, err = "/usr/bin/python3", nil
	}
	if err != nil {
		t.Skip("no python3 on PATH: the analysis needs a real interpreter")
	}
	path := filepath.Dir(py)
	return &Analyser{Getenv: func(k string) string {
		if k == "PATH" {
			return path
		}
		return os.Getenv(k)
	}}
}

func TestAnalyseTable(t *testing.T) {
	a := realAnalyser(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		code string
		ask  string // a reason that must be given; "" means none at all
		cmds string // the commands found, "|"-separated
		effs string // the effects, "|"-separated: r:path or w:path
	}{
		{code: `print(1+1)`},
		{code: "import json, sys\nd = json.load(sys.stdin)\nprint(d['a'])"},
		{code: "import re, math, collections, itertools, functools, datetime, textwrap\nprint(re.sub('a', 'b', 'abc'))"},
		{code: "import os.path\nprint(os.path.join('a', 'b'), os.getcwd())"},
		{code: "from pathlib import Path\nprint(Path('x').read_text())", effs: "r:x"},
		{code: "from pathlib import Path\nprint([str(p) for p in Path('.').rglob('*.json')][:5])", effs: "r:."},
		{code: "s = 'a-b'.replace('-', '_')\nprint(s)"},
		{code: "from pathlib import Path\nprint('a'.replace('a', 'b'))"},
		{code: "print(open('data.txt').read())", effs: "r:data.txt"},
		{code: "f = open(name)\nprint(f.read())", effs: "r:"},
		{code: "open('out.txt', 'w').write('x')", effs: "w:out.txt"},
		{code: "with open('out.txt', mode='a') as f: f.write('x')", effs: "w:out.txt"},
		{code: "open(name, 'w').write('x')", ask: "opens a file for writing at a path known only at run time"},
		{code: "open('x', m)", ask: "mode known only at run time"},
		{code: "from pathlib import Path\nPath('a.txt').write_text('x')", effs: "w:a.txt"},
		{code: "from pathlib import Path\np = Path(x)\np.unlink()", ask: "calls .unlink() on a path known only at run time"},
		{code: "import shutil\nshutil.rmtree('build')", ask: "uses shutil.rmtree"},
		{code: "import shutil", ask: ""},
		{code: "import requests", ask: "imports requests"},
		{code: "import os\nos.remove(p)", ask: "calls os.remove on a path known only at run time"},
		// Functions that change or copy one file are that file's effects.
		{code: "import os\nos.makedirs('out/x', exist_ok=True)", effs: "w:out/x"},
		{code: "import os\nos.makedirs('o', 0o755, True)\nos.mkdir(path='p')", effs: "w:o|w:p"},
		{code: "import os\nos.remove('a')\nos.unlink('b')\nos.rmdir('c')\nos.chmod('d', 0o755)", effs: "w:a|w:b|w:c|w:d"},
		{code: "import shutil\nshutil.copy('a', 'b')\nshutil.copy2(src='c', dst='d')", effs: "r:a|w:b|w:b/a|r:c|w:d|w:d/c"},
		{code: "import shutil\nshutil.copy('src/settings.json', '.claude')", effs: "r:src/settings.json|w:.claude|w:.claude/settings.json"},
		{code: "from os import makedirs as m\nm('o')", effs: "w:o"},
		{code: "import shutil\nshutil.copyfile(name, 'b')", effs: "r:|w:b"},
		{code: "import shutil\nshutil.copy(name, 'b')", effs: "r:|w:b", ask: "with a file known only at run time"},
		{code: "import shutil\nshutil.copyfile('a', name)", effs: "r:a", ask: "calls shutil.copyfile on a path known only at run time"},
		{code: "import os\nos.mkdir('x', dir_fd=3)", ask: "dir_fd="},
		{code: "import os\nos.makedirs(*a)", ask: "arguments not known here"},
		{code: "import os\nf = os.makedirs\nf('/opt/x')", ask: "uses os.makedirs"},
		{code: "from os import makedirs as m\nf = m\nf('/opt/x')", ask: "uses os.makedirs"},
		{code: "import os\ngetattr(os, 'makedirs')('/opt/x')", ask: "uses os.makedirs"},
		{code: "import os\nos.makedirs.__call__('/opt/x')", ask: "os.makedirs"},
		{code: "import shutil\nshutil.move('a', 'b')", ask: "uses shutil.move"},
		// A method that changes files, used other than by a call the
		// analysis sees, and library internals.
		{code: "from pathlib import Path\nf = Path('/opt/x').write_text\nf('x')", ask: "uses .write_text other than by calling it"},
		{code: "from pathlib import Path\nlist(map(Path.unlink, [Path('/opt/x')]))", ask: "uses .unlink other than by calling it"},
		{code: "import functools\nfrom pathlib import Path\nfunctools.partial(Path('/opt/x').touch)()", ask: "uses .touch other than by calling it"},
		{code: "import zipfile\nz = zipfile.ZipFile('a.zip')\nz._extract_member('x', '/opt', None)", effs: "r:a.zip", ask: "uses ._extract_member of an object the code did not make"},
		{code: "class A:\n    def __init__(self): self._n = 0\n    def _inc(self): self._n += 1\na = A()\na._inc()\nprint(a._n)"},
		{code: "class A:\n    pass\na = A()\na._cb = print\na._cb(1)"},
		// Found by a red team: library internals, code made from strings,
		// names python binds as others, aliases, functions passed around.
		{code: "import typing\ndef _evaluate(): pass\ntyping.get_args(typing.List['x'])[0]._evaluate({}, {}, frozenset())", ask: "uses ._evaluate of an object the code did not make"},
		{code: "import typing\nf = typing.get_args(typing.List['x'])[0]._evaluate\nf({}, {}, frozenset())", ask: "uses ._evaluate"},
		{code: "import typing\ngetattr(typing.get_args(typing.List['x'])[0], '_evaluate')({}, {}, frozenset())", ask: "getattr(…, _evaluate)"},
		{code: "import dataclasses\nclass C:\n    __annotations__ = {'a': int}\nC = dataclasses.dataclass(C)", ask: "__annotations__"},
		// A red team's: the annotations through type()'s namespace, or
		// stored through the attribute (dataclasses runs field names).
		{code: "import dataclasses\nN = 'x)\\n open(1)\\n #'\nC = type('C', (), {'__annotations__': {N: int}})\ndataclasses.dataclass(init=False)(C)", ask: "__annotations__"},
		{code: "import dataclasses\nclass C:\n    a: int\nC.__annotations__['b'] = int\ndataclasses.dataclass(C)", ask: "__annotations__"},
		{code: "ns = {}\nC = type('C', (), ns)", ask: "__dict__"},
		{code: "C = type('C', (), {'a': 1})\nprint(C.a, type(3))"},
		{code: "import dataclasses\ndataclasses.make_dataclass('C', [('a', int)])", ask: "dataclasses.make_dataclass"},
		{code: "import dataclasses\n@dataclasses.dataclass\nclass C:\n    a: int = 0\nprint(C())"},
		{code: "class C:\n    def f(self):\n        global __o\n        import os as __o\nC().f()\n_C__o.system('touch pwned')", ask: "a name python may bind as another"},
		{code: "import sys, time\np = sys.path\np.insert(0, '/tmp/evil')\ntime.strptime('1', '%d')", ask: "passes sys.path around"},
		{code: "import sys\nprint(sys.path, len(sys.path))"},
		{code: "import os\ne = os.environ\ne['PATH'] = '/evil'\nos.system('ls')", cmds: "printenv|sh:ls", ask: "changes the environment"},
		{code: "import functools, logging\nfunctools.partial(logging.basicConfig, filename='/opt/log')()", ask: "uses logging.basicConfig other than by calling it"},
		{code: "import os\ng = os.getenv\nprint(g('GITHUB_TOKEN'))", ask: "uses os.getenv other than by calling it"},
		{code: "import os\ng = os.environ.get\nprint(g('GITHUB_TOKEN'))", ask: "uses os.environ.get other than by calling it"},
		{code: "import pathlib\nPath = lambda s: pathlib.Path('/opt/' + s)\nPath('x').touch()", ask: "calls .touch() on a path known only at run time"},
		{code: "from pathlib import Path\nPath('a').replace(target='.claude/settings.json')", effs: "mv:a>.claude/settings.json"},
		{code: "from pathlib import Path\nPath('a').rename(*t)", ask: "calls .rename() with arguments not known here"},
		{code: "import warnings\nprint(warnings.formatwarning('m', UserWarning, '.env', 1))", ask: "warnings.formatwarning"},
		{code: "import traceback\nprint(traceback.FrameSummary('.env', 1, 'x').line)", ask: "traceback.FrameSummary"},
		{code: "import argparse\nargparse.ArgumentParser(fromfile_prefix_chars='@').parse_args()", ask: "fromfile_prefix_chars"},
		{code: "import argparse\np = argparse.ArgumentParser(description='x')\np.add_argument('x')\nprint(p.parse_args())"},
		{code: "import urllib.request\nurllib.request.urlopen(' <URL:file:///p/.env> ')", cmds: "curl -s file:///p/.env"},
		{code: "import pathlib\nprint('{0.__globals__[os].environ[GITHUB_TOKEN]}'.format(pathlib.Path.cwd))", ask: "formats with a field that reaches attributes"},
		{code: "t = '{0.real}'\nprint(t.format(1))", ask: "formats with a field that reaches"},
		{code: "print(s.format(1))", ask: "formats a string known only at run time"},
		{code: "print('{} {:>{w}} {{x}}'.format(1, 2, w=5), '%s' % 3)"},
		{code: "import logging\nlogging.Formatter('{msg.__class__}', style='{')", ask: "{-style format"},
		{code: "import logging\nlogging.basicConfig(format='%(message)s', level=logging.INFO)"},
		// A third red team: self or an instance that may be another object.
		{code: "import typing\nclass A:\n    def __new__(cls):\n        return typing.get_args(typing.List['x'])[0]\na = A()\na._evaluate({}, {}, frozenset())", ask: "uses ._evaluate"},
		{code: "import typing\nclass A:\n    def m(self):\n        return self._evaluate({}, {}, frozenset())\nA.m(typing.get_args(typing.List['x'])[0])", ask: "uses ._evaluate"},
		{code: "import typing\nclass A: pass\na = A()\ndef f(a):\n    return a._evaluate({}, {}, frozenset())\nf(typing.get_args(typing.List['x'])[0])", ask: "uses ._evaluate"},
		{code: "class A:\n    def __init__(self): self._n = 0\n    def m(self): return self._n\nprint(type(A()).m)", ask: "uses ._n"},
		{code: "class A:\n    def __init__(self): self._n = 1\n    def n(self): return self._n\nprint(A().n())"},
		{code: "t = '{0.m.__globals__}'\nf = str.format\nprint(f(t, 1))", ask: "uses .format other than by calling it"},
		{code: "import functools\nfunctools.partial(str.format, '{0.x}')(1)", ask: "uses .format other than by calling it"},
		{code: "print(list(map(str.format_map, ['{a.x}'], [{}])))", ask: "uses .format_map other than by calling it"},
		// os.path.expandvars reads the variables it replaces.
		{code: "import os\nprint(os.path.expandvars('$GITHUB_TOKEN and ${HOME}/x'))", cmds: "printenv GITHUB_TOKEN|printenv HOME"},
		{code: "from os.path import expandvars\nprint(expandvars(t))", cmds: "printenv"},
		{code: "import os\nf = os.path.expandvars\nprint(f('$X'))", ask: "uses os.path.expandvars other than by calling it"},
		{code: "import os\nprint(os.path.expanduser('~/x'), os.path.join('a', 'b'))"},
		// Zip archives are read; what writes files an archive names, or
		// puts files into one, asks.
		{code: "import zipfile\nwith zipfile.ZipFile('a.zip') as zf: print(zf.namelist(), zf.read('x'))", effs: "r:a.zip"},
		{code: "import zipfile\nzipfile.ZipFile(file='a.zip', mode='r')\nprint(zipfile.is_zipfile('b.zip'))", effs: "r:a.zip|r:b.zip"},
		{code: "import zipfile\nfor p in ps:\n    zipfile.ZipFile(p)", effs: "r:"},
		{code: "import zipfile\nzipfile.ZipFile('a.zip').extractall('out')", effs: "r:a.zip", ask: "calls .extractall(), which writes the files an archive names"},
		{code: "import zipfile\nz = zipfile.ZipFile('a.zip')\nz.extract('x', '/opt')", effs: "r:a.zip", ask: "calls .extract()"},
		{code: "import zipfile\nz = zipfile.ZipFile('a.zip')\ngetattr(z, 'extractall')()", effs: "r:a.zip", ask: "a method that changes files"},
		{code: "import zipfile\nwith zipfile.ZipFile('o.zip', 'w') as z: z.write('.env')", ask: "opens a zip archive for writing"},
		{code: "import zipfile\nzipfile.ZipFile('o.zip', mode='a')", ask: "opens a zip archive for writing"},
		{code: "import zipfile\nzipfile.ZipFile('o.zip', m)", ask: "mode known only at run time"},
		{code: "import zipfile\nZ = zipfile.ZipFile\nZ('o.zip', 'w')", ask: "uses zipfile.ZipFile"},
		{code: "import zipfile\nclass Z(zipfile.ZipFile): pass", ask: "uses zipfile.ZipFile"},
		{code: "import zipfile\nzipfile.main(['-e', 'a.zip', '/opt'])", ask: "uses zipfile.main"},
		{code: "import zipfile\nzipfile.PyZipFile('o.zip', 'w').writepy('pkg')", ask: "uses zipfile.PyZipFile"},
		{code: "import urllib.request as r\nr.urlretrieve('https://example.com/a.tgz', 'a.tgz')", cmds: "curl -s -o a.tgz https://example.com/a.tgz"},
		{code: "from urllib.request import urlretrieve\nurlretrieve('https://e.com/x', filename='/opt/x', data=b'k')", cmds: "curl -s -o /opt/x --data-binary @- https://e.com/x"},
		{code: "from urllib.request import urlretrieve\nurlretrieve('https://e.com/x', name)", ask: "saves a URL's content at a path known only at run time"},
		{code: "from urllib.request import urlretrieve\nurlretrieve('https://e.com/x')", ask: "in a temporary file it names"},
		{code: "from urllib.request import urlretrieve\nurlretrieve(u, 'x')", ask: "opens a URL known only at run time"},
		// A reviewed module's attribute that is another module or
		// another module's function is judged as what it is.
		{code: "from concurrent.futures import thread\nthread.os.system('touch pwned')", ask: "concurrent.futures.thread"},
		{code: "import concurrent.futures as cf\ncf.thread.os.makedirs('/opt/x')", ask: "concurrent.futures.thread"},
		{code: "import enum\nenum.bltns.exec('x')", ask: "enum.bltns"},
		{code: "from json import tool\ntool.sys.modules['os'].system('x')", ask: "json.tool"},
		{code: "import pathlib\npathlib.attrgetter('x')", ask: "pathlib.attrgetter"},
		{code: "import typing\ntyping.stdlib_re.compile('x')", ask: "typing.stdlib_re"},
		{code: "import json\ntry:\n    json.loads('x')\nexcept json.decoder.JSONDecodeError:\n    pass"},
		{code: "from html.parser import HTMLParser\nHTMLParser().feed('<a>')"},
		// Links the code makes are not followed by later effects.
		{code: "from pathlib import Path\nimport os\nPath('l').symlink_to('/opt')\nos.mkdir('l/x')", effs: "w:l/x", ask: "calls .symlink_to()"},
		{code: "from pathlib import Path\nPath('h').hardlink_to('/etc/passwd')", ask: "calls .hardlink_to()"},
		{code: "import shutil\nshutil.copy('/var/run', 'r', follow_symlinks=False)", ask: "follow_symlinks= other than True"},
		{code: "import shutil\nshutil.copy('a', 'b', follow_symlinks=True)", effs: "r:a|w:b|w:b/a"},
		// An import in a class body binds a class attribute.
		{code: "class C:\n    from os import makedirs as m\nC.m('/opt/x')", ask: "imports os in a class body"},
		{code: "class C:\n    import os\nC.os.system('touch pwned')", ask: "imports os in a class body"},
		{code: "class C:\n    def f(self):\n        import json\n        return json.dumps({})\nprint(C().f())"},
		// Threads, signals and waiting run the code's own functions.
		{code: "import threading, queue\nq = queue.Queue()\nt = threading.Thread(target=q.put, args=(1,))\nt.start(); t.join()"},
		{code: "import signal, time\nsignal.signal(signal.SIGALRM, lambda *a: print('x'))\nsignal.alarm(1)\ntime.sleep(2)"},
		{code: "from concurrent.futures import ThreadPoolExecutor\nprint(list(ThreadPoolExecutor(2).map(abs, [-1, 2])))"},
		{code: "import threading, os\nthreading.Thread(target=os.system, args=('touch pwned',)).start()", ask: "uses os.system other than by calling it"},
		{code: "import threading, os\nthreading.Thread(target=os.makedirs, args=('/opt/x',)).start()", ask: "uses os.makedirs"},
		{code: "import threading\nthreading.Timer(0, exec, ['import os']).start()", ask: "exec"},
		{code: "import signal\nsignal.pidfd_send_signal(3, 9)", ask: "signals another process"},
		{code: "from concurrent.futures import ProcessPoolExecutor", ask: "starts interpreter processes"},
		{code: "import shutil\nshutil.copytree('a', 'b')", ask: "uses shutil.copytree"},
		{code: "import os\nos.rename('a', 'b')", ask: "uses os.rename"},
		{code: "import os\nos.symlink('/home/u/.ssh/id_rsa', 'k')", ask: "uses os.symlink"},
		{code: "import os\nos.system('touch pwned')", cmds: "sh:touch pwned"},
		{code: "import subprocess\nsubprocess.run(['git', 'status'], check=True, capture_output=True)", cmds: "git status"},
		{code: "import subprocess\nsubprocess.run('ls | wc -l', shell=True)", cmds: "sh:ls | wc -l"},
		{code: "import subprocess as sp\nsp.check_output(['ls'])", cmds: "ls"},
		{code: "from subprocess import run\nrun(['ls', '-l'])", cmds: "ls -l"},
		{code: "import subprocess\nsubprocess.run(cmd)", ask: "runs a command built at run time (subprocess.run)"},
		{code: "import subprocess\nsubprocess.run(['ls'], cwd='/')", ask: "cwd="},
		{code: "import subprocess\nsubprocess.run(['ls'], shell=flag)", ask: "shell= known only at run time"},
		{code: "import subprocess\nsubprocess.run(*args)", ask: "arguments not known here"},
		{code: "import os\nos.environ['PATH'] = '/x'\nos.system('ls')", cmds: "sh:ls", ask: "changes the environment"},
		// A read of the environment is the printenv that shows the same,
		// for the rules about secret variables to judge.
		{code: "import os\nprint(os.environ.get('HOME'))", cmds: "printenv HOME"},
		{code: "import os\nprint(os.environ['GITHUB_TOKEN'], os.getenv('X'))", cmds: "printenv GITHUB_TOKEN|printenv X"},
		{code: "import os\nprint(os.environ)", cmds: "printenv"},
		{code: "import os\nfor k, v in os.environ.items(): print(k, v)", cmds: "printenv"},
		{code: "import os\nk = 'A'\nprint(os.environ[k])", cmds: "printenv"},
		{code: "import os\nprint(sorted(os.environ.keys()))"},
		// Hiding a call.
		{code: "import os\ngetattr(os, input())('id')", ask: "getattr with a name built at run time"},
		{code: "import os\ngetattr(os, 'sys'+'tem')('id')", ask: "uses os.system other than by calling it"},
		{code: "import os\nn = 'sys'\nn += 'tem'\ngetattr(os, n)('id')", ask: "getattr with a name built at run time"},
		{code: "import os\ngetattr(os, 'system')('id')", ask: "uses os.system other than by calling it"},
		{code: "__import__('os').system('id')", ask: "__import__"},
		{code: "import importlib\nimportlib.import_module('os')", ask: "imports importlib"},
		{code: "exec('import os')", ask: "exec"},
		{code: "eval('1+1')", ask: "eval"},
		{code: "compile('x', 'f', 'exec')", ask: "compile"},
		{code: "globals()['os']", ask: "globals()"},
		{code: "vars()", ask: "vars()"},
		{code: "print(__builtins__)", ask: "__builtins__"},
		{code: "().__class__.__mro__[1].__subclasses__()", ask: "__class__"},
		{code: "(lambda: 0).__globals__", ask: "__globals__"},
		{code: "import os\ns = 'sys' + 'tem'\nos.__dict__[s]('id')", ask: "__dict__"},
		{code: "import os as o\no.system(x)", ask: "runs a shell command built at run time (os.system)"},
		{code: "import os as o\nf = o.system\nf('id')", ask: "uses os.system other than by calling it"},
		{code: "from os import system as s\ns(cmd)", ask: "runs a shell command built at run time"},
		{code: "from os import system as s\ns('touch pwned')", cmds: "sh:touch pwned"},
		{code: "from os import *\nsystem('id')", ask: "imports every name of os"},
		{code: "from math import *\nprint(sqrt(2))"},
		{code: "import os\n@os.system\ndef f(): pass", ask: "uses os.system other than by calling it"},
		{code: "class A(metaclass=M): pass", ask: "metaclass"},
		{code: "breakpoint()", ask: "breakpoint"},
		{code: "import pickle\npickle.loads(b)", ask: "imports pickle"},
		{code: "import marshal", ask: "imports marshal"},
		{code: "import ctypes", ask: "imports ctypes"},
		{code: "import sys\nsys.modules['os'].system('id')", ask: "uses sys.modules"},
		{code: "import sys\nsys.path.insert(0, 'x')", ask: "changes sys.path"},
		{code: "import pathlib\npathlib.os.system('id')", ask: "os.system"},
		{code: "import json\njson.loads = print", ask: "changes json.loads"},
		{code: "import os\nx = os\nx.system('id')", ask: "passes the module os around"},
		{code: "import tempfile", ask: "imports tempfile"},
		{code: "import urllib.request\nurllib.request.urlopen('http://localhost:8000/api')", cmds: "curl -s http://localhost:8000/api"},
		{code: "import urllib.request\nurllib.request.urlopen('http://x/api', data=b'x')", cmds: "curl -s --data-binary @- http://x/api"},
		{code: "import urllib.request\nurllib.request.urlopen(u)", ask: "opens a URL known only at run time"},
		{code: "import logging\nlogging.basicConfig(level=logging.INFO)\nlogging.info('x')"},
		{code: "import logging\nlogging.basicConfig(filename='x.log')", ask: "log file"},
		{code: "x = input()\nprint(x)"},
		{code: "import pathlib\nx = pathlib\nx.os.system('id')", ask: "passes the module pathlib around"},
		{code: "import pathlib\npathlib.posixpath.os.system('id')", ask: "uses os.system other than by calling it"},
		{code: "import pathlib\nm = pathlib.os\nm.system('id')", ask: "passes the module os around"},
		{code: "import operator, pathlib\noperator.attrgetter('os')(pathlib).system('id')", ask: "operator.attrgetter"},
		{code: "import sys\nsys.exc_info()[2].tb_frame.f_globals['x']", ask: "f_globals"},
		// AttributeError.obj is the object the lookup failed on: a whole
		// module after os.path.zz (a red team's).
		{code: "import os\ntry:\n    os.path.zz\nexcept AttributeError as e:\n    e.obj.os.system('x')", ask: ".obj"},
		{code: "import glob\nprint(glob.glob('/root/.ssh/*'))", effs: "r:/root/.ssh/*"},
		{code: "import tokenize\nprint(tokenize.open(p).read())", effs: "r:"},
		{code: "import os\nfor d, _, fs in os.walk('src'): print(fs)", effs: "r:src"},
		{code: "import datetime\nprint(datetime.datetime.now())"},
		{code: "from datetime import datetime\nprint(datetime.now(), isinstance(x, datetime))"},
		{code: "import time, glob, copy\nprint(time.time(), copy.copy([1]))"},
		{code: "p.unlink()", ask: "calls .unlink() on a path known only at run time"},
		{code: "from pathlib import *", ask: "imports every name of pathlib"},
		{code: "from pathlib import Path\nPath.unlink(p)", ask: "calls pathlib.Path.unlink"},
		{code: "from pathlib import Path\nPath.cwd().joinpath('x').write_text('y')", ask: "calls .write_text() on a path known only at run time"},
		{code: "import sys\nprint(sys.argv[1:], sys.version)"},
		{code: "import string\nstring.Formatter().get_field('0.__init__.__globals__', [f], {})", ask: "string.Formatter"},
		{code: "import typing\ndef f(x: \"__import__('os').system('id')\"): pass\ntyping.get_type_hints(f)", ask: "typing.get_type_hints"},
		{code: "from functools import singledispatch", ask: "functools.singledispatch"},
		{code: "from pathlib import Path\ngetattr(Path('x'), 'unlink')()", ask: "a method that changes files"},
		{code: "from pathlib import Path\nprint(list(Path('/root/.ssh').iterdir()))", effs: "r:/root/.ssh"},
		{code: "import platform\nprint(platform.system(), platform.python_version())"},
		{code: "import platform\nprint(platform.platform())", ask: "platform.platform"},
		{code: "help(print)", ask: "pager"},
		// A red team's: subprocess options by position (Popen's
		// executable, close_fds, cwd, env …) change what runs or where.
		{code: "import subprocess\nsubprocess.run(['ls','-c','touch /x'], -1, '/bin/bash')", ask: "passes subprocess options by position"},
		{code: "import subprocess\nsubprocess.run(['bash','-c','true'], -1, None, None, None, None, None, True, False, None, {'BASH_ENV': '/evil.sh'})", ask: "passes subprocess options by position"},
		{code: "import subprocess\nsubprocess.Popen(['./x.sh'], -1, None, None, None, None, None, True, False, '/other/dir')", ask: "passes subprocess options by position"},
		{code: "import subprocess\nsubprocess.check_output(['ls'], 0)", ask: "passes subprocess options by position"},
		{code: "import subprocess\nsubprocess.run(['ls'], **kw)", ask: "arguments not known here"},
		{code: "import subprocess\nsubprocess.getoutput('ls', shell=False)", ask: "with shell=, which the guard does not read"},
		{code: "import subprocess\nsubprocess.getoutput('ls', 'x')", ask: "passes options by position"},
		{code: "import os\nos.popen('ls', 'r', -1).read()", cmds: "sh:ls"},
		{code: "import os\nos.system('ls', *a)", ask: "arguments not known here"},
		{code: "import os\nos.spawnv(os.P_WAIT, '/bin/sh', ['sh', '-c', 'x'])", ask: "uses os.spawnv"},
		{code: "import os\nos.execv('/bin/sh', ['sh'])", ask: "uses os.execv"},
		{code: "import os\nos.posix_spawn('/bin/sh', ['sh'], {})", ask: "uses os.posix_spawn"},
		{code: "import urllib.request\nurllib.request.urlopen('http://x/', None, 5, None)", ask: "passes arguments by position"},
		{code: "import urllib.request\nurllib.request.urlopen('http://x/', None, 5)", cmds: "curl -s http://x/"},
		// A red team's: pathlib's read methods through the class or as
		// values read files the guard does not see.
		{code: "from pathlib import Path\nprint(Path.read_text(Path('/x/.ssh/id_rsa')))", ask: "calls pathlib.Path.read_text on a path the guard does not follow"},
		{code: "import pathlib\nprint(pathlib.Path.read_bytes(p))", ask: "calls pathlib.Path.read_bytes"},
		{code: "from pathlib import Path\nf = Path(p).read_text\nprint(f())", ask: "uses .read_text other than by calling it"},
		{code: "import pathlib\nprint(list(map(pathlib.Path.read_text, ps)))", ask: "uses .read_text other than by calling it"},
		{code: "import pathlib\nr = pathlib.Path.read_bytes", ask: "uses .read_bytes other than by calling it"},
		{code: "from pathlib import Path\nprint(getattr(Path('/x'), 'read_text')())", ask: "a method that reads files"},
		{code: "import tokenize\nf = tokenize.open\nprint(f('/x/.ssh/id_rsa').read())", ask: "uses tokenize.open other than by calling it"},
		{code: "import os\nprint(list(map(os.listdir, ['/root'])))", ask: "uses os.listdir other than by calling it"},
		{code: "from pathlib import Path\nprint(Path('/x/a').read_text())", effs: "r:/x/a"},
		// A red team's: a module's command line reads the files sys.argv
		// names.
		{code: "import base64; base64.main()", ask: "uses base64.main, the module's command line"},
		{code: "import tokenize\ntokenize.main()", ask: "uses tokenize.main"},
		{code: "import ast\nast.main()", ask: "uses ast.main"},
		{code: "from base64 import test\ntest()", ask: "uses base64.test"},
		{code: "import calendar\nf = calendar.main", ask: "uses calendar.main"},
		{code: "import random\nrandom._test()", ask: "random._test"},
		{code: "import shlex\nprint(shlex.shlex().sourcehook('/x/.ssh/id_rsa')[1].read())", ask: "uses .sourcehook"},
		// A red team's: an option judged in a constructor, set afterwards.
		{code: "import argparse\np = argparse.ArgumentParser()\np.fromfile_prefix_chars = '@'\np.parse_args()", ask: "sets .fromfile_prefix_chars on an object"},
		{code: "import argparse\np = argparse.ArgumentParser()\np.fromfile_prefix_chars += '@'", ask: "sets .fromfile_prefix_chars"},
		{code: "import argparse\np = argparse.ArgumentParser()\np.__init__(fromfile_prefix_chars='@')", ask: "passes fromfile_prefix_chars= to a call"},
		// The same option by position (a red team's), through the method,
		// the class or super().
		{code: "import argparse\np = argparse.ArgumentParser()\np.__init__(None, None, None, None, [], argparse.HelpFormatter, '-', '@')\np.parse_args()", ask: "calls __init__ with 8 arguments by position"},
		{code: "import argparse\np = argparse.ArgumentParser()\nargparse.ArgumentParser.__init__(p, None, None, None, None, [], argparse.HelpFormatter, '-', '@')", ask: "calls __init__ with 9 arguments by position"},
		{code: "import argparse\nclass P(argparse.ArgumentParser):\n    def __init__(self):\n        super().__init__(None, None, None, None, [], argparse.HelpFormatter, '-', '@')\nP().parse_args()", ask: "uses argparse.ArgumentParser other than by calling it"},
		{code: "class A:\n    def __init__(self, *a): self.a = a\nclass B(A):\n    def __init__(self):\n        super().__init__(1, 2, 3, 4, 5, 6, 7, 8)\nprint(B().a)", ask: "calls __init__ with 8 arguments by position"},
		{code: "import argparse\np = argparse.ArgumentParser()\na = [None] * 7 + ['@']\np.__init__(*a)", ask: "calls __init__ with arguments"},
		{code: "class A:\n    def __init__(self, x): self.x = x\nclass B(A):\n    def __init__(self):\n        super().__init__(1)\nprint(B().x)"},
		{code: "import shlex\ns = shlex.shlex('source /x/.ssh/id_rsa', posix=True)\ns.source = 'source'\nprint(list(s))", ask: "sets .source on an object"},
		{code: "class A:\n    def __init__(self): self.source = 1\nprint(A().source)"},
	} {
		r := a.Analyse(Source{Interp: "python3", Code: tc.code, Dir: dir})
		if r.Unread != "" {
			t.Errorf("%q: unread: %s", tc.code, r.Unread)
			continue
		}
		asks := strings.Join(r.Asks, "; ")
		if tc.ask == "" && tc.code != "import shutil" && asks != "" || tc.ask != "" && !strings.Contains(asks, tc.ask) {
			t.Errorf("%q: asks %q, want %q", tc.code, asks, tc.ask)
		}
		var cmds, effs []string
		for _, c := range r.Commands {
			if c.Shell != "" {
				cmds = append(cmds, "sh:"+c.Shell)
			} else {
				cmds = append(cmds, strings.Join(c.Argv, " "))
			}
		}
		for _, e := range r.Effects {
			k := "r:"
			if e.Write {
				k = "w:"
			}
			if e.To != "" {
				effs = append(effs, "mv:"+e.Path+">"+e.To) // judged as mv's
				continue
			}
			effs = append(effs, k+e.Path)
		}
		if got := strings.Join(cmds, "|"); got != tc.cmds {
			t.Errorf("%q: commands %q, want %q", tc.code, got, tc.cmds)
		}
		if got := strings.Join(effs, "|"); got != tc.effs {
			t.Errorf("%q: effects %q, want %q", tc.code, got, tc.effs)
		}
	}
}

func TestUnread(t *testing.T) {
	a := realAnalyser(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		src  Source
		want string
	}{
		{Source{Interp: "python3", Code: "def f(:\n", Dir: dir}, "syntax error"},
		{Source{Interp: "python-nonexistent9", Code: "print(1)", Dir: dir}, "not on PATH"},
		{Source{Interp: "python3", Code: "print(1)"}, "working directory is not known"},
		{Source{Interp: "python3", File: filepath.Join(dir, "missing.py"), Dir: dir}, "cannot read"},
	} {
		if r := a.Analyse(tc.src); !strings.Contains(r.Unread, tc.want) {
			t.Errorf("%+v: unread %q, want %q", tc.src, r.Unread, tc.want)
		}
	}
	// An interpreter in the working directory is never run to parse.
	py := filepath.Join(dir, "python3")
	if err := os.WriteFile(py, []byte("#!/bin/sh\ntouch "+filepath.Join(dir, "pwned")+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := a.Analyse(Source{Interp: "./python3", Code: "print(1)", Dir: dir})
	if !strings.Contains(r.Unread, "where the code judged could have put it") {
		t.Errorf("interpreter in the working directory: unread %q", r.Unread)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("the interpreter in the working directory was run")
	}
}

func TestProjectModules(t *testing.T) {
	a := realAnalyser(t)
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("helper.py", "import json\ndef load(p):\n    return json.load(open(p))\n")
	write("pkg/__init__.py", "from . import inner\n")
	write("pkg/inner.py", "import shutil\nshutil.rmtree('x')\n")
	write("pkg/__main__.py", "print('main')\n")
	write("shadow/json.py", "import os\nos.system('touch pwned')\n")
	write("nsdir/data.txt", "not a package")
	write("withos.py", "import os\nimport pkg.inner as deep\n")
	write("tool.py", "#!/usr/bin/env python3\nimport helper\nprint(helper.load('a.json'))\n")
	write("pycpkg/json/__init__.pyc", "compiled")
	write("sopkg/json/__init__.cpython-311-x86_64-linux-gnu.so", "compiled")
	write("helper2.py", "def f(): pass\n")
	write("helper2/__init__.pyc", "compiled")
	write("helper3.py", "def f(): pass\n")
	write("helper3.abi3.so", "compiled")
	write("pkg2/__init__.py", "")
	write("pkg2/sub.py", "")
	write("pkg2/sub/__init__.pyd", "compiled")
	write("pkg3/__init__.py", "")
	write("pkg3/__main__.py", "print(1)\n")
	write("pkg3/__main__.cpython-311-x86_64-linux-gnu.so", "compiled")
	write("helper4/__init__.py", "import shutil\nshutil.rmtree('x')\n")
	write("helper4.so", "compiled")
	os.Chmod(filepath.Join(dir, "tool.py"), 0o755)
	for _, tc := range []struct {
		src    Source
		ask    string
		cmds   string
		unread string
	}{
		{src: Source{Code: "import helper\nprint(helper.load('x'))"}},
		{src: Source{File: filepath.Join(dir, "tool.py")}},
		{src: Source{Code: "import pkg"}, ask: "uses shutil.rmtree"},
		// A project file shadows the standard library: its content is judged.
		{src: Source{Code: "import json", Dir: filepath.Join(dir, "shadow")}, cmds: "sh:touch pwned"},
		{src: Source{Module: "pkg"}, ask: "uses shutil.rmtree"},
		// A module a project module imported is judged as that module.
		{src: Source{Code: "import withos\nwithos.os.system('id')"}, ask: "uses os.system other than by calling it"},
		{src: Source{Code: "from withos import os\nos.system('touch pwned')"}, ask: "uses shutil.rmtree", cmds: "sh:touch pwned"},
		{src: Source{Code: "import withos\nx = withos\n"}, ask: "passes a project module around"},
		// A directory without __init__.py: an installed package would win.
		{src: Source{Code: "import nsdir"}, ask: "without __init__.py"},
		// A red team's: a package whose __init__ is compiled (any suffix
		// python imports) shadows the standard library, and wins over a
		// module file of the same name in the same directory.
		{src: Source{Code: "import json", Dir: filepath.Join(dir, "pycpkg")}, ask: "in the place of the standard library's json"},
		{src: Source{Code: "import json", Dir: filepath.Join(dir, "pycpkg")}, ask: "imports json, which is compiled code in the project"},
		{src: Source{Code: "import json", Dir: filepath.Join(dir, "sopkg")}, ask: "imports json, which is compiled code in the project"},
		{src: Source{Code: "import helper2\nhelper2.f()"}, ask: "imports helper2, which is compiled code in the project"},
		{src: Source{Code: "import helper3\nhelper3.f()"}, ask: "imports helper3, which is compiled code in the project"},
		{src: Source{Code: "from pkg2 import sub"}, ask: "imports pkg2.sub, which is compiled code in the project"},
		{src: Source{Module: "pkg3"}, unread: "compiled code"},
		// json/__init__.py is the package, beside json.so too.
		{src: Source{Code: "import helper4"}, ask: "uses shutil.rmtree"},
	} {
		tc.src.Interp = "python3"
		if tc.src.Dir == "" {
			tc.src.Dir = dir
		}
		r := a.Analyse(tc.src)
		if tc.unread != "" || r.Unread != "" {
			if tc.unread == "" || !strings.Contains(r.Unread, tc.unread) {
				t.Errorf("%+v: unread %q, want %q", tc.src, r.Unread, tc.unread)
			}
			continue
		}
		asks := strings.Join(r.Asks, "; ")
		if tc.ask == "" && asks != "" || tc.ask != "" && !strings.Contains(asks, tc.ask) {
			t.Errorf("%+v: asks %q, want %q", tc.src, asks, tc.ask)
		}
		var cmds []string
		for _, c := range r.Commands {
			cmds = append(cmds, "sh:"+c.Shell)
		}
		if got := strings.Join(cmds, "|"); got != tc.cmds {
			t.Errorf("%+v: commands %q, want %q", tc.src, got, tc.cmds)
		}
	}
	if r := a.Analyse(Source{Interp: "python3", Module: "pytest", Dir: dir}); !r.NotLocal {
		t.Errorf("-m pytest: want not local, got %+v", r)
	}
	if interp, ok := a.Shebang(filepath.Join(dir, "tool.py")); !ok || interp != "python3" {
		t.Errorf("shebang: %q %v", interp, ok)
	}
}

// Facts kept on disk are used by a later analyser, for the same
// interpreter and text only; the judgement is made again from them.
func TestDiskCache(t *testing.T) {
	a := realAnalyser(t)
	cache := t.TempDir()
	dir := t.TempDir()
	a.CacheDir = cache
	src := Source{Interp: "python3", Code: "print(1)", Dir: dir}
	if r := a.Analyse(src); r.Unread != "" || len(r.Asks) > 0 {
		t.Fatalf("first: %+v", r)
	}
	ents, _ := os.ReadDir(cache)
	if len(ents) != 1 {
		t.Fatalf("cache has %d entries, want 1", len(ents))
	}
	// Plant other facts under the key: a new analyser must use them.
	planted := `{"ok": true, "imports": [{"module": "shutil", "name": "rmtree", "as": null, "line": 1, "level": 0}], "refs": [], "calls": [], "attrs": [], "defs": [], "stores": [], "stdlib": ["shutil"]}`
	if err := os.WriteFile(filepath.Join(cache, ents[0].Name()), []byte(planted), 0o600); err != nil {
		t.Fatal(err)
	}
	b := realAnalyser(t)
	b.CacheDir = cache
	if r := b.Analyse(src); !strings.Contains(strings.Join(r.Asks, ";"), "shutil.rmtree") {
		t.Errorf("the cached facts were not used: %+v", r)
	}
	// Another text is another key.
	if r := b.Analyse(Source{Interp: "python3", Code: "print(2)", Dir: dir}); len(r.Asks) > 0 || r.Unread != "" {
		t.Errorf("another text: %+v", r)
	}
}

// -c code is text to python, code on standard input bytes: a coding line
// is honoured only for the latter, and the analysis reads each the same
// way (in UTF-7, "+ACM-" is "#": the rest of the line is a comment).
func TestCodingLine(t *testing.T) {
	a := realAnalyser(t)
	code := "# coding: utf-7\nACM = 0; x = 5 +ACM-1; import os; os.system('touch pwned')\n"
	r := a.Analyse(Source{Interp: "python3", Code: code, Inline: true, Dir: t.TempDir()})
	if len(r.Commands) != 1 || r.Commands[0].Shell != "touch pwned" {
		t.Errorf("-c code: %+v, want the command python runs", r)
	}
	// Python refuses UTF-7 on its input; the guard reads only plain
	// encodings there.
	r = a.Analyse(Source{Interp: "python3", Code: code, Dir: t.TempDir()})
	if !strings.Contains(r.Unread, "encoding utf-7") {
		t.Errorf("code on stdin: %+v, want it unread", r)
	}
	r = a.Analyse(Source{Interp: "python3", Code: "# -*- coding: latin-1 -*-\nprint('\xe9')\n", Dir: t.TempDir()})
	if r.Unread != "" || len(r.Asks) != 0 {
		t.Errorf("latin-1 on stdin: %+v", r)
	}
}
