# The analysis program: run as `python -I -S -c <this>` with the code to
# read on stdin. It only parses (ast.parse never runs the code) and prints
# one JSON object of facts; pycode (Go) decides what they mean.
import ast, json, sys

LIMIT = 20000

def lit(n):
    if isinstance(n, ast.Name):
        return {"dyn": True, "name": n.id}
    if (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Attribute) and n.value.attr == "argv"
            and isinstance(n.value.value, ast.Name) and n.value.value.id == "sys"
            and isinstance(n.slice, ast.Constant) and type(n.slice.value) is int and n.slice.value >= 0):
        # sys.argv[N]: the command's argument, when pycode knows them and
        # sys is the module.
        return {"dyn": True, "argv": n.slice.value}
    try:
        v = ast.literal_eval(n)
    except Exception:
        return {"dyn": True}
    if isinstance(v, (str, int, float, bool)) or v is None:
        return {"v": v}
    if isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
        return {"v": list(v)}
    if isinstance(v, bytes):
        return {"v": v.decode("latin-1"), "bytes": True}
    return {"dyn": True, "const": True}

def chain(n):
    parts = []
    while isinstance(n, ast.Attribute):
        parts.append(n.attr)
        n = n.value
    if isinstance(n, ast.Name):
        parts.append(n.id)
        return parts[::-1], None
    return parts[::-1], n

out = {"imports": [], "refs": [], "calls": [], "attrs": [], "defs": [], "stores": [], "subs": []}
seen = set()

def add(kind, d):
    # The same fact on another line says nothing new: the first is kept.
    k = json.dumps([kind, {x: y for x, y in d.items() if x != "line"}], sort_keys=True, default=str)
    if k in seen:
        return
    seen.add(k)
    if len(out[kind]) < LIMIT:
        out[kind].append(d)
    else:
        out["truncated"] = True

def callinfo(c):
    ch, base = chain(c.func)
    d = {"chain": ch, "line": c.lineno,
         "args": [lit(a) for a in c.args if not isinstance(a, ast.Starred)],
         "kw": {k.arg: lit(k.value) for k in c.keywords if k.arg is not None},
         "star": any(isinstance(a, ast.Starred) for a in c.args) or any(k.arg is None for k in c.keywords)}
    if base is not None:
        d["on"] = type(base).__name__
        if isinstance(base, ast.Call):
            d["recv"] = callinfo(base)
    return d

class V(ast.NodeVisitor):
    def visit_Import(self, n):
        for a in n.names:
            add("imports", {"module": a.name, "as": a.asname, "line": n.lineno, "level": 0})
    def visit_ImportFrom(self, n):
        for a in n.names:
            add("imports", {"module": n.module or "", "name": a.name, "as": a.asname, "line": n.lineno, "level": n.level})
    def visit_Call(self, n):
        n.func._callee = True
        add("calls", callinfo(n))
        self.generic_visit(n)
    def visit_Attribute(self, n):
        ch, base = chain(n)
        if base is None:
            add("refs", {"chain": ch, "line": n.lineno, "ctx": type(n.ctx).__name__, "called": getattr(n, "_callee", False)})
            for a in ch[1:]:
                add("attrs", {"name": a, "line": n.lineno})
            return  # the chain's parts are reported with it
        add("attrs", {"name": n.attr, "line": n.lineno})
        self.generic_visit(n)
    def visit_Name(self, n):
        add("refs", {"chain": [n.id], "line": n.lineno, "ctx": type(n.ctx).__name__, "called": getattr(n, "_callee", False)})
    def visit_Subscript(self, n):
        if isinstance(n.ctx, (ast.Store, ast.Del)):
            ch, base = chain(n.value)
            if base is None:
                add("stores", {"chain": ch, "line": n.lineno})
                self.visit(n.slice)
                return  # what is stored into is no read of it
        elif isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str):
            # x[KEY] of a dotted name (os.environ["HOME"]): which key.
            ch, base = chain(n.value)
            if base is None:
                add("subs", {"chain": ch, "key": n.slice.value, "line": n.lineno})
                return  # the chain is this fact, not a bare reference
        self.generic_visit(n)
    def visit_ClassDef(self, n):
        add("defs", {"kind": "class", "name": n.name, "line": n.lineno,
                     "keywords": [k.arg or "**" for k in n.keywords]})
        self.generic_visit(n)
    def visit_Global(self, n):
        add("defs", {"kind": "global", "names": n.names, "line": n.lineno})
    def visit_MatchClass(self, n):
        self.generic_visit(n)

try:
    src = sys.stdin.buffer.read()
    if sys.argv[1:] == ["str"]:
        # -c code is a str to python: a coding line means nothing there.
        src = src.decode("utf-8", "surrogateescape")
    else:
        # Bytes are decoded by their coding line, which python's own file
        # reader handles apart from ast.parse: only plain ones are read.
        import io, tokenize
        enc = tokenize.detect_encoding(io.BytesIO(src).readline)[0]
        if enc not in ("utf-8", "utf-8-sig", "iso-8859-1", "ascii"):
            raise SyntaxError("the code declares the encoding %s, which the guard does not read" % enc)
    tree = ast.parse(src, filename="<code>")
    V().visit(tree)
    out["ok"] = True
except SyntaxError as e:
    out = {"ok": False, "error": "a syntax error at line %s: %s" % (e.lineno, e.msg)}
except (RecursionError, MemoryError, ValueError) as e:
    out = {"ok": False, "error": "python could not read it: %s" % type(e).__name__}
out["version"] = list(sys.version_info[:2])
out["stdlib"] = sorted(getattr(sys, "stdlib_module_names", ()))

def startup():
    # What python imports at start-up, before the code, by name from
    # sys.path (so from PYTHONPATH first): the customize modules, and the
    # modules the site directories' .pth files import. None: a .pth line
    # not read here.
    names = {"sitecustomize", "usercustomize"}
    try:
        import os, site
        dirs = list(site.getsitepackages()) + [site.getusersitepackages()]
    except Exception:
        return None
    for d in dirs:
        try:
            entries = sorted(os.listdir(d))
        except OSError:
            continue
        for e in entries:
            if not e.endswith(".pth"):
                continue
            try:
                with open(os.path.join(d, e), encoding="utf-8", errors="replace") as f:
                    lines = f.read(1 << 20).splitlines()
            except OSError:
                continue
            for line in lines:
                if line.startswith(("import ", "import\t")) and not imports(line, names, 0):
                    return None
    return sorted(names)

def imports(code, names, depth):
    # The modules code imports by name: import statements, and exec,
    # __import__ and importlib.import_module of literal text. False: an
    # import by a name not known here.
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            names.update(a.name.split(".")[0] for a in n.names)
        elif isinstance(n, ast.ImportFrom):
            if n.level or not n.module:
                return False
            names.add(n.module.split(".")[0])
        elif isinstance(n, ast.Call):
            f = n.func
            fn = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if fn in ("exec", "eval", "compile", "__import__", "import_module"):
                if not n.args or not isinstance(n.args[0], ast.Constant) or not isinstance(n.args[0].value, str):
                    return False
                if fn in ("__import__", "import_module"):
                    names.add(n.args[0].value.split(".")[0])
                elif depth > 3 or not imports(n.args[0].value, names, depth + 1):
                    return False
    return True

out["startup"] = startup()
sys.stdout.write(json.dumps(out))
