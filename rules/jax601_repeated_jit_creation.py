"""JAX601: ``jax.jit`` applied to a fresh function in a loop or on every call."""

from __future__ import annotations

import ast

from jaxlint.astutil import callee_leaf, encloses
from jaxlint.context import Context
from jaxlint.controlflow import own_nodes
from jaxlint.explain import snippet
from jaxlint.rule import Rule
from jaxlint.semantic.scopes import FUNCTION_NODES, MUTATING_METHODS
from jaxlint.semantic.transforms import PARTIAL

JIT_NAMES = frozenset({"jax.jit", "jax.pmap", "flax.nnx.jit"})
JIT_LEAVES = frozenset({"jit", "pmap", "pjit"})
CONTAINERS = frozenset({"builtins.list", "builtins.tuple", "builtins.dict", "builtins.set"})
SWEEPS = frozenset({"itertools.product", "builtins.zip", "builtins.enumerate"})
SWEEP = 10  # a literal `range` shorter than this is a handful of configurations
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
RUN_ONCE = ("main", "test", "setUp")  # entry points and tests: one call, one compilation


class RepeatedJitCreation(Rule):
    """## What it does
    Finds `jax.jit(f)` applied, in a loop body or on every call of a function, to a function object
    that is created anew each time: a `lambda`, a `functools.partial(...)`, the result of another
    transformation (`jax.grad(g)`, `jax.vmap(g)`), a bound method (`self.step`), or a function
    defined inside the loop (or inside the function). In a loop the jitted function must be used
    in the same iteration (called right away, or bound to a name that is called or handed to a
    function, not stored); in a function body it must be called once per call of the function
    (`jax.jit(lambda x: ...)(y)`, or `f = jax.jit(...)` with `f` called outside any loop), and the
    function must not be one that runs once (`main`, tests: `test*`, `setUp*`) or a driver that
    loops (`train`), whose one compilation per call is amortised. Code JAX already traces is not
    checked.

    `jax.jit(module_level_function)` in a loop is not reported: JAX caches compilations by the
    identity of the function, so every iteration reuses the first compilation. Nor is a loop over
    a short literal collection (`for lr in (0.1, 0.01)`, `range(3)`, `itertools.product` of
    literals): a sweep over configurations compiles each one on purpose.

    ## Why is this bad?
    Each new function object misses JAX's compilation cache, so JAX traces and compiles it again
    on every iteration (or call): compilation, often far slower than the computation, runs every
    time. Create the jitted function once, outside the loop or at module level, and pass what
    changes as arguments.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def train(w, batches):
        for x in batches:
            step = jax.jit(lambda p: p - 0.01 * jax.grad(lambda q: jnp.sum((x * q) ** 2))(p))
            w = step(w)
        return w
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    @jax.jit
    def step(p, x):
        return p - 0.01 * jax.grad(lambda q: jnp.sum((x * q) ** 2))(p)

    def train(w, batches):
        for x in batches:
            w = step(w, x)
        return w
    ```

    ## Fix safety
    No automatic fix: hoisting the function changes which values it closes over.

    ## References
    - [JAX: just-in-time compilation, caching](https://docs.jax.dev/en/latest/jit-compilation.html#caching)
    """

    code = "JAX601"
    name = "repeated-jit-creation"
    message = "`jax.jit` is applied to a new function object in a loop or on every call"
    outcome = "JAX traces and compiles the function again every time"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) not in JIT_LEAVES or ctx.traced or not node.args:
            return
        if ctx.qualname(node.func) not in JIT_NAMES:
            return
        if any(isinstance(a, ast.Starred) for a in node.args[:1]):
            return
        where = self.repetition(node, ctx)
        if where is None:
            return
        fresh = self.fresh(node.args[0], ctx, where[1])
        if fresh is None:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` compiles {fresh}, a new function object {where[0]}: JAX caches "
            f"compilations by function identity, so it traces and compiles it again each time; create "
            f"the jitted function once (outside the loop, or at module level) and pass what changes as "
            f"arguments",
        )

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        """``@jax.jit`` on a ``def`` inside a loop body: a new function every iteration."""
        if not ctx.loops or ctx.traced:
            return
        decorator = next((d for d in node.decorator_list if _jit_decorator(ctx, d)), None)
        loop = ctx.loops[-1]
        if decorator is None or _bounded_sweep(ctx, loop) or not _used_per_iteration(ctx, node.name, loop):
            return
        ctx.report(
            decorator,
            f"`@{snippet(ctx, decorator)}` compiles `{node.name}`, defined inside the loop at line "
            f"{loop.lineno}: a new function object on every iteration, so JAX traces and compiles it "  # type: ignore[attr-defined]
            f"again each time; define the jitted function once, outside the loop, and pass what "
            f"changes as arguments",
        )

    def repetition(self, node: ast.Call, ctx: Context) -> tuple[str, ast.AST] | None:
        """Where the jit is repeated (for the message) and the node that repeats it."""
        parent = ctx.parent
        called = isinstance(parent, ast.Call) and parent.func is node
        if ctx.loops:
            loop = ctx.loops[-1]
            if _bounded_sweep(ctx, loop):
                return None
            if called or _used_per_iteration(ctx, _assigned_name(parent, node), loop):
                kind = "loop" if isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) else "comprehension"
                return f"on every iteration of the {kind} at line {loop.lineno}", loop  # type: ignore[attr-defined]
            return None
        function = ctx.function
        if function is None or isinstance(function.node, ast.Lambda) or function.name.startswith(RUN_ONCE):
            return None
        if any(isinstance(n, (ast.For, ast.AsyncFor, ast.While)) for n in own_nodes(function.node.body)):
            return None  # a driver (`train`) that loops amortises its one compilation per call
        if called or _called_once_per_call(_assigned_name(parent, node), function.node):
            return f"on every call of `{function.name}`", function.node
        return None

    def fresh(self, target: ast.expr, ctx: Context, repeated: ast.AST) -> str | None:
        """How ``target`` makes a new function object on each repetition; None if it does not."""
        if isinstance(target, ast.Lambda):
            return "a lambda"
        if isinstance(target, ast.Call):
            qualname = ctx.qualname(target.func)
            if qualname == PARTIAL:
                return "a `functools.partial` object"
            transform = None if qualname is None else ctx.model.transforms.get(qualname)
            if transform is not None and transform.kind != "wrapper":
                return f"the function `{snippet(ctx, target.func)}` returns"
            return None
        if isinstance(target, ast.Attribute):
            found = ctx.model.resolve_function(target, ctx.scope)
            return "a bound method" if found is not None and found[1] == 1 else None
        if isinstance(target, ast.Name):
            owner = ctx.scope.lookup(target.id)
            if owner is None or owner.bound.get(target.id) != 1:
                return None
            binding = owner.single_def(target.id) or owner.assigned.get(target.id)
            if binding is None or not encloses(repeated, binding):
                return None
            if isinstance(binding, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return f"`{target.id}` (a function defined {_inside(repeated)})"
            if isinstance(binding, (ast.Lambda, ast.Call)) and not isinstance(binding, ast.Name):
                inner = self.fresh(binding, ctx, repeated)
                return None if inner is None else f"`{target.id}` ({inner})"
        return None


def _bounded_sweep(ctx: Context, loop: ast.AST) -> bool:
    """A loop over a short literal collection (``for lr in (0.1, 0.01)``, ``range(3)``,
    ``itertools.product((4, 8), (1024, 2048))``): a sweep over configurations, where compiling
    each one is the point."""
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        iterable = loop.iter
    elif isinstance(loop, COMPREHENSIONS) and len(loop.generators) == 1:
        iterable = loop.generators[0].iter
    else:
        return False
    return _literal_collection(ctx, iterable)


def _literal_collection(ctx: Context, node: ast.expr, depth: int = 0) -> bool:
    if isinstance(node, ast.Name) and depth < 4:
        owner = ctx.scope.lookup(node.id)
        value = owner.assigned.get(node.id) if owner is not None and owner.bound.get(node.id) == 1 else None
        return value is not None and _literal_collection(ctx, value, depth + 1)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return not any(isinstance(e, ast.Starred) for e in node.elts)
    if not isinstance(node, ast.Call) or node.keywords:
        return False
    qualname = ctx.qualname(node.func)
    if qualname == "builtins.range":
        bounds = node.args
        if not all(isinstance(b, ast.Constant) and type(b.value) is int for b in bounds):
            return False
        try:
            return len(range(*(b.value for b in bounds))) < SWEEP  # type: ignore[union-attr]
        except (TypeError, ValueError):
            return False
    if qualname in SWEEPS:
        return bool(node.args) and all(_literal_collection(ctx, a, depth + 1) for a in node.args)
    return False


def _called_once_per_call(name: str | None, function: ast.AST) -> bool:
    """``f = jax.jit(...)`` in a function body, with ``f`` only called, outside any loop: each call
    of the function compiles once and runs once. (Used in a loop, the compilation is amortised:
    the usual ``train()`` that jits its step once per run.)"""
    if name is None:
        return False
    uses: list[ast.Name] = []
    calls: set[int] = set()
    stack: list[tuple[ast.AST, bool]] = [(statement, False) for statement in getattr(function, "body", [])]
    while stack:
        node, in_loop = stack.pop()
        if isinstance(node, (*FUNCTION_NODES, ast.ClassDef)):
            continue
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            if in_loop:
                return False
            uses.append(node)
        if isinstance(node, ast.Call):
            calls.add(id(node.func))
        looping = in_loop or isinstance(node, (ast.For, ast.AsyncFor, ast.While, *COMPREHENSIONS))
        stack.extend((child, looping) for child in ast.iter_child_nodes(node))
    return bool(uses) and all(id(use) in calls for use in uses)


def _jit_decorator(ctx: Context, decorator: ast.expr) -> bool:
    target = decorator
    if isinstance(decorator, ast.Call) and ctx.qualname(decorator.func) == PARTIAL and decorator.args:
        target = decorator.args[0]
    return ctx.qualname(target) in JIT_NAMES


def _assigned_name(parent: ast.AST | None, node: ast.Call) -> str | None:
    """``step`` in ``step = jax.jit(...)``."""
    if (
        isinstance(parent, ast.Assign)
        and parent.value is node
        and len(parent.targets) == 1
        and isinstance(parent.targets[0], ast.Name)
    ):
        return parent.targets[0].id
    return None


def _used_per_iteration(ctx: Context, name: str | None, loop: ast.AST) -> bool:
    """Whether the loop uses ``name`` only by calling it or handing it to a function (which calls
    it), never by storing it away (``fns.append(step)``, ``table[k] = step``) for later."""
    if name is None:
        return False
    parents = {
        child: node
        for node in ast.walk(loop)
        for child in ast.iter_child_nodes(node)
        if isinstance(child, ast.Name) and child.id == name and isinstance(child.ctx, ast.Load)
    }
    if not parents:
        return False
    for use, parent in parents.items():
        if not isinstance(parent, ast.Call):
            return False  # stored, returned, passed by keyword...
        func = parent.func
        if func is not use and (
            (isinstance(func, ast.Attribute) and func.attr in MUTATING_METHODS)
            or ctx.qualname(func) in CONTAINERS
        ):
            return False
    return True


def _inside(repeated: ast.AST) -> str:
    if isinstance(repeated, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"inside `{repeated.name}`"
    return "inside the loop"
