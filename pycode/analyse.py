# The analysis program: run as `python -I -S -c <this>` with the code to
# read on stdin. It only parses (ast.parse never runs the code) and prints
# one JSON object of facts; pycode (Go) decides what they mean.
import ast, json, sys

if sys.argv[1:2] in (["cache0"], ["cache1"], ["cache2"]):
    # Whether python would run a module's compiled cache instead of its
    # source, and what the cache holds: stdin is the source's time and
    # size and the source's length (8 bytes each, little-endian), the
    # source, then the cache. The loader runs a cache whose magic number
    # is this interpreter's and whose header matches the source (time and
    # size; a hash-based one is taken as matching, since
    # --check-hash-based-pycs never runs it unchecked).
    import importlib.util, marshal
    d = sys.stdin.buffer.read()
    mtime, size, n = (int.from_bytes(d[i:i + 8], "little") for i in (0, 8, 16))
    src, pyc = d[24:24 + n], d[24 + n:]
    verdict = "unused"
    if len(pyc) >= 16 and pyc[:4] == importlib.util.MAGIC_NUMBER:
        flags = int.from_bytes(pyc[4:8], "little")
        stamp = (mtime & 0xFFFFFFFF).to_bytes(4, "little") + (size & 0xFFFFFFFF).to_bytes(4, "little")
        if not flags & ~3 and (flags & 1 or pyc[8:16] == stamp):
            try:
                code = compile(src, "<cache>", "exec", dont_inherit=True, optimize=int(sys.argv[1][5:]))
                verdict = "same" if marshal.loads(pyc[16:]) == code else "differs"
            except Exception:
                verdict = "differs"
    sys.stdout.write(json.dumps({"ok": True, "cache": verdict, "version": list(sys.version_info[:2])}))
    raise SystemExit

LIMIT = 20000

def lit(n):
    if isinstance(n, ast.Name):
        return {"dyn": True, "name": n.id}
    if argv_index(n) is not None:
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

def argv_index(n):
    if (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Attribute) and n.value.attr == "argv"
            and isinstance(n.value.value, ast.Name) and n.value.value.id == "sys"
            and isinstance(n.slice, ast.Constant) and type(n.slice.value) is int and n.slice.value >= 0):
        return n.slice.value
    return None

# Values of names. A name's value is known only when every binding of it
# anywhere in the text (all scopes taken as one, which can only add
# values) gives a value known here: a literal, another such name, an
# f-string or + of them, a function parameter whose every call passes
# one. Any other binding (a loop, with, import, augmented assignment,
# del, a lambda's parameter, a function passed around or decorated, a
# method) makes it unknown, and so do exec, eval, globals and the like
# (pycode asks about those anyway). pycode takes these values only for
# the code it was given, and only when no other module imports it: a
# module's names and functions can be set and called from elsewhere.
MAX_ALTS = 16
DYNAMIC = {"exec", "eval", "compile", "globals", "locals", "vars", "setattr", "delattr", "__import__",
           "__builtins__", "__dict__"}

class Names:
    def __init__(self, tree):
        self.parent = {}
        for n in ast.walk(tree):
            for c in ast.iter_child_nodes(n):
                self.parent[c] = n
        self.exprs = {}    # name -> value expressions bound to it
        self.unknown = set()
        self.params = {}   # name -> [(def, arg)]
        self.defs = {}     # name -> [def]
        self.classes = {}  # name -> [class]
        self.kinds = {}    # name -> number of bindings
        self.calls = {}    # name -> [Call]
        self.passed = set()  # names used other than as a call's function
        self.other = set()   # names bound by something other than an import
        self.off = False
        self.stack = set()
        self.memo = {}
        for n in ast.walk(tree):
            self.bind(n)
        for n in ast.walk(tree):
            if isinstance(n, ast.Name) and mangled(n.id) and self.in_class(n):
                # Inside a class, __x is _C__x: the names as written are
                # not the names bound.
                self.off = True
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and mangled(n.name) and self.in_class(n):
                self.off = True
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                if n.id in DYNAMIC:
                    self.off = True
                p = self.parent.get(n)
                if isinstance(p, ast.Call) and p.func is n:
                    self.calls.setdefault(n.id, []).append(p)
                else:
                    self.passed.add(n.id)
            elif isinstance(n, ast.Attribute) and n.attr in DYNAMIC:
                self.off = True
            elif isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names):
                self.off = True

    def in_class(self, n):
        p = self.parent.get(n)
        while p is not None:
            if isinstance(p, ast.ClassDef):
                return True
            p = self.parent.get(p)
        return False

    def scope_of(self, n):
        # The nearest enclosing function, lambda or class of a node.
        p = self.parent.get(n)
        while p is not None and not isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            p = self.parent.get(p)
        return p

    def bound_other_than_import(self, name):
        return name in self.other or name in self.exprs or name in self.params

    def count(self, name):
        self.kinds[name] = self.kinds.get(name, 0) + 1

    def bind(self, n):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            self.count(n.id)
            p = self.parent.get(n)
            if isinstance(p, ast.Assign) and any(t is n for t in p.targets):
                self.exprs.setdefault(n.id, []).append(p.value)
            elif isinstance(p, ast.AnnAssign) and p.target is n and p.value is not None:
                self.exprs.setdefault(n.id, []).append(p.value)
            elif isinstance(p, ast.NamedExpr) and p.target is n:
                self.exprs.setdefault(n.id, []).append(p.value)
            else:
                self.unknown.add(n.id)
            self.other.add(n.id)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                name = a.asname or a.name.split(".")[0]
                self.count(name)
                self.unknown.add(name)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.count(n.name)
            self.unknown.add(n.name)
            self.other.add(n.name)
            self.defs.setdefault(n.name, []).append(n)
        elif isinstance(n, ast.ClassDef):
            self.count(n.name)
            self.unknown.add(n.name)
            self.other.add(n.name)
            self.classes.setdefault(n.name, []).append(n)
        elif isinstance(n, ast.arg):
            args = self.parent.get(n)
            d = self.parent.get(args)
            if (isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and args is d.args
                    and n is not args.vararg and n is not args.kwarg):
                self.params.setdefault(n.arg, []).append((d, n))
            else:
                self.unknown.add(n.arg)
            self.other.add(n.arg)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            self.unknown.add(n.name)
            self.other.add(n.name)
        elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
            self.unknown.add(n.name)
            self.other.add(n.name)
        elif isinstance(n, ast.MatchMapping) and n.rest:
            self.unknown.add(n.rest)
            self.other.add(n.rest)
        elif type(n).__name__ in ("TypeVar", "ParamSpec", "TypeVarTuple"):
            self.unknown.add(n.name)
            self.other.add(n.name)

    def name(self, name):
        # The values of a name, or None when one is not known here.
        if self.off or name in self.unknown or name in self.stack or name.startswith("__"):
            # __doc__, __name__ and the like are bound without a
            # statement (a docstring sets __doc__).
            return None
        if name in self.memo:
            return self.memo[name]
        self.stack.add(name)
        try:
            out = []
            for e in self.exprs.get(name, []):
                vs = self.value(e)
                if vs is None:
                    return None
                out += vs
            for d, a in self.params.get(name, []):
                vs = self.param(d, a)
                if vs is None:
                    return None
                out += vs
            if not out:
                return None  # never bound here: a builtin, or not known
            out = dedupe(out)
            if len(out) > MAX_ALTS:
                return None
            self.memo[name] = out
            return out
        finally:
            self.stack.discard(name)

    def param(self, d, a):
        # Every value a parameter gets: the function must be called only
        # by its name, directly, where the arguments are seen.
        if (self.kinds.get(d.name) != 1 or d.decorator_list or d.name in self.passed
                or isinstance(self.scope_of(d), ast.ClassDef)):
            return None  # a method is called through its object, not by its name
        args = d.args
        pos = list(args.posonlyargs) + list(args.args)
        out = []
        for c in self.calls.get(d.name, []):
            if any(isinstance(x, ast.Starred) for x in c.args) or any(k.arg is None for k in c.keywords):
                return None
            given = None
            if a in pos:
                i = pos.index(a)
                if i < len(c.args):
                    given = c.args[i]
                else:
                    for k in c.keywords:
                        if k.arg == a.arg:
                            if a in args.posonlyargs:
                                return None
                            given = k.value
                    if given is None:
                        j = i - (len(pos) - len(args.defaults))
                        if j < 0:
                            continue  # a TypeError: the call does not run
                        given = args.defaults[j]
            else:
                for k in c.keywords:
                    if k.arg == a.arg:
                        given = k.value
                if given is None:
                    given = args.kw_defaults[args.kwonlyargs.index(a)]
                    if given is None:
                        continue  # a TypeError
            vs = self.value(given)
            if vs is None:
                return None
            out += vs
        return out

    def value(self, e):
        # The values of an expression: lit dicts, or None.
        if isinstance(e, ast.Constant):
            if isinstance(e.value, (str, int, float, bool)) or e.value is None:
                return [{"v": e.value}]
            return None
        if isinstance(e, ast.Name):
            return self.name(e.id)
        if argv_index(e) is not None:
            return [{"dyn": True, "argv": e.slice.value}]
        if isinstance(e, ast.JoinedStr):
            outs = [""]
            for part in e.values:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    texts = [part.value]
                elif isinstance(part, ast.FormattedValue):
                    texts = self.formatted(part)
                    if texts is None:
                        return None
                else:
                    return None
                outs = [o + t for o in outs for t in texts]
                if len(outs) > MAX_ALTS:
                    return None
            return [{"v": o} for o in outs]
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
            l, r = self.value(e.left), self.value(e.right)
            if l is None or r is None:
                return None
            outs = []
            for x in l:
                for y in r:
                    if not isinstance(x.get("v"), str) or not isinstance(y.get("v"), str) or x.get("dyn") or y.get("dyn"):
                        return None
                    outs.append({"v": x["v"] + y["v"]})
            return outs if len(outs) <= MAX_ALTS else None
        return None

    def formatted(self, part):
        vs = self.value(part.value)
        if vs is None:
            return None
        spec = ""
        if part.format_spec is not None:
            if not all(isinstance(x, ast.Constant) and isinstance(x.value, str) for x in part.format_spec.values):
                return None
            spec = "".join(x.value for x in part.format_spec.values)
        out = []
        for v in vs:
            if v.get("dyn"):
                return None
            x = v["v"]
            try:
                x = {-1: lambda y: y, 115: str, 114: repr, 97: ascii}[part.conversion](x)
                out.append(format(x, spec))  # values are str, int, float, bool, None: no code of the text runs
            except Exception:
                return None
        return out

def mangled(name):
    return name.startswith("__") and not name.endswith("__")

def dedupe(vs):
    seen, out = set(), []
    for v in vs:
        k = json.dumps(v, sort_keys=True)
        if k not in seen:
            seen.add(k)
            out.append(v)
    return out

def alts(n):
    # The values an argument may have: more than one when a name's
    # bindings give several.
    if names is not None and not isinstance(n, ast.Constant):
        vs = names.value(n)
        if vs is not None:
            out = []
            for v in vs:
                v = dict(v, res=True)
                if isinstance(n, ast.Name):
                    v["name"] = n.id
                out.append(v)
            return out
    return [lit(n)]

def argv_stable(tree):
    # Whether sys.argv[N] is the command's Nth word: nothing changes or
    # passes around the list, or names it in a string (getattr, exec).
    ok = set()
    for n in ast.walk(tree):
        if argv_index(n) is not None and isinstance(n.ctx, ast.Load):
            ok.add(n.value)
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len" and len(n.args) == 1
              and not n.keywords and isinstance(n.args[0], ast.Attribute) and n.args[0].attr == "argv"):
            ok.add(n.args[0])
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and n.attr == "argv" and n not in ok:
            return False
        if isinstance(n, ast.ImportFrom) and any(a.name in ("argv", "*") for a in n.names):
            return False
        if isinstance(n, ast.Constant) and isinstance(n.value, (str, bytes)) and ("argv" in n.value if isinstance(n.value, str) else b"argv" in n.value):
            return False
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == "len":
            return False
        if isinstance(n, ast.Name) and n.id == "len" and not isinstance(n.ctx, ast.Load):
            return False
        if isinstance(n, ast.arg) and n.arg == "len":
            return False
        if isinstance(n, ast.alias) and (n.asname or n.name) == "len":
            return False
    return True

names = None

def chain(n):
    parts = []
    while isinstance(n, ast.Attribute):
        parts.append(n.attr)
        n = n.value
    if isinstance(n, ast.Name):
        parts.append(n.id)
        return parts[::-1], None
    return parts[::-1], n

out = {"imports": [], "refs": [], "calls": [], "attrs": [], "defs": [], "stores": [], "subs": [], "formats": []}
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

def callinfos(c):
    # One fact for each combination of the values its arguments may have.
    ch, base = chain(c.func)
    args = [a for a in c.args if not isinstance(a, ast.Starred)]
    kws = [k for k in c.keywords if k.arg is not None]
    combos = [([], {})]
    for a in args:
        combos = [(xs + [v], kw) for xs, kw in combos for v in alts(a)]
        if len(combos) > MAX_ALTS:
            break
    if len(combos) <= MAX_ALTS:
        for k in kws:
            combos = [(xs, dict(kw, **{k.arg: v})) for xs, kw in combos for v in alts(k.value)]
            if len(combos) > MAX_ALTS:
                break
    if len(combos) > MAX_ALTS or any(len(xs) != len(args) or len(kw) != len(kws) for xs, kw in combos):
        combos = [([lit(a) for a in args], {k.arg: lit(k.value) for k in kws})]
    recvs = [None]
    if isinstance(base, ast.Call):
        recvs = callinfos(base)
    out = []
    for xs, kw in combos:
        for r in recvs:
            d = {"chain": ch, "line": c.lineno, "args": xs, "kw": kw,
                 "star": any(isinstance(a, ast.Starred) for a in c.args) or any(k.arg is None for k in c.keywords)}
            if base is not None:
                d["on"] = type(base).__name__
                if r is not None:
                    d["recv"] = r
            out.append(d)
    return out[:MAX_ALTS * MAX_ALTS]

def chain_root(n):
    while isinstance(n, ast.Attribute):
        n = n.value
    return n

def own_instance(n):
    # Whether the name n (a Name node) is, wherever it is read, an
    # instance the code makes of a class of its own: every binding of it
    # is A() of such a class, and n reads that binding (no function,
    # lambda or comprehension around n binds the name again).
    name = n.id
    if names is None or name in names.unknown:
        return False
    exprs = names.exprs.get(name)
    if not exprs or names.kinds.get(name, 0) != len(exprs):
        return False
    p = names.parent.get(n)
    while p is not None:
        if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            for m in ast.walk(p):
                if isinstance(m, ast.arg) and m.arg == name:
                    return False
                if isinstance(m, ast.Name) and m.id == name and not isinstance(m.ctx, ast.Load):
                    return False
        p = names.parent.get(p)
    return all(isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and own_class(e.func.id, 0) for e in exprs)

def own_class(name, depth):
    # A class of the code that takes nothing from elsewhere: bound once,
    # no decorators or keywords (metaclass), bases only such classes, and
    # nothing that makes A() or its attributes other than an A's own.
    defs = names.classes.get(name, [])
    if depth > 5 or len(defs) != 1 or names.kinds.get(name, 0) != 1 or defs[0].keywords or defs[0].decorator_list:
        return False
    for b in defs[0].body:
        if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) and b.name in ("__new__", "__getattr__", "__getattribute__", "__class_getitem__", "__init_subclass__"):
            return False
        if isinstance(b, ast.Assign) and any(isinstance(t, ast.Name) and t.id.startswith("__") for t in b.targets):
            return False
    return all(isinstance(b, ast.Name) and own_class(b.id, depth + 1) for b in defs[0].bases)

def self_trusted(tree):
    # Whether a method's first parameter is always an instance of its
    # class: no class of the code is used other than by calling it or as a
    # base (A.m(x), m = A.m, getattr(A, "m") call a method with any self),
    # each is bound once, and type(x) (which gives the class) is not used.
    classes = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    for c in classes:
        if names.kinds.get(c, 0) != 1:
            return False
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and n.id in classes and isinstance(n.ctx, ast.Load):
            p = names.parent.get(n)
            if isinstance(p, ast.Call) and p.func is n:
                continue
            if isinstance(p, ast.ClassDef) and n in p.bases:
                continue
            return False
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "type" and len(n.args) == 1:
            return False
    return True

SELF_TRUSTED = False

class V(ast.NodeVisitor):
    # scopes: "class" while in a class body (not in a function of it),
    # where an import binds a class attribute (C.os), not a name.
    scopes = []
    # selfs: for each function scope, the name of its object when it is
    # a method of a class the code defines (None otherwise).
    selfs = []
    def visit_Import(self, n):
        cls = bool(self.scopes) and self.scopes[-1] == "class"
        for a in n.names:
            add("imports", {"module": a.name, "as": a.asname, "line": n.lineno, "level": 0, "cls": cls})
    def visit_ImportFrom(self, n):
        cls = bool(self.scopes) and self.scopes[-1] == "class"
        for a in n.names:
            add("imports", {"module": n.module or "", "name": a.name, "as": a.asname, "line": n.lineno, "level": n.level, "cls": cls})
    def visit_Call(self, n):
        n.func._callee = True
        for d in callinfos(n):
            add("calls", d)
        f = n.func
        if isinstance(f, ast.Name) and f.id == "type" and len(n.args) + len(n.keywords) >= 3:
            # type(name, bases, ns) makes a class whose attributes are
            # ns's keys: each is used as an attribute of it is (a red
            # team's {'__annotations__': …} became dataclass code), and
            # one not written as a literal key could be any of them.
            ns = n.args[2] if len(n.args) >= 3 else None
            if isinstance(ns, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in ns.keys):
                for k in ns.keys:
                    add("attrs", {"name": k.value, "line": n.lineno, "called": False, "own": False})
            else:
                add("attrs", {"name": "__dict__", "line": n.lineno, "called": False, "own": False})
        if isinstance(f, ast.Attribute) and f.attr in ("format", "format_map"):
            # str.format reaches attributes and items of its arguments
            # through its fields ({0.__globals__[os]}): the text of the
            # string formatted, where it is known (null: not known).
            r = f.value
            if isinstance(r, ast.Constant):
                strs = [r.value] if isinstance(r.value, str) else []
            else:
                strs = []
                for v in alts(r):
                    if v.get("dyn") or not isinstance(v.get("v"), str):
                        strs = None
                        break
                    strs.append(v["v"])
            add("formats", {"line": n.lineno, "strs": strs})
        for a in n.args:
            if isinstance(a, ast.Name) or isinstance(a, ast.Attribute):
                a._argof = f.id if isinstance(f, ast.Name) else ""
        self.generic_visit(n)
    def visit_Attribute(self, n):
        # attrs: every attribute name used, and whether it is the one a
        # call calls (only a chain's last one can be); defs of kind attr:
        # those stored into (self._x = …), which the code then defines.
        called = getattr(n, "_callee", False)
        # own: the attribute is of the method's own object (self._x, in
        # a method of a class the code defines, where self is not bound
        # again), not of an object from elsewhere.
        selfname = self.selfs[-1] if self.selfs else None
        ch, base = chain(n)
        if base is None and len(ch) > 1 and isinstance(chain_root(n), ast.Name) and own_instance(chain_root(n)):
            selfname = ch[0]
        if isinstance(n.ctx, ast.Store):
            # Stored into (p.fromfile_prefix_chars = '@' sets what a
            # constructor's keyword would): own when it is the code's
            # own object's (self.x = …).
            add("defs", {"kind": "attr", "name": n.attr, "line": n.lineno,
                         "own": base is None and len(ch) == 2 and selfname is not None and ch[0] == selfname})
        if base is None:
            add("refs", {"chain": ch, "line": n.lineno, "ctx": type(n.ctx).__name__, "called": called,
                         "argof": getattr(n, "_argof", None)})
            for i, a in enumerate(ch[1:]):
                add("attrs", {"name": a, "line": n.lineno, "called": called and i == len(ch) - 2,
                              "own": i == 0 and selfname is not None and ch[0] == selfname})
            return  # the chain's parts are reported with it
        add("attrs", {"name": n.attr, "line": n.lineno, "called": called, "own": False})
        self.generic_visit(n)
    def visit_FunctionDef(self, n):
        add("defs", {"kind": "function", "name": n.name, "line": n.lineno})
        selfname = None
        params = n.args.posonlyargs + n.args.args
        undecorated = all(isinstance(d, ast.Name) and d.id == "classmethod" for d in n.decorator_list)
        if self.scopes and self.scopes[-1] == "class" and params and undecorated and SELF_TRUSTED:
            selfname = params[0].arg
            for m in ast.walk(n):
                if isinstance(m, ast.Name) and m.id == selfname and not isinstance(m.ctx, ast.Load):
                    selfname = None  # bound again: any object
                    break
                if isinstance(m, (ast.Global, ast.Nonlocal)) and selfname in m.names:
                    selfname = None
                    break
        self.scopes.append("function")
        self.selfs.append(selfname)
        self.generic_visit(n)
        self.selfs.pop()
        self.scopes.pop()
    visit_AsyncFunctionDef = visit_FunctionDef
    def visit_Name(self, n):
        add("refs", {"chain": [n.id], "line": n.lineno, "ctx": type(n.ctx).__name__, "called": getattr(n, "_callee", False),
                     "argof": getattr(n, "_argof", None)})
    def visit_Subscript(self, n):
        if isinstance(n.ctx, (ast.Store, ast.Del)):
            ch, base = chain(n.value)
            if base is None:
                add("stores", {"chain": ch, "line": n.lineno})
                # The attributes stored through are used all the same
                # (C.__annotations__[k] = int makes a dataclass field).
                for a in ch[1:]:
                    add("attrs", {"name": a, "line": n.lineno, "called": False, "own": False})
                self.visit(n.slice)
                return  # what is stored into is no read of it
        elif isinstance(n.value, (ast.Name, ast.Attribute)):
            n.value._argof = "[]"  # read by an item (os.environ[k])
        if isinstance(n.ctx, (ast.Store, ast.Del)):
            pass
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
        self.scopes.append("class")
        self.generic_visit(n)
        self.scopes.pop()
    def visit_Lambda(self, n):
        self.scopes.append("function")
        self.selfs.append(None)
        self.generic_visit(n)
        self.selfs.pop()
        self.scopes.pop()
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
    names = Names(tree)
    # sys.argv is the command's list only while sys is the module (bound
    # by imports alone) and len is the builtin (bound nowhere).
    out["argv_stable"] = (argv_stable(tree) and not names.bound_other_than_import("sys")
                          and "len" not in names.unknown and not names.bound_other_than_import("len"))
    SELF_TRUSTED = self_trusted(tree)
    V().visit(tree)
    # Names bound other than by an import (Path = lambda …): what they
    # hold is not the module attribute of that name.
    out["rebound"] = sorted(names.other)
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
