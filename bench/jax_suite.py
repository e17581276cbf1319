"""Recall of jaxlint on the tracer-error expectations of JAX's own test suite.

Question answered: of the tests in JAX's test suite that *expect* a tracer error, how many does
jaxlint flag statically? And, as a rough false-alarm indicator, how many findings does it make on
test methods that expect no error at all?

Usage::

    python bench/jax_suite.py [REPO] [--list] [--list-fa] [--show NAME] [--fa-sample N|all]
                              [--helpers all|none] [--seed S] [--keep DIR] [--json FILE]

REPO is a clone of https://github.com/jax-ml/jax (a bare git directory is fine: files are read
with ``git show REV:path``, nothing is checked out); default ``/work/.mirror/jax-ml+jax/repo``,
revision ``--rev`` (default HEAD). Standard library only; jaxlint runs as a subprocess (one
process, ``--no-cache --isolated --no-respect-gitignore``, JSON output); JAX is never imported.

What is read
    Every ``tests/**/*_test.py`` except ``tests/pallas/`` and ``tests/mosaic/`` (Pallas/Mosaic
    kernel tests: kernels are traced by ``pallas_call`` under rules of their own and the files
    are accelerator-only). Files that do not parse are skipped and counted.

What counts as a tracer-error expectation
    * ``with self.assertRaises(E, ...)`` / ``assertRaisesRegex`` / ``assertRaisesRegexp`` /
      ``assertRaisesWithLiteralMatch`` / ``pytest.raises(E, match=...)`` blocks; the block is
      the ``with`` statement's lines;
    * the call form ``self.assertRaises(E, fn, *args)`` / ``assertRaisesRegex(E, msg, fn, ...)``;
      the block is the call's lines;
    * ``try: ... except E:`` inside a test method, for an explicit tracer error type only; the
      block is the ``try`` body.
    E is a tracer error (ConcretizationTypeError, TracerBoolConversionError,
    TracerIntegerConversionError, TracerArrayConversionError, NonConcreteBooleanIndexError,
    UnexpectedTracerError, however spelt: ``core.X``, ``jax.errors.X``, bare ``X``; a tuple
    containing one), or any other exception (TypeError, ValueError, Exception, ...) whose message
    regex is one of JAX's tracer-error messages (see ``MESSAGES``). A message given as a variable
    is resolved through simple string assignments in the method or at module level, ``re.compile``,
    ``re.escape``, ``+``, f-strings and a local ``msg = lambda name: f"..."``. Messages about
    leaked traces (``jax.checking_leaks``: "Leaked trace ...") are counted under
    ``LeakedTrace``.

The module built for each test method
    The test file's module-level imports (also those inside a top-level ``try``/``if``), then,
    with ``--helpers all`` (default), its module-level function definitions and assignments (not
    its classes, not top-level expression statements such as ``config.parse_flags_with_absl()``),
    in file order, then the whole enclosing method of the TestCase class, without its decorators
    (``parameterized``/``sample_product`` parameters are dropped), dedented to module level and
    keeping its ``self`` parameter. Other methods of the class (``self.helper(...)``) are not
    included. ``--helpers none`` keeps only the imports. A method with several expectations gives
    one module; the line offset of the method is kept, so findings map back to the test file.

When an expectation counts as found (codes JAX1xx-JAX6xx only)
    * in block: a finding whose line range overlaps the block;
    * in block+callees: ... or overlaps a function/lambda defined in the method that the block
      references by name (transitively: ``f = lambda x: ...``, ``def f(...)``, ``g = jax.jit(f)``;
      a lambda written inside the block is part of the block) -- the headline number;
    * in method: a finding anywhere in the test method.

False-alarm indicator
    Test methods (``test*``) containing no ``assertRaises*``/``pytest.raises`` and no ``try``
    at all, so nothing in them is meant to fail: a random sample of ``--fa-sample`` of them
    (default 400; ``all`` for every one) is built the same way and checked in the same jaxlint
    run. Any JAX1xx-JAX6xx finding there is a candidate false alarm (a purity finding such as a
    trace-time ``print`` can still be deliberate in a test).
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REPO = "/work/.mirror/jax-ml+jax/repo"
SKIP_DIRS = ("tests/pallas/", "tests/mosaic/")
CODE_RE = re.compile(r"^JAX[1-6]\d\d$")

TRACER_ERRORS = {
    "ConcretizationTypeError",
    "TracerBoolConversionError",
    "TracerIntegerConversionError",
    "TracerArrayConversionError",
    "NonConcreteBooleanIndexError",
    "UnexpectedTracerError",
}
# The tracer error a message regex stands for, tried in order on the regex's source text.
MESSAGES = [
    ("TracerIntegerConversionError", r"__index__|cannot be interpreted as an integer"),
    ("TracerBoolConversionError", r"Attempted boolean conversion"),
    ("TracerArrayConversionError", r"numpy\.ndarray conversion|__array__\\?\(\\?\) method"),
    ("NonConcreteBooleanIndexError", r"boolean indices must be concrete"),
    # jax.checking_leaks()/check_tracer_leaks(): "Leaked trace ...", "... is referred to by".
    ("LeakedTrace", r"Leaked|is referred to by"),
    # core._invalid_shape_error: a TypeError for a traced *or* a non-integer shape.
    ("InvalidShapeError", r"Shapes must be 1D sequences of concrete values"),
    (
        "ConcretizationTypeError",
        r"Abstract tracer value|concrete value|method was called on "
        r"traced array|Tracer with object id",
    ),
    ("UnexpectedTracerError", r"unexpected tracer|escaped tracer"),
    ("ImmutableArray", r"arrays are immutable|does not support item assignment"),
]
# The rule families whose finding predicts each error (the "match" column).
MATCHING = {
    "UnexpectedTracerError": ("JAX1",),
    "LeakedTrace": ("JAX1",),
    "ImmutableArray": ("JAX2",),
}
MATCHING_DEFAULT = ("JAX4", "JAX5", "JAX602")  # concretization and conversion errors


def matches(expected: str, code: str) -> bool:
    return code.startswith(MATCHING.get(expected, MATCHING_DEFAULT))


ASSERT_RAISES = {"assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "assertRaisesWithLiteralMatch"}
# Positional arguments taken by the assertion before the callable (call form).
ASSERT_NARGS = {
    "assertRaises": 1,
    "assertRaisesRegex": 2,
    "assertRaisesRegexp": 2,
    "assertRaisesWithLiteralMatch": 2,
}


@dataclass
class Method:
    file: str
    cls: str
    name: str
    node: ast.AST
    lines: list[str]  # the test file's lines
    key: str = ""
    module: str = ""  # file name of the generated module
    offset: int = 0  # generated row = original row + offset
    text: str = ""

    @property
    def span(self) -> tuple[int, int]:
        return self.node.lineno, self.node.end_lineno


@dataclass
class Expectation:
    method: Method
    form: str  # with | call | try
    start: int
    end: int
    expected: str  # canonical tracer error
    spelling: str  # the exception as written (+ message)
    first_line: str
    callee_spans: list[tuple[int, int]] = field(default_factory=list)
    found_block: bool = False
    found_callees: bool = False
    found_method: bool = False
    found_match: bool = False  # block+callees, with a code of the family predicting the error
    codes: set[str] = field(default_factory=set)


# --------------------------------------------------------------------------- reading


def git_files(repo: str, rev: str) -> list[str]:
    out = subprocess.run(
        ["git", "-C", repo, "ls-tree", "-r", "--name-only", rev, "tests/"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return sorted(p for p in out.splitlines() if p.endswith("_test.py"))


def git_read_all(repo: str, rev: str, paths: list[str]) -> dict[str, str]:
    """All files in one ``git cat-file --batch`` process."""
    proc = subprocess.run(
        ["git", "-C", repo, "cat-file", "--batch"],
        input="".join(f"{rev}:{p}\n" for p in paths).encode(),
        check=True,
        capture_output=True,
    )
    data, pos, result = proc.stdout, 0, {}
    for p in paths:
        nl = data.index(b"\n", pos)
        header = data[pos:nl].split()
        pos = nl + 1
        if len(header) < 3 or header[1] != b"blob":
            continue
        size = int(header[2])
        result[p] = data[pos : pos + size].decode("utf-8", "replace")
        pos += size + 1
    return result


# --------------------------------------------------------------------------- classifying


def exc_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Tuple):
        return [n for e in node.elts for n in exc_names(e)]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.Name):
        return [node.id]
    return []


class StringResolver:
    """Best-effort source text of a message argument (a regex), '' if unknown."""

    def __init__(self, module_consts: dict[str, ast.AST], method: ast.AST):
        self.module_consts = module_consts
        self.local: dict[str, list[tuple[int, ast.AST]]] = collections.defaultdict(list)
        for n in ast.walk(method):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                self.local[n.targets[0].id].append((n.lineno, n.value))

    def __call__(self, node: ast.AST, line: int, depth: int = 0) -> str:
        if depth > 5 or node is None:
            return ""
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else ""
        if isinstance(node, ast.JoinedStr):
            return "".join(
                self(v, line, depth + 1) if isinstance(v, ast.Constant) else ".*" for v in node.values
            )
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
            return self(node.left, line, depth + 1) + self(node.right, line, depth + 1)
        if isinstance(node, ast.Name):
            cands = [v for ln, v in self.local.get(node.id, []) if ln <= line]
            value = cands[-1] if cands else self.module_consts.get(node.id)
            return self(value, line, depth + 1)
        if isinstance(node, ast.Lambda):
            return self(node.body, line, depth + 1)
        if isinstance(node, ast.Call):
            fn = node.func
            if isinstance(fn, ast.Attribute) and fn.attr in ("compile", "escape") and node.args:
                return self(node.args[0], line, depth + 1)
            if isinstance(fn, ast.Attribute) and fn.attr == "format":
                return self(fn.value, line, depth + 1)
            if isinstance(fn, ast.Name):  # msg('stop') with msg a local lambda
                return self(fn, line, depth + 1)
        return ""


def classify(exc: ast.AST, msg: str) -> str | None:
    names = exc_names(exc)
    for n in names:
        if n in TRACER_ERRORS:
            return n
    if not names:
        return None
    for label, pattern in MESSAGES:
        if msg and re.search(pattern, msg, re.IGNORECASE):
            return label
    return None


def raises_call(node: ast.AST) -> tuple[str, ast.Call] | None:
    """('assertRaisesRegex', call) for self.assertRaises*(...) / pytest.raises(...)."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return None
    attr = node.func.attr
    if attr in ASSERT_RAISES:
        return attr, node
    if attr == "raises" and isinstance(node.func.value, ast.Name) and node.func.value.id == "pytest":
        return "pytest.raises", node
    return None


def message_arg(kind: str, call: ast.Call) -> ast.AST | None:
    for kw in call.keywords:
        if kw.arg in ("expected_regex", "expected_regexp", "match", "expected_exception_message"):
            return kw.value
    if kind in ("assertRaisesRegex", "assertRaisesRegexp", "assertRaisesWithLiteralMatch"):
        return call.args[1] if len(call.args) > 1 else None
    return None


def src_line(lines: list[str], row: int) -> str:
    return lines[row - 1].strip() if 0 < row <= len(lines) else ""


# --------------------------------------------------------------------------- methods


def local_defs(method: ast.AST) -> dict[str, list[tuple[tuple[int, int], set[str]]]]:
    """Name -> [(span, names its definition references)] for functions/values bound in the method."""
    defs: dict[str, list] = collections.defaultdict(list)

    def refs(node):
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}

    for n in ast.walk(method):
        if n is method:
            continue
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([d.lineno for d in n.decorator_list] + [n.lineno])
            defs[n.name].append(((first, n.end_lineno), refs(n) - {n.name}))
        elif isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            names = [t.id for tg in targets for t in ast.walk(tg) if isinstance(t, ast.Name)]
            # Only bindings built from a lambda or a call (jax.jit(f), partial(g, ...)).
            if any(isinstance(v, (ast.Lambda, ast.Call)) for v in ast.walk(n.value)):
                for name in names:
                    defs[name].append(((n.lineno, n.end_lineno), refs(n.value)))
    return defs


def callee_spans(block_nodes: list[ast.AST], defs) -> list[tuple[int, int]]:
    todo = {n.id for b in block_nodes for n in ast.walk(b) if isinstance(n, ast.Name)}
    seen, spans = set(), []
    while todo:
        name = todo.pop()
        if name in seen or name == "self":
            continue
        seen.add(name)
        for span, refs in defs.get(name, []):
            spans.append(span)
            todo |= refs - seen
    return sorted(set(spans))


def segment(lines: list[str], node: ast.AST) -> str:
    """Source text of an expression (rows and columns are those of ``ast``; columns are bytes)."""
    rows = [ln.encode() for ln in lines[node.lineno - 1 : node.end_lineno]]
    if not rows:
        return ""
    if len(rows) == 1:
        return rows[0][node.col_offset : node.end_col_offset].decode(errors="replace")
    rows[0], rows[-1] = rows[0][node.col_offset :], rows[-1][: node.end_col_offset]
    return b"\n".join(rows).decode(errors="replace")


def find_expectations(m: Method, module_consts) -> list[Expectation]:
    withs, tries, calls = [], [], []
    for node in ast.walk(m.node):
        if isinstance(node, (ast.With, ast.AsyncWith)):
            withs.append(node)
        elif isinstance(node, ast.Try):
            tries.append(node)
        elif isinstance(node, ast.Call) and raises_call(node):
            calls.append(node)
    if not calls and not any(
        h.type is not None and any(n in TRACER_ERRORS for n in exc_names(h.type))
        for t in tries
        for h in t.handlers
    ):
        return []
    resolve = StringResolver(module_consts, m.node)
    defs = local_defs(m.node)
    out = []
    handled_calls = set()

    def add(form, start, end, exc, msg_node, body_nodes, first_line):
        msg = resolve(msg_node, start) if msg_node is not None else ""
        label = classify(exc, msg)
        if label is None:
            return
        spelling = ast.unparse(exc)
        if msg:
            spelling += f" /{msg[:50]}/"
        out.append(
            Expectation(m, form, start, end, label, spelling, first_line, callee_spans(body_nodes, defs))
        )

    for node in withs:
        for item in node.items:
            rc = raises_call(item.context_expr)
            if rc and rc[1].args:
                kind, call = rc
                handled_calls.add(id(call))
                first = src_line(m.lines, node.body[0].lineno) if node.body else ""
                add(
                    "with",
                    node.lineno,
                    node.end_lineno,
                    call.args[0],
                    message_arg(kind, call),
                    node.body,
                    first,
                )
    for node in tries:
        for h in node.handlers:
            if h.type is not None and any(n in TRACER_ERRORS for n in exc_names(h.type)):
                add(
                    "try",
                    node.body[0].lineno,
                    node.body[-1].end_lineno,
                    h.type,
                    None,
                    node.body,
                    src_line(m.lines, node.body[0].lineno),
                )
                break
    for call in calls:
        if id(call) in handled_calls:
            continue
        kind, _ = raises_call(call)
        nargs = ASSERT_NARGS.get(kind, 1)
        if len(call.args) <= nargs:
            continue  # context-manager form not used in a `with` (e.g. cm = assertRaises(...))
        fn = call.args[nargs]
        seg = segment(m.lines, fn)
        add(
            "call",
            call.lineno,
            call.end_lineno,
            call.args[0],
            message_arg(kind, call),
            call.args[nargs:] + [kw.value for kw in call.keywords],
            seg.splitlines()[0] if seg else "",
        )
    return out


def has_raise_expectation(method: ast.AST) -> bool:
    for n in ast.walk(method):
        if isinstance(n, ast.Try) and n.handlers:
            return True
        if raises_call(n):
            return True
    return False


def header_of(tree: ast.Module, lines: list[str], helpers: bool) -> list[str]:
    out = []

    def seg(n):
        first = min([d.lineno for d in getattr(n, "decorator_list", [])] + [n.lineno])
        return lines[first - 1 : n.end_lineno]

    for n in tree.body:
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            out += seg(n)
        elif isinstance(n, (ast.Try, ast.If)):
            for s in n.body:
                if isinstance(s, (ast.Import, ast.ImportFrom)):
                    out += [ln[s.col_offset :] if ln[: s.col_offset].strip() == "" else ln for ln in seg(s)]
        elif helpers and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign, ast.AnnAssign)):
            out += seg(n)
    return out


def build_module(m: Method, header: list[str]) -> None:
    start, end = m.span
    col = m.node.col_offset
    body = [ln[col:] if ln[:col].strip() == "" else ln for ln in m.lines[start - 1 : end]]
    pre = [*header, "", f"# --- {m.key}  (line {start} of {m.file})"]
    m.offset = len(pre) - start + 1
    m.text = "\n".join(pre + body) + "\n"


def module_consts(tree: ast.Module) -> dict[str, ast.AST]:
    consts = {}
    for n in tree.body:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            consts[n.targets[0].id] = n.value
    return consts


def collect(sources: dict[str, str], helpers: bool):
    """(methods with expectations, expectations, methods without any, parse failures)."""
    exp_methods, exps, clean, failed = [], [], [], []
    for path, text in sources.items():
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            failed.append(path)
            continue
        lines = text.splitlines()
        header = None
        consts = module_consts(tree)
        for cls in tree.body:
            if not isinstance(cls, ast.ClassDef):
                continue
            for fn in cls.body:
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                m = Method(path, cls.name, fn.name, fn, lines, key=f"{path}::{cls.name}::{fn.name}")
                found = find_expectations(m, consts)
                if found:
                    exps += found
                    exp_methods.append(m)
                elif fn.name.startswith("test") and not has_raise_expectation(fn):
                    clean.append(m)
                else:
                    continue
                if header is None:
                    header = header_of(tree, lines, helpers)
                m.header = header  # type: ignore[attr-defined]
    return exp_methods, exps, clean, failed


# --------------------------------------------------------------------------- running


def find_jaxlint(explicit: str | None) -> str:
    if explicit:
        return explicit
    for cand in (Path(sys.executable).parent / "jaxlint", ROOT / ".venv" / "bin" / "jaxlint"):
        if cand.exists():
            return str(cand)
    return shutil.which("jaxlint") or "jaxlint"


def run_jaxlint(jaxlint: str, directory: Path) -> list[dict]:
    cmd = [
        jaxlint,
        "check",
        "--no-cache",
        "--isolated",
        "--no-respect-gitignore",
        "--exit-zero",
        "--output-format",
        "json",
        str(directory),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        sys.exit(f"jaxlint failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    return json.loads(proc.stdout or "[]")


def overlaps(a0, a1, b0, b1) -> bool:
    return a0 <= b1 and b0 <= a1


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:5.1f}%" if b else "   - "


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("repo", nargs="?", default=DEFAULT_REPO, help="a clone of jax-ml/jax")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--list", action="store_true", help="list the missed expectations")
    ap.add_argument("--list-found", action="store_true", help="list the found expectations")
    ap.add_argument(
        "--list-fa", action="store_true", help="list the findings on methods without expectations"
    )
    ap.add_argument(
        "--show",
        metavar="NAME",
        help="print the generated module of a test (substring of file::Class::method)",
    )
    ap.add_argument(
        "--fa-sample", default="400", help="methods without expectations to check (a number, or 'all')"
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--helpers",
        choices=("all", "none"),
        default="all",
        help="include the test file's module-level functions and assignments",
    )
    ap.add_argument("--jaxlint", help="the jaxlint executable")
    ap.add_argument("--keep", metavar="DIR", help="write the generated modules here and keep them")
    ap.add_argument("--json", metavar="FILE", help="write per-expectation results as JSON")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    all_paths = git_files(args.repo, args.rev)
    paths = [p for p in all_paths if not p.startswith(SKIP_DIRS)]
    sources = git_read_all(args.repo, args.rev, paths)
    exp_methods, exps, clean, failed = collect(sources, args.helpers == "all")

    if args.fa_sample == "all":
        sample = clean
    else:
        n = min(int(args.fa_sample), len(clean))
        sample = sorted(random.Random(args.seed).sample(clean, n), key=lambda m: m.key)

    methods = exp_methods + sample
    used = collections.Counter()
    for m in methods:
        stem = re.sub(r"\W", "_", f"{Path(m.file).stem}__{m.cls}__{m.name}")
        used[stem] += 1
        m.module = f"{stem}{'' if used[stem] == 1 else '_' + str(used[stem])}.py"
        build_module(m, m.header)  # type: ignore[attr-defined]

    if args.show:
        hits = [m for m in methods + [c for c in clean if c not in sample] if args.show in m.key]
        if not hits:
            print(f"no test method matches {args.show!r}", file=sys.stderr)
            return 2
        for m in hits[1:]:
            print(f"# (also matches {m.key})", file=sys.stderr)
        m = hits[0]
        if not m.text:
            build_module(m, m.header)  # type: ignore[attr-defined]
        print(m.text, end="")
        for e in exps:
            if e.method is m:
                print(
                    f"# expectation: gen lines {e.start + m.offset}-{e.end + m.offset} "
                    f"({e.expected}: {e.spelling})"
                )
        return 0

    tmp = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="jaxsuite_"))
    tmp.mkdir(parents=True, exist_ok=True)
    try:
        for m in methods:
            (tmp / m.module).write_text(m.text)
        t1 = time.perf_counter()
        findings = run_jaxlint(find_jaxlint(args.jaxlint), tmp)
        t2 = time.perf_counter()
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)

    by_module: dict[str, list[dict]] = collections.defaultdict(list)
    for f in findings:
        by_module[Path(f["filename"]).name].append(f)
    syntax_errors = {name for name, fs in by_module.items() if any(f["code"] == "JAX000" for f in fs)}

    def method_findings(m: Method) -> list[tuple[int, int, dict]]:
        """(original start row, original end row, finding) for JAX1xx-6xx inside the method."""
        out = []
        s, e = m.span
        for f in by_module.get(m.module, []):
            if not CODE_RE.match(f["code"]):
                continue
            r0 = f["location"]["row"] - m.offset
            r1 = f["end_location"]["row"] - m.offset
            if overlaps(r0, r1, s, e):
                out.append((r0, r1, f))
        return out

    for e in exps:
        for r0, r1, f in method_findings(e.method):
            e.found_method = True
            if overlaps(r0, r1, e.start, e.end):
                e.found_block = True
                e.codes.add(f["code"])
            if overlaps(r0, r1, e.start, e.end) or any(overlaps(r0, r1, a, b) for a, b in e.callee_spans):
                e.found_callees = True
                e.codes.add(f["code"])
                e.found_match |= matches(e.expected, f["code"])

    # ---------------------------------------------------------------- report
    n = len(exps)
    nb = sum(e.found_block for e in exps)
    nc = sum(e.found_callees for e in exps)
    nm = sum(e.found_method for e in exps)
    nmatch = sum(e.found_match for e in exps)
    print(f"JAX test suite: {args.repo} @ {args.rev}")
    print(
        f"files: {len(all_paths)} *_test.py, {len(all_paths) - len(paths)} skipped "
        f"({', '.join(SKIP_DIRS)}), {len(failed)} failed to parse"
        + (f" ({', '.join(failed)})" if failed else "")
    )
    print(
        f"modules: {len(exp_methods)} methods with expectations + {len(sample)} of "
        f"{len(clean)} methods without (sample); {len(syntax_errors)} generated modules "
        f"jaxlint could not parse; helpers={args.helpers}"
    )
    print(f"time: read+build {t1 - t0:.1f}s, jaxlint {t2 - t1:.1f}s")
    print()
    print(
        f"tracer-error expectations: {n}  (with {sum(e.form == 'with' for e in exps)}, "
        f"call {sum(e.form == 'call' for e in exps)}, try {sum(e.form == 'try' for e in exps)})"
    )
    print(f"  found in block:          {nb:4d}  recall {pct(nb, n)}")
    print(f"  found in block+callees:  {nc:4d}  recall {pct(nc, n)}   <- headline")
    print(f"  found in method:         {nm:4d}  recall {pct(nm, n)}")
    print(
        f"  block+callees, matching rule family: {nmatch:4d}  recall {pct(nmatch, n)}  "
        f"(JAX1 for tracer leaks, JAX2 for mutation, JAX4/JAX5/JAX602 otherwise)"
    )

    def table(title, keyf):
        groups = collections.defaultdict(list)
        for e in exps:
            groups[keyf(e)].append(e)
        print()
        print(f"{title:<34} {'n':>4} {'block':>6} {'+callee':>8} {'method':>7} {'match':>6}  recall(+callee)")
        for k, es in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            c = sum(x.found_callees for x in es)
            print(
                f"{k:<34} {len(es):4d} {sum(x.found_block for x in es):6d} {c:8d} "
                f"{sum(x.found_method for x in es):7d} {sum(x.found_match for x in es):6d}"
                f"  {pct(c, len(es))}"
            )

    table("expected error", lambda e: e.expected)
    table("test file", lambda e: e.method.file)
    codes = collections.Counter(c for e in exps for c in e.codes)
    if codes:
        print(
            "\ncodes on found expectations (block+callees):",
            ", ".join(f"{c} {k}" for c, k in sorted(codes.items())),
        )

    # false-alarm indicator
    fa = [(m, r0, f) for m in sample for r0, _, f in method_findings(m)]
    fa_methods = {m.key for m, _, _ in fa}
    print(
        f"\nmethods without expectations: {len(sample)} checked, {len(fa_methods)} with a "
        f"JAX1xx-6xx finding, {len(fa)} findings"
        + (
            ": "
            + ", ".join(
                f"{c} {k}" for c, k in sorted(collections.Counter(f["code"] for _, _, f in fa).items())
            )
            if fa
            else ""
        )
    )

    def show(es, what):
        print(f"\n{what}:")
        for e in sorted(es, key=lambda e: (e.method.file, e.start)):
            codes = f"  ({', '.join(sorted(e.codes))})" if e.codes else ""
            print(
                f"  {e.method.file}::{e.method.name}  {e.start}  {e.expected}  "
                f"[{e.form}]  {e.first_line}{codes}"
            )

    if args.list:
        show([e for e in exps if not e.found_callees], "misses (block+callees)")
        show(
            [e for e in exps if e.found_callees and not e.found_match],
            "found only by a rule of another family (coincidental)",
        )
    if args.list_found:
        show([e for e in exps if e.found_callees], "found (block+callees)")
    if args.list_fa:
        print("\nfindings on methods without expectations:")
        for m, r0, f in sorted(fa, key=lambda t: (t[0].key, t[1])):
            print(f"  {m.file}::{m.name}  {r0}  {f['code']}  {src_line(m.lines, r0)}")
            print(f"      {f['message'][:300]}")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                [
                    {
                        "file": e.method.file,
                        "class": e.method.cls,
                        "method": e.method.name,
                        "form": e.form,
                        "start": e.start,
                        "end": e.end,
                        "expected": e.expected,
                        "spelling": e.spelling,
                        "first_line": e.first_line,
                        "found_block": e.found_block,
                        "found_callees": e.found_callees,
                        "found_method": e.found_method,
                        "found_match": e.found_match,
                        "codes": sorted(e.codes),
                    }
                    for e in exps
                ],
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
