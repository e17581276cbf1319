"""JAX601: ``jax.jit`` applied to a fresh function in a loop or on every call."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from jaxlint.engine.astutil import callee_leaf, encloses
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.scopes import all_params
from jaxlint.semantic.transforms import COMPILING_TRANSFORMS, PARTIALS
from jaxlint.semantic.values import FunctionRef, refs

from ..support.blocks import mention_counts, own_nodes
from ..support.explain import names_assigned_in, snippet
from ..support.jitted import assigned_name, called_once_per_call, used_per_iteration
from .loops import bounded_sweep

JIT_LEAVES = frozenset({"jit", "pmap", "pjit"})
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
        if ctx.qualname(node.func) not in COMPILING_TRANSFORMS:
            return
        if any(isinstance(a, ast.Starred) for a in node.args[:1]):
            return
        where = self.repetition(node, ctx, node.args[0])
        if where is None:
            return
        fresh = self.fresh(node.args[0], ctx, where[1])
        if fresh is None:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` compiles {fresh}, a new function object {where[0]}: JAX caches "
            f"compilations by function identity, so it traces and compiles it again each time; create "
            f"the jitted function once ({_once(where[1])}) and pass what changes as arguments",
        )

    def visit_FunctionDef(self, node: ast.FunctionDef, ctx: Context) -> None:
        """``@jax.jit`` on a ``def`` inside a loop body, or inside a function and called there:
        a new function every iteration or call."""
        if ctx.traced:
            return
        decorator = next((d for d in node.decorator_list if _jit_decorator(ctx, d)), None)
        if decorator is None:
            return
        if not ctx.loops:
            self.per_call_def(node, decorator, ctx)
            return
        loop = ctx.loops[-1]
        if bounded_sweep(ctx, loop) or not used_per_iteration(ctx, node.name, loop):
            return
        line = loop.lineno  # pyright: ignore[reportAttributeAccessIssue]
        ctx.report(
            decorator,
            f"`@{snippet(ctx, decorator)}` compiles `{node.name}`, defined inside the loop at line "
            f"{line}: a new function object on every iteration, so JAX traces and compiles it "
            f"again each time; define the jitted function once, outside the loop, and pass what "
            f"changes as arguments",
        )

    def per_call_def(self, node: ast.FunctionDef, decorator: ast.expr, ctx: Context) -> None:
        function = self.repeating_function(ctx)
        if function is None or not called_once_per_call(node.name, function):
            return
        ctx.report(
            decorator,
            f"`@{snippet(ctx, decorator)}` compiles `{node.name}`, defined inside `{function.name}`: a "
            f"new function object on every call of `{function.name}`, so JAX traces and compiles it "
            f"again each time; define the jitted function once, at module level, and pass what "
            f"changes as arguments",
        )

    @staticmethod
    def repeating_function(ctx: Context) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The function whose every call would create a new function here: not one that runs once
        (``main``, tests) nor a driver that loops (``train``), whose one compilation per call is
        amortised."""
        function = ctx.function
        if function is None or isinstance(function.node, ast.Lambda) or function.name.startswith(RUN_ONCE):
            return None
        if _called_once_at_module_level(ctx, function.name):
            return None  # the one call the file makes runs once: nothing is compiled again
        loops = ctx.memo.get(("JAX601 loops", function.node))
        if loops is None:
            loops = any(
                isinstance(n, (ast.For, ast.AsyncFor, ast.While)) for n in own_nodes(function.node.body)
            )
            ctx.memo[("JAX601 loops", function.node)] = loops
        return None if loops else function.node

    def repetition(self, node: ast.Call, ctx: Context, target: ast.expr) -> tuple[str, ast.AST] | None:
        """Where the jit is repeated (for the message) and the node that repeats it."""
        parent = ctx.parent
        called = isinstance(parent, ast.Call) and parent.func is node
        if ctx.loops:
            loop = ctx.loops[-1]
            if bounded_sweep(ctx, loop) and _reads_loop_names(ctx, target, loop):
                return None  # a sweep over configurations: each compilation is a different one
            if called or used_per_iteration(ctx, assigned_name(parent, node), loop):
                kind = "loop" if isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) else "comprehension"
                return f"on every iteration of the {kind} at line {loop.lineno}", loop  # pyright: ignore[reportAttributeAccessIssue]
            return None
        function = self.repeating_function(ctx)
        if function is None:
            return None
        if called or called_once_per_call(assigned_name(parent, node), function):
            return f"on every call of `{function.name}`", function
        return None

    def fresh(self, target: ast.expr, ctx: Context, repeated: ast.AST) -> str | None:
        """How ``target`` makes a new function object on each repetition; None if it does not."""
        if isinstance(target, ast.Lambda):
            return "a lambda"
        if isinstance(target, ast.Call):
            qualname = ctx.qualname(target.func)
            if qualname in PARTIALS:
                return "a `functools.partial` object"
            transform = None if qualname is None else ctx.model.transforms.get(qualname)
            if transform is not None and transform.kind not in ("wrapper", "body", "callback"):
                return f"the function `{snippet(ctx, target.func)}` returns"
            made = refs(ctx.value(target))  # a factory's closure: `jax.jit(make_step(lr))`
            if made and all(isinstance(r, FunctionRef) and ctx.model.made_anew(r) for r in made):
                return f"the function `{snippet(ctx, target.func)}` returns"
            return None
        if isinstance(target, ast.Attribute):
            found = ctx.model.resolve_function(target, ctx.scope)
            if found is not None and found[1] == 1:
                return "a bound method"
            bound = [r for r in refs(ctx.value(target)) if isinstance(r, FunctionRef) and r.offset == 1]
            methods = [r for r in bound if isinstance(ctx.model.index.parents[r.node].node, ast.ClassDef)]
            return "a bound method" if methods and len(methods) == len(refs(ctx.value(target))) else None
        if isinstance(target, ast.Name):
            owner = ctx.scope.lookup(target.id)
            if owner is None or owner.bound.get(target.id) != 1:
                return None
            binding = owner.single_def(target.id) or owner.assigned.get(target.id)
            if binding is None or not encloses(repeated, binding):
                return None
            if isinstance(binding, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return f"`{target.id}` (a function defined {_inside(repeated)})"
            if isinstance(binding, (ast.Lambda, ast.Call)):
                inner = self.fresh(binding, ctx, repeated)
                return None if inner is None else f"`{target.id}` ({inner})"
        return None


def _called_once_at_module_level(ctx: Context, name: str) -> bool:
    """Whether the only mention of ``name`` in the file (as a name or an attribute: a method) is
    one call in a module-level statement that is not a loop (``gp = GaussianProcess().fit(X)``)."""
    if mention_counts(ctx)[name] != 1:
        return False
    for statement in ctx.model.tree.body:
        if isinstance(
            statement, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        ):
            continue
        for node in ast.walk(statement):
            if isinstance(node, ast.Call) and callee_leaf(node) == name:
                return not any(  # (a loop inside a `with` or an `if` repeats it too)
                    isinstance(n, REPEATING) and encloses(n, node) for n in ast.walk(statement)
                ) and not any(isinstance(n, ast.Lambda) for n in ast.walk(statement))
    return False


REPEATING = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _reads_loop_names(ctx: Context, target: ast.expr, loop: ast.AST) -> bool:
    """Whether the function jitted depends on what the loop changes: ``target`` (or the
    definition a name in it has inside the loop) reads a name the loop binds."""
    changed = names_assigned_in(ctx, loop)
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        # a bound method: the loop may change the object (`trainer.lr = lr`) wherever it names it
        this = target.value
        if any(isinstance(n, ast.Name) and n.id == this.id and n is not this for n in ast.walk(loop)):
            return True
    for ref in refs(ctx.value(target)):  # `jax.grad(loss)`, where `loss` reads a global the loop sets
        info = ctx.model.info(ref.node) if isinstance(ref, FunctionRef) else None
        if info is not None and any(read.id in changed for read in info.outer_reads):
            return True
    nodes: list[ast.AST] = [target]
    if isinstance(target, ast.Name):
        owner = ctx.scope.lookup(target.id)
        binding = owner.single_def(target.id) or owner.assigned.get(target.id) if owner is not None else None
        if binding is not None and encloses(loop, binding):
            nodes.append(binding)
    return any(name in changed for node in nodes for name in _free_reads(node))


def _free_reads(node: ast.AST, bound: frozenset[str] = frozenset()) -> Iterator[str]:
    """The names ``node`` reads from around it: a lambda's own parameters are its own
    (``jax.jit(lambda w: w * 2)`` reads no ``w`` of the loop's)."""
    if isinstance(node, ast.Name):
        if isinstance(node.ctx, ast.Load) and node.id not in bound:
            yield node.id
        return
    if isinstance(node, ast.Lambda):
        bound = bound | {a.arg for a in all_params(node.args)}
    for child in ast.iter_child_nodes(node):
        yield from _free_reads(child, bound)


def _jit_decorator(ctx: Context, decorator: ast.expr) -> bool:
    target = decorator
    if isinstance(decorator, ast.Call) and ctx.qualname(decorator.func) in PARTIALS and decorator.args:
        target = decorator.args[0]
    return ctx.qualname(target) in COMPILING_TRANSFORMS


def _once(repeated: ast.AST) -> str:
    if isinstance(repeated, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"at module level, not in each call of `{repeated.name}`"
    return "outside the loop, or at module level"


def _inside(repeated: ast.AST) -> str:
    if isinstance(repeated, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"inside `{repeated.name}`"
    return "inside the loop"
