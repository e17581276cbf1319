"""JAX607: a jitted function called in a loop with a static argument or a shape that changes on
every iteration."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.values import instance_classes

from ..support.blocks import counter_step, literal_step, own_nodes, stores_name
from ..support.classes import identity_hashed
from ..support.explain import snippet
from ..support.jitted import JitCall, filter_jitted_callee, jitted_callee
from .loops import range_trips, static_int

SMALL = 10
LOOP_STATEMENTS = (
    ast.For,
    ast.AsyncFor,
    ast.While,
)  # a literal range this short compiles a handful of times, on purpose
SHAPE_FUNCTIONS = frozenset(
    f"jax.numpy.{name}" for name in ["zeros", "ones", "empty", "full", "arange", "eye", "identity"]
)


class RecompilingCallInLoop(Rule):
    """## What it does
    Finds a call of a jitted function inside a `for i in range(...)` loop (outside traced code)
    that gives it a different signature on every iteration: the loop index (or `i + 1`, `2 * i`)
    as a static argument, or an array whose shape follows the index (`x[:i]`, `x[i:]`,
    `jnp.zeros(i)`). Loops over a static `range` shorter than 10, and over `range(len(...))` (one
    iteration per element of a container, such as layers), are not reported.

    ## Why is this bad?
    A jitted function is compiled once per distinct signature: per value of each static argument
    and per shape and dtype of each array argument. A signature that changes every iteration makes
    JAX trace and compile the function again every time (a recompilation storm), which usually
    costs far more than the computation. Pass the index as an ordinary traced argument, and keep
    shapes fixed (pad to the largest size and mask, or bucket the sizes).

    ## Example
    ```python
    from functools import partial

    import jax
    import jax.numpy as jnp

    @partial(jax.jit, static_argnames=("step",))
    def schedule(x, step):
        return x * 0.99**step

    def run(x, num_steps):
        for step in range(num_steps):
            x = schedule(x, step)
        return x
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def schedule(x, step):
        return x * 0.99**step

    def run(x, num_steps):
        for step in range(num_steps):
            x = schedule(x, step)
        return x
    ```

    ## Fix safety
    No automatic fix: making an argument traced can break code that uses it as a Python value.

    ## References
    - [JAX: just-in-time compilation, caching](https://docs.jax.dev/en/latest/jit-compilation.html#caching)
    - [jax.jit: static_argnums](https://docs.jax.dev/en/latest/_autosummary/jax.jit.html)
    """

    code = "JAX607"
    name = "recompiling-call-in-loop"
    message = "A jitted function is called with a signature that changes on every loop iteration"
    outcome = "JAX traces and compiles the function again on every iteration"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if ctx.traced or not ctx.loops:
            return
        counted = next(((c, i) for c in reversed(ctx.loops) if (i := _loop_index(ctx, c)) is not None), None)
        callee = jitted_callee(ctx, node) or filter_jitted_callee(ctx, node)
        if callee is None:
            return
        self.check_fresh_objects(node, callee, ctx)
        self.check_graph_attributes(node, callee, ctx)
        if counted is None:
            self.check_stepped(node, callee, ctx)
            return
        loop, index = counted
        self.check_stepped(node, callee, ctx, index)
        line = loop.lineno  # pyright: ignore[reportAttributeAccessIssue]
        static = {id(argument) for _, argument in callee.static_arguments(node, ctx.value)}
        for argument in [*node.args, *(k.value for k in node.keywords)]:
            if id(argument) in static and _follows(argument, index):
                parameter = callee.parameter(node, argument)
                ctx.report(
                    argument,
                    f"static argument `{parameter}` of jitted `{callee.info.name}` gets `{snippet(ctx, argument)}`, "
                    f"a new value on every iteration of the loop at line {line}: JAX traces and "
                    f"compiles `{callee.info.name}` again each time; "
                    + (
                        f"a string cannot be traced: use `{parameter}` outside the jitted function"
                        if isinstance(argument, ast.JoinedStr)
                        else _traced_instead(callee, parameter)
                    ),
                )
            elif id(argument) not in static and _shape_follows(ctx, argument, index):
                ctx.report(
                    argument,
                    f"`{snippet(ctx, argument)}` has a different shape on every iteration of the loop at "
                    f"line {line}: JAX traces and compiles jitted `{callee.info.name}` again for "
                    f"each shape; keep the shape fixed (pad and mask, or bucket the sizes)",
                )

    def check_fresh_objects(self, node: ast.Call, callee: JitCall, ctx: Context) -> None:
        """A static argument built on the spot, in a loop, from a class whose objects hash by
        identity (``cfg=Cfg(scale=2.0)``, ``Cfg`` a ``@dataclass(eq=False)``): every iteration
        passes a new static value, so JAX compiles the function again each time."""
        # (however short the loop: the objects are alike, so the compilations are never meant)
        loop = next((c for c in reversed(ctx.loops) if isinstance(c, LOOP_STATEMENTS)), None)
        if loop is None:
            return
        line = getattr(loop, "lineno", 0)
        for parameter, argument in callee.static_arguments(node, ctx.value):
            made = _made_fresh(ctx, _bound_in(ctx, argument, loop))
            if made is not None:
                ctx.report(
                    argument,
                    f"static argument `{parameter}` of jitted `{callee.info.name}` gets {made} on every "
                    f"iteration of the loop at line {line}, which equals no earlier one: each is a new "
                    f"static value, so JAX compiles `{callee.info.name}` again each time; make it once, "
                    f"before the loop",
                )
                continue
            cls = ctx.model.class_named(argument.func, ctx.scope) if isinstance(argument, ast.Call) else None
            if cls is None or not identity_hashed(ctx, cls):
                continue
            ctx.report(
                argument,
                f"static argument `{parameter}` of jitted `{callee.info.name}` gets a new `{cls.name}` "
                f"on every iteration of the loop at line {line}, and `{cls.name}` "
                f"objects hash by identity: each is a new static value, so JAX compiles "
                f"`{callee.info.name}` again each time; make the object once, before the loop (or give "
                f"`{cls.name}` value equality: a frozen dataclass)",
            )

    def check_graph_attributes(self, node: ast.Call, callee: JitCall, ctx: Context) -> None:
        """An ``nnx.Module`` given to an ``nnx.jit`` function in a loop that sets a plain Python
        attribute of it to a new value on every iteration (``model.step = i``): ``nnx.jit``
        holds such attributes static, part of the module's graph (measured with flax 0.12.8:
        four iterations, four compilations; none where the attribute is an ``nnx.Variable``)."""
        loop = next((c for c in reversed(ctx.loops) if isinstance(c, LOOP_STATEMENTS)), None)
        if loop is None or _short(ctx, loop) or not _nnx_jitted(ctx, callee):
            return
        index = _loop_index(ctx, loop)
        for argument in node.args:
            cls = _nnx_module_class(ctx, argument)
            if cls is None or callee.parameter(node, argument) in callee.static:
                continue
            for store in own_nodes(loop.body):
                attr = _stored_attribute(store, argument.id, index)  # pyright: ignore[reportAttributeAccessIssue]
                if attr is None or not _plain_attribute(ctx, cls, attr):
                    continue
                ctx.report(
                    store,
                    f"`{argument.id}.{attr}` is a plain Python attribute of nnx module `{cls.name}`, which "  # pyright: ignore[reportAttributeAccessIssue]
                    f"`nnx.jit` holds static (part of the module's graph): setting it to a new value on "
                    f"every iteration of the loop at line {getattr(loop, 'lineno', 0)} makes JAX trace and "
                    f"compile `{callee.info.name}` again each time; hold it in an `nnx.Variable` "
                    f"(`self.{attr} = nnx.Variable(0)`, then `{argument.id}.{attr}.value = ...`)",  # pyright: ignore[reportAttributeAccessIssue]
                )

    def check_stepped(self, node: ast.Call, callee: JitCall, ctx: Context, index: str | None = None) -> None:
        """A static argument that the loop steps by a constant on every iteration (``lr = lr *
        0.9``, ``temperature -= 0.01``): a new value, so a new compilation, each time. (The
        loop's own counter, ``index``, is reported as such.)"""
        for parameter, argument in callee.static_arguments(node, ctx.value):
            if not isinstance(argument, ast.Name) or argument.id == index:
                continue
            loop = next((c for c in reversed(ctx.loops) if _steps(ctx, c, argument.id)), None)
            if loop is None:
                continue
            ctx.report(
                argument,
                f"static argument `{parameter}` of jitted `{callee.info.name}` gets `{argument.id}`, "
                f"which the loop at line {getattr(loop, 'lineno', 0)} changes by a constant step on every "
                f"iteration: JAX traces and compiles `{callee.info.name}` again each time; "
                f"{_traced_instead(callee, parameter)}",
            )


def _nnx_jitted(ctx: Context, callee: JitCall) -> bool:
    """Whether ``callee`` is compiled by flax's ``nnx.jit`` (a decorator or a call)."""
    site = callee.site.func if isinstance(callee.site, ast.Call) else callee.site
    return ctx.model.qualname(site, callee.info.scope.parent or ctx.scope) == "flax.nnx.jit"


def _nnx_module_class(ctx: Context, argument: ast.expr) -> ast.ClassDef | None:
    """The class of this module, a direct subclass of ``nnx.Module``, that the name
    ``argument`` holds an object of; None for anything else."""
    if not isinstance(argument, ast.Name):
        return None
    classes = instance_classes(ctx.value(argument))
    if len(classes) != 1 or ctx.model.nnx_variables(classes[0]) is None:
        return None
    return classes[0]


def _stored_attribute(node: ast.AST, name: str, index: str | None) -> str | None:
    """The attribute of ``name`` that ``node`` sets to a new value each time it runs: to the loop
    counter ``index`` or a number that follows it (``model.step = i``), or by a constant step
    (``model.step += 1``)."""
    if isinstance(node, ast.AugAssign):
        target, changes = node.target, isinstance(node.value, ast.Constant) and node.value.value != 0
    elif isinstance(node, ast.Assign) and len(node.targets) == 1:
        target, changes = node.targets[0], index is not None and _follows(node.value, index)
    else:
        return None
    if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
        return None
    return target.attr if target.value.id == name and changes else None


def _plain_attribute(ctx: Context, cls: ast.ClassDef, attr: str) -> bool:
    """Whether the class stores nothing but Python constants in ``attr`` (or nothing at all):
    a plain attribute, not an ``nnx.Variable``, a layer or an array."""
    stores = ctx.model.self_stores(cls).get(attr, [])
    return all(
        isinstance(store.value, ast.Constant) and type(store.value.value) in (int, float, str, bool)
        for store in stores
    )


def _traced_instead(callee: JitCall, parameter: str | None) -> str:
    """The advice to make ``parameter`` traced: an ordinary argument of ``jax.jit``; a JAX array
    for ``eqx.filter_jit``, which holds every other argument static."""
    branch = _branch_advice(callee.info.node, parameter)
    if callee.filtered:
        return (
            f"`eqx.filter_jit` holds every argument that is not an array static: pass `{parameter}` as "
            f"a JAX array (`jnp.asarray(...)`){branch}"
        )
    return f"make `{parameter}` an ordinary (traced) argument{branch}"


def _bound_in(ctx: Context, argument: ast.expr, loop: ast.AST) -> ast.expr:
    """What a name passed as ``argument`` is bound to, where its one binding is in ``loop``
    (``act = functools.partial(...)`` then ``step(w, x, act)``); else ``argument``."""
    if not isinstance(argument, ast.Name):
        return argument
    value = ctx.scope.written_value(argument)
    return value if value is not None and encloses(loop, value) else argument


def _made_fresh(ctx: Context, argument: ast.expr) -> str | None:
    """What ``argument`` makes anew on each evaluation that equals no other (measured with JAX
    0.10.2, optax 0.2.8: functions compare by identity, and so do ``functools.partial`` objects
    and optax's transformations, tuples of fresh closures), described; None otherwise."""
    if isinstance(argument, ast.Lambda):
        return "a new `lambda`"
    if not isinstance(argument, ast.Call):
        return None
    qualname = ctx.qualname(argument.func) or ""
    if qualname == "functools.partial":
        return "a new `functools.partial` object"
    if qualname.startswith("optax."):
        return f"a new `{snippet(ctx, argument.func)}(...)` (a tuple of fresh closures)"
    return None


def _steps(ctx: Context, loop: ast.AST, name: str) -> bool:
    """Whether every iteration of ``loop`` (not a short literal ``range``) changes ``name`` once,
    by a statement of its own body: ``name = name * k`` or ``name op= k`` with a literal ``k``
    that changes it (``+``/``-`` of a non-zero, ``*``/``/`` by neither 0 nor 1)."""
    if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) or _short(ctx, loop):
        return False
    stores = [n for n in own_nodes(loop.body) if stores_name(n, name)]
    steps = [s for s in loop.body if _constant_step(s, name)]
    return len(stores) == 1 and len(steps) == 1


def _short(ctx: Context, loop: ast.For | ast.AsyncFor | ast.While) -> bool:
    """A ``for`` over a literal ``range`` shorter than ``SMALL``, or ``while i < k`` with a
    literal ``k`` that small: a handful of compilations, on purpose."""
    if isinstance(loop, ast.For):
        trips = range_trips(ctx, loop)
        return trips is not None and trips < SMALL
    if not isinstance(loop, ast.While):
        return False
    test = loop.test
    if isinstance(test, ast.Compare) and len(test.comparators) == 1:
        bound = static_int(ctx, test.comparators[0])
        return bound is not None and bound < SMALL
    return False


def _constant_step(statement: ast.stmt, name: str) -> bool:
    """``name op= k`` that changes ``name``: ``+``/``-`` of a non-zero, ``*``/``/`` by neither
    0 nor 1."""
    step = literal_step(statement, name)
    if step is None:
        return False
    op, amount = step
    if isinstance(op, (ast.Add, ast.Sub)):
        return amount != 0
    return isinstance(op, (ast.Mult, ast.Div)) and amount not in (0, 1)


def _loop_index(ctx: Context, loop: ast.AST) -> str | None:
    """The counter of a loop that counts many times: ``i`` of ``for i in range(...)`` with a
    bound that is not a short literal, or of ``while i < n: ...; i += 1``."""
    if isinstance(loop, ast.While):
        return _while_counter(ctx, loop)
    if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)):
        return None
    call = loop.iter
    if not (isinstance(call, ast.Call) and ctx.qualname(call.func) == "builtins.range" and call.args):
        return None
    bounds = call.args
    if any(isinstance(b, ast.Call) and ctx.qualname(b.func) == "builtins.len" for b in bounds):
        return None  # one iteration per element of a container (layers, say): often few, on purpose
    trips = range_trips(ctx, loop)
    return loop.target.id if trips is None or trips >= SMALL else None


def _while_counter(ctx: Context, loop: ast.While) -> str | None:
    """``i`` of ``while i < n:`` whose body steps ``i`` up once by a constant, ``n`` not small."""
    test = loop.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)):
        return None
    if not isinstance(test.ops[0], (ast.Lt, ast.LtE)):
        return None
    name = test.left.id
    steps = [k for k in (counter_step(statement, name) for statement in loop.body) if k is not None]
    stores = [n for n in own_nodes(loop.body) if stores_name(n, name)]
    if len(steps) != 1 or len(stores) != 1 or steps[0] <= 0:
        return None
    bound = static_int(ctx, test.comparators[0])
    return name if bound is None or bound >= SMALL else None


def _follows(node: ast.expr, index: str) -> bool:
    """``i``, or ``i`` shifted or scaled by a literal (``i + 1``, ``2 * i``, ``0.1 / (1 + i)``), or
    formatted into a string (``f"step_{i}"``): a new value each time."""
    if isinstance(node, ast.Name):
        return node.id == index
    if isinstance(node, ast.JoinedStr):  # `f"eval/step_{i}"`: a new string each time
        return any(isinstance(v, ast.FormattedValue) and _follows(v.value, index) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
        sides = (node.left, node.right)
        return any(_follows(s, index) for s in sides) and any(
            isinstance(s, ast.Constant) and type(s.value) in (int, float) and s.value != 0 for s in sides
        )
    return False


def _shape_follows(ctx: Context, node: ast.expr, index: str) -> bool:
    """``x[:i]``, ``x[i:]`` (one bound follows the index, so the length does), ``jnp.zeros(i)``."""
    if isinstance(node, ast.Subscript):
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        for part in parts:
            if isinstance(part, ast.Slice) and part.step is None:
                moving = [b is not None and _follows(b, index) for b in (part.lower, part.upper)]
                fixed = [b is None or isinstance(b, ast.Constant) for b in (part.lower, part.upper)]
                if (moving[0] and fixed[1]) or (moving[1] and fixed[0]):
                    return True
        return False
    if isinstance(node, ast.Call) and ctx.qualname(node.func) in SHAPE_FUNCTIONS and node.args:
        shape = node.args[0]
        dims = shape.elts if isinstance(shape, ast.Tuple) else [shape]
        return any(_follows(d, index) for d in dims)
    return False


def _branch_advice(function: ast.AST, parameter: str | None) -> str:
    """What else must change when ``parameter`` becomes traced: a Python ``if`` that compares it
    (`0.1 if epoch < 5 else 0.01` would raise on a tracer). Nothing is said where it also sizes
    or bounds something (a traced bound raises either way), decides a loop, or is only tested
    against ``None``."""
    if parameter is None:
        return ""
    branch = None
    for node in ast.walk(function):
        if isinstance(node, ast.While) and _mentions(node.test, parameter):
            return ""
        if isinstance(node, ast.Subscript) and _mentions(node.slice, parameter):
            return ""
        if isinstance(node, (ast.If, ast.IfExp)) and branch is None and _compares(node.test, parameter):
            branch = node
    if branch is None:
        return ""
    return (
        f", and branch on it with `jnp.where` or `jax.lax.cond` instead of Python `if` (line {branch.lineno})"
    )


def _mentions(expr: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(expr))


def _compares(test: ast.expr, name: str) -> bool:
    """``test`` compares ``name`` by value (not ``name is None``)."""
    return any(
        isinstance(n, ast.Compare)
        and _mentions(n, name)
        and not all(isinstance(op, (ast.Is, ast.IsNot)) for op in n.ops)
        for n in ast.walk(test)
    ) or (isinstance(test, ast.Name) and test.id == name)
