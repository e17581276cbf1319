"""JAX302: a PRNG key from outside a loop consumed on every iteration."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import callee_leaf, encloses
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic.bodies import carry_parameter, carry_unpacking
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.keys import constant_fold

from ..support.blocks import is_local_name, own_nodes, stored_names, stores_name
from ..support.explain import BOUND_KEY_ADVICE, snippet, split_advice
from ..support.paths import path_root, plain_path
from .carry import ThreadCarriedKey, carried_leaf, hands_back_carried, thread_carried_key
from .copies import split_copies
from .keypaths import (
    calls_passing,
    default_key,
    drawn_only_at,
    handed_over_once,
    local_of_a_single_run,
    passed_as,
    plain_path_text,
    runs_once_per_parent_run,
)


@dataclass(frozen=True)
class SplitInLoop(FixRequest):
    """``key, subkey = split(key)`` at the top of ``loop``'s body; the call draws from ``subkey``."""

    key: str
    loop: ast.For | ast.AsyncFor | ast.While


@dataclass(frozen=True)
class SplitInBody(FixRequest):
    """A lax loop body that hands its carried ``key`` back unsplit: ``key, subkey = split(key)``
    before ``statement`` (a statement of the body itself), ``call`` (the draw, or the
    ``fold_in`` it draws through) takes ``subkey``, and the body's ``return`` hands the new
    ``key`` back."""

    key: str
    statement: ast.stmt
    call: ast.Call


@dataclass(frozen=True)
class FoldInIndex(FixRequest):
    """A ``fori_loop`` body, or a Python ``for`` loop over ``range``/``enumerate``, that reads a
    ``key`` it cannot rebind (closed over, a field, an item): the call draws from
    ``jax.random.fold_in(key, index)``, a key of its own for each step. ``hoist_from``: an item
    (``keys[0]``) is read once into a name before the statement holding this node (the loop, or
    the body handed to the lax loop), so a key array is sliced once, not on every step."""

    key: str
    index: str
    hoist_from: ast.AST | None = None


@dataclass(frozen=True)
class SplitAroundInnerLoop(FixRequest):
    """A draw on every step of an inner loop (a ``fori_loop`` body, a Python loop over ``range``
    in a helper called once) from ``key``, the carry of the lax loop body around it, handed back
    unsplit: ``key, subkey = split(key)`` before ``statement`` (the statement of that body
    holding the inner loop), and ``argument`` (the key as the draw is passed it) becomes
    ``fold_in(subkey, index)``, or ``subkey`` where it already is the key of ``fold_in(key,
    index)`` (``folded``)."""

    key: str
    statement: ast.stmt
    argument: ast.expr
    index: str
    folded: bool


class PrngKeyReuseInLoop(Rule):
    """## What it does
    Finds a key consumed on every repetition of something: in a Python loop (or comprehension)
    that does not rebind it; in a `jax.lax.scan`/`fori_loop`/`while_loop`/`map` body that closes
    over it or hands it back unsplit in its carry; in a `while_loop` condition (it runs on every
    step's carry and cannot return a new key); in a method that draws from `self.key` when only
    `__init__` ever sets it (every call draws the same numbers); in a jitted function that reads it from
    outside (a module-level key, a key made before the function), where it is a constant of the
    compiled program; or in a function mapped by `vmap` that draws noise shaped like its example
    from a key it closes over (every example gets the same noise; a draw of a fixed shape, such as
    a random projection shared by the batch, is left alone).

    ## Why is this bad?
    Every iteration, every step of the `lax` loop, or every call of the jitted function draws
    exactly the same random numbers: the "noise" added in each step is identical, the
    "independent" samples are copies. Nothing fails (JAX's key-reuse checker,
    `jax_debug_key_reuse`, reports the `lax` loop cases). The idiom is to split at the top of the
    body, `key, subkey = jax.random.split(key)`, carrying the key through a `lax` loop's carry,
    or to pass the key to the jitted function as an argument.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def noisy_average(key, x):
        total = jnp.zeros_like(x)
        for _ in range(4):
            total = total + x + jax.random.normal(key, x.shape)
        return total / 4
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def noisy_average(key, x):
        total = jnp.zeros_like(x)
        for _ in range(4):
            key, subkey = jax.random.split(key)
            total = total + x + jax.random.normal(subkey, x.shape)
        return total / 4
    ```

    ## Fix safety
    The fix inserts `key, subkey = jax.random.split(key)` at the top of the loop body and
    passes `subkey`; in a `lax` loop body that hands its carried key back, it splits the key
    before the statement that draws and the body hands back the new key; in a `fori_loop` body
    that closes over the key, it draws from `jax.random.fold_in(key, i)` with the step index; a
    key in a field or item of the carry is split each step and the new key written back into the
    record the body hands back (a draw in a Python loop there folds the loop index into the
    subkey); a key carried by a body and drawn on every step of a loop nested in it (a
    `fori_loop` inside a `scan`) is split in the outer body, before the inner loop, which
    folds its step index into the subkey. Copies of one key (`[key] * n`,
    `jnp.repeat(key[None], n, axis=0)`, `jnp.stack([key] * n)`) become `jax.random.split(key, n)`
    (`list(...)` of it, for a list). Unsafe by nature: the numbers drawn change.

    ## References
    - [JAX: Pseudorandom numbers](https://docs.jax.dev/en/latest/random-numbers.html)
    """

    code = "JAX302"
    name = "prng-key-reuse-in-loop"
    message = "A PRNG key is reused on every loop iteration (or call): each draws the same numbers"
    outcome = "every iteration draws identical random numbers"
    fix_title = "Split the key at the top of the loop body"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        event = ctx.key_events.get(node)
        if event is None or event.kind not in ("loop", "call", "condition", "held", "leaves", "mapped"):
            return
        if event.kind == "mapped" and event.ignored:
            mapping = event.via.rsplit(".", 1)[-1]
            ignored = ", ".join(f"`{name}`" for name in event.ignored.split(", "))
            ctx.report(
                node,
                f"{_function_named(event.repeated_by)} never reads {ignored}, the argument `{mapping}` maps, "
                f"and draws from key `{event.key}`, the same for every element: `{mapping}` computes "
                f"identical results for every element; map over keys instead, one per element, "
                f"split from this one (`jax.random.split({event.key}, n)`)",
            )
            return
        if event.kind == "mapped" and event.copies:
            mapping = event.via.rsplit(".", 1)[-1]
            ctx.report(
                node,
                f"`{event.copies}` makes copies of one key, and `{mapping}` maps "
                f"{_function_named(event.repeated_by)} over them as `{event.key}`: every element draws "
                f"from the same key, so each gets identical random numbers; split the key into one "
                f"per element instead, `jax.random.split(key, n)`",
                fix=split_copies(node),
            )
            return
        if event.kind == "mapped":
            mapping = event.via.rsplit(".", 1)[-1]
            how = "which `in_axes` passes unmapped" if event.passed_unmapped else "which it closes over"
            over, each = ("devices", "device") if mapping == "pmap" else ("a batch", "example")
            ctx.report(
                node,
                f"{_function_named(event.repeated_by)} draws random numbers shaped like its argument from "
                f"key `{event.key}`, {how}, and `{mapping}` maps it over {over}: the key "
                f"is not mapped, so every {each} gets identical random numbers; pass one key per "
                f"{each}, split from this one, as a mapped argument",
            )
            return
        if event.kind == "leaves":
            ctx.report(
                node,
                f"{_function_named(event.repeated_by)} draws from key `{event.key}`, which it closes over, and this "
                f"call maps it over every leaf of the tree: each leaf consumes the same key, so "
                f"leaves of the same shape get identical random numbers; split the key into one per "
                f"leaf and map over the leaves and keys together",
            )
            return
        if event.kind == "held":
            compiled = ctx.model.compiled_root(ctx.function) if ctx.function is not None else None
            advice = (
                f"split it and store the new key, `{event.key}, subkey = jax.random.split({event.key})`, "
                f"then draw from `subkey`"
                if compiled is None or event.key.endswith(".value")  # nnx carries a variable's update out
                else f"pass a key in and split it for each call (a new key stored on the object inside "
                f"jitted `{compiled.name}` would leak a tracer)"
            )
            ctx.report(
                node,
                f"key `{event.key}` is set in `__init__` and never replaced, so every call of "
                f"`{event.repeated_by}` draws the same random numbers; {advice}",
            )
            return
        if event.kind == "condition":
            ctx.report(
                node,
                f"key `{event.key}` is consumed in the condition of `while_loop`, which runs on every "
                f"step's carry and cannot hand a new key back: each check consumes the same key again, "
                f"or one the body consumes too; draw in the body and carry the result the condition needs",
            )
            return
        if event.kind == "call":
            program = "compiled program" if event.compiled_by == "jitted" else "trace `jax.checkpoint` keeps"
            inside = (
                "inside it"
                if event.via in ("", event.repeated_by)
                else f"inside `{event.via}`, which it runs"
            )
            default = default_key(event.key)
            what = (
                f"key `{event.key}`"
                if default is None
                else f"the default `{default[1]}` of `{default[0]}`, a key made when the `def` ran,"
            )
            ctx.report(
                node,
                f"{what} is made outside {event.compiled_by} `{event.repeated_by}` and consumed {inside}: "
                f"it is a constant of the {program}, so every call draws the same random "
                f"numbers; pass the key as an argument and split it for each call",
            )
            return
        if event.repeated_by:
            where = f"`{event.repeated_by.rsplit('.', 1)[-1]}`"
            folded = _folded_key(node, ctx)
            named = _carried_name(ctx, event.key) or event.key
            what = (
                f"key `{named}` is consumed on every step of {where} (closed over, or carried unsplit)"
                if folded is None
                else f"`{event.key}` folds the same Python value into the same key `{folded}` "
                f"on every step of {where}"
            )
            effect = (
                "each step splits it again and picks another subkey, so the draws differ, but the key "
                "is consumed on every step (`KeyReuseError` under `jax_debug_key_reuse`)"
                if _split_indexed_by_data(node, ctx)
                else "every step that takes this branch draws the same random numbers"
                if _in_branch(node, ctx)
                else "every step draws the same random numbers"
            )
            ctx.report(
                node,
                f"{what}: {effect}; carry the key, split it each "
                f"step and hand the new key back in the carry, {_step_split(folded or named)}",
                fix=_step_fix(node, ctx, folded or event.key, event.via, event.repeated_by)
                or _split_around_inner_loop(node, ctx, folded or event.key),
            )
            return
        loop = ctx.loops[-1] if ctx.loops else None
        constant = _constant_fold_drawn(node, ctx, loop)
        if constant is not None:
            ctx.report(
                node,
                f"`{snippet(ctx, constant)}` folds the same constant into the same key on every "
                f"iteration, so every iteration draws the same random numbers; fold in what "
                f"changes per iteration (the loop variable)",
            )
            return
        fixable = (
            node not in ctx.model.partial_calls  # it uses a key the value holds: not the value
            and node not in ctx.model.bound_key_calls  # nor the key a `partial` bound
            and event.key.isidentifier()
            and is_local_name(ctx, event.key)  # splitting a closed-over key would make it local
            and isinstance(loop, (ast.For, ast.AsyncFor, ast.While))
            and event.key not in stored_names(loop.body)  # a key rebound in the loop is split there already
        )
        repeated = _iterated_copies(event.key, loop)
        if repeated is not None:  # `for k in [key] * n`: every iteration binds the same key
            ctx.report(
                node,
                f"key `{event.key}` is bound on every iteration to an item of `{snippet(ctx, repeated)}`, "
                f"whose items are all the same key: every iteration draws the same random numbers; "
                f"iterate over keys split from it instead, one per iteration "
                f"(`jax.random.split(key, n)`)",
                fix=split_copies(repeated),
            )
            return
        default = default_key(event.key)
        if default is not None:  # `noise(x)` in a loop, `def noise(x, key=jax.random.key(0))`
            function, parameter = default
            ctx.report(
                node,
                f"`{function}` draws from its default `{parameter}`, a key made once when the `def` "
                f"ran, on every iteration: every iteration draws the same random numbers; pass each "
                f"call a key of its own (split one in the loop)",
            )
            return
        ctx.report(
            node,
            f"key `{event.key}` is created outside the loop and consumed on every iteration: every "
            f"iteration draws from the same key, so its random numbers repeat (identical where the "
            f"shapes match) instead of being independent; "
            f"{BOUND_KEY_ADVICE if node in ctx.model.bound_key_calls else _loop_advice(ctx, event.key, loop)}",
            fix=SplitInLoop(event.key, loop)  # pyright: ignore[reportArgumentType]
            if fixable
            else _fold_in_loop_index(node, ctx, event.key, loop)
            or _split_around_inner_loop(node, ctx, event.key),
        )


def _iterated_copies(key: str, loop: ast.AST | None) -> ast.expr | None:
    """What ``loop`` iterates over where it binds ``key`` itself (or an item of it): a key drawn
    from on every iteration although the loop rebinds it is a copy of one key (``for k in
    [key] * n``), the same on every iteration."""
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        generators = [(loop.target, loop.iter)]
    elif isinstance(loop, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        generators = [(g.target, g.iter) for g in loop.generators]
    else:
        return None
    root = key.split("[", 1)[0].split(".", 1)[0]
    for target, iterated in generators:
        if any(isinstance(n, ast.Name) and n.id == root for n in ast.walk(target)):
            return _repeating_part(iterated)
    return None


def _repeating_part(iterated: ast.expr) -> ast.expr:
    """The part of ``iterated`` that repeats a key (``[key] * n`` in ``zip([key] * n, sizes)``)."""
    for node in ast.walk(iterated):
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mult)
            and any(
                isinstance(side, (ast.List, ast.Tuple)) and len(side.elts) == 1
                for side in (node.left, node.right)
            )
        ):
            return node
        if isinstance(node, ast.Call) and callee_leaf(node) in ("repeat", "tile"):
            return node
    return iterated


def _constant_fold_drawn(node: ast.Call, ctx: Context, loop: ast.AST | None) -> ast.Call | None:
    """The ``fold_in(key, 0)`` that the draw ``node`` takes its key from, directly or through the
    name the loop body binds it to, when its data is a constant."""
    argument = node.args[0] if node.args else None
    if isinstance(argument, ast.Name) and loop is not None:
        bound = [
            s.value
            for s in ast.walk(loop)
            if isinstance(s, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == argument.id for t in s.targets)
        ]
        argument = bound[0] if len(bound) == 1 else None
    if (
        isinstance(argument, ast.Call)
        and len(argument.args) == 2
        and ctx.qualname(argument.func) == "jax.random.fold_in"
        and constant_fold(argument)
    ):
        return argument
    return None


def _function_named(name: str) -> str:
    return "the lambda" if name == "<lambda>" else f"`{name}`"


def _folded_key(node: ast.Call, ctx: Context) -> str | None:
    """``key`` when ``node`` draws from ``jax.random.fold_in(key, ...)``."""
    argument = node.args[0] if node.args else None
    if (
        isinstance(argument, ast.Call)
        and argument.args
        and ctx.qualname(argument.func) == "jax.random.fold_in"
    ):
        return snippet(ctx, argument.args[0])
    return None


def _carried_name(ctx: Context, key: str) -> str | None:
    """The name the body unpacks a carried key into (``key`` of ``key, total = state``), for a
    key a helper consumes, which the walker names by its place in the carry (``state[0]``,
    ``fold_in(state[0], ...)`` for a key folded with Python values there)."""
    base = key.removeprefix("fold_in(").removesuffix(", ...)")
    try:
        path = ast.parse(base, mode="eval").body
    except SyntaxError:
        return None
    info = ctx.function
    if (
        info is None
        or not isinstance(path, ast.Subscript)
        or not isinstance(path.value, ast.Name)
        or not isinstance(path.slice, ast.Constant)
        or not isinstance(path.slice.value, int)
        or path.value.id != carry_parameter(info)
        or not isinstance(info.node.body, list)
    ):
        return base if base != key and plain_path_text(base) else None
    targets = carry_unpacking(info.node.body, path.value.id) or []
    index = path.slice.value
    target = targets[index] if 0 <= index < len(targets) else None
    if isinstance(target, ast.Name) and info.scope.bound.get(target.id) == 1:
        return target.id
    return base if base != key else None


def _step_split(key: str) -> str:
    """The split line for a key consumed on every step of a lax loop."""
    name = key if key.isidentifier() else "key"
    subkey = "subkey" if name != "subkey" else "subkey_2"
    return f"`{name}, {subkey} = jax.random.split({key})`"


def _step_fix(
    node: ast.Call, ctx: Context, key: str, via: str, loop: str
) -> SplitInBody | FoldInIndex | ThreadCarriedKey | None:
    """A new key for each step of the lax loop whose body ``node`` draws in: split the carried
    key (a ``def`` body that hands it back by name), or fold the step index into a closed-over
    key (a ``fori_loop`` body). None where the body does not have that plain shape."""
    info = ctx.function
    if info is None or _key_uses(node, key) != 1:
        return None
    if via == "closure" and loop == "jax.lax.fori_loop" and passed_as(node, key) is not None:
        return _fold_in_step_index(node, info, key, statements_of(info))
    call = next(c for c in ast.walk(node) if isinstance(c, ast.Call) and passed_as(c, key) is not None)
    if not key.isidentifier():
        return thread_carried_key(ctx, key, (call,)) if via == "carry" else None
    body = info.node
    statements = statements_of(info)
    if via != "carry" or isinstance(body, ast.Lambda) or not is_local_name(ctx, key):
        return None
    statement = next((s for s in body.body if encloses(s, node)), None)
    if statement is None or _key_uses(statements, key) != 1 or not _hands_back(statements, key):
        return None  # a second draw from the key is JAX301's, whose fix also keeps the key fresh
    earlier = body.body[: body.body.index(statement)]
    stores = [n for n in own_nodes(body.body) if stores_name(n, key)]
    if key in info.positional_names():
        return SplitInBody(key, statement, call) if not stores else None
    if len(stores) == 1 and any(encloses(s, stores[0]) for s in earlier):  # `key, acc = carry`
        return SplitInBody(key, statement, call)
    return None


def statements_of(info: FunctionInfo) -> list[ast.stmt]:
    """A function's body; a lambda's expression as a statement."""
    body = info.node.body
    return body if isinstance(body, list) else [ast.Expr(body)]


def _fold_in_step_index(
    node: ast.Call, info: FunctionInfo, key: str, statements: list[ast.stmt]
) -> FoldInIndex | None:
    """A ``fori_loop`` body that closes over ``key`` (a name, or a field or item of a value of
    the code around it) and draws from it once: fold the step index in."""
    index = info.positional_names()[:1]
    argument = passed_as(node, key)
    if not index or argument is None or not plain_path(argument) or _key_uses(statements, key) != 1:
        return None  # a body that draws from it twice: one fold would serve both
    root = path_root(argument)
    if root is None or root in info.scope.bound or root in ("self", "cls"):
        return None  # a key the body binds is not closed over
    if not local_of_a_single_run(info.parent, root) or not handed_over_once(info):
        return None  # folding only this loop's index would repeat across the outer repetition
    if not drawn_only_at(info, root, key, (node,)):
        return None  # another loop folding the same indices into it would draw the same numbers
    item = any(isinstance(n, ast.Subscript) for n in ast.walk(argument))
    return FoldInIndex(key, index[0], info.node if item else None)


def _split_around_inner_loop(
    node: ast.Call, ctx: Context, key: str
) -> SplitAroundInnerLoop | ThreadCarriedKey | None:
    """A key the lax loop body around an inner loop carries and hands back unsplit (a name, or
    a field or item of a record it carries), drawn from once, on every step of that inner loop:
    split it on every step of the outer body, before the inner loop, and fold the inner step
    index into the subkey. The inner loop is a ``fori_loop`` body handed over once there, or a
    Python loop over ``range``/``enumerate`` in a helper the body calls once; nothing else in
    the body reads the key."""
    inner = _inner_loop(node, ctx, key)
    owner = inner[0].parent if inner is not None else None
    if inner is None or owner is None or not isinstance(owner.node, ast.FunctionDef):
        return None
    info, index, key = inner
    drawing = [n for n in ast.walk(owner.node) if isinstance(n, ast.Call) and passed_as(n, key) is not None]
    statement = next((s for s in owner.node.body if encloses(s, node)), None)
    argument = passed_as(drawing[0], key) if len(drawing) == 1 and encloses(node, drawing[0]) else None
    root = path_root(argument) if argument is not None else None
    if (
        statement is None
        or argument is None
        or root is None
        or root in (*info.scope.bound, *info.scope.nonlocals)
    ):
        return None  # another draw from the key (one split would serve both), or a key of its own
    call = drawing[0]
    folded = ctx.qualname(call.func) == "jax.random.fold_in"
    if folded and not (
        len(call.args) == 2 and isinstance(call.args[1], ast.Name) and call.args[1].id == index
    ):
        return None  # folding something other than the inner step: the inner steps draw alike
    if root != key:
        carried = carried_leaf(ctx, argument, 1, owner)
        if carried is None:
            return None
        return ThreadCarriedKey(key, carried, statement, (call,), None if folded else index)
    reads = [
        n
        for n in ast.walk(owner.node)
        if isinstance(n, ast.Name) and n.id == key and isinstance(n.ctx, ast.Load)
    ]
    returns = [n for n in own_nodes(owner.node.body) if isinstance(n, ast.Return)]
    if key not in owner.scope.bound or not hands_back_carried(owner, key) or len(reads) != len(returns) + 1:
        return None  # another read of the key: one split before the inner loop would not serve it
    return SplitAroundInnerLoop(key, statement, argument, index, folded)


def _inner_loop(node: ast.Call, ctx: Context, key: str) -> tuple[FunctionInfo, str, str] | None:
    """The function an inner loop runs in, its step index and the key it draws from, when the
    loop runs once per run of the function around it: the draw is in a ``fori_loop`` body handed
    over once, or in a Python loop over ``range`` in a helper called once; or ``node`` runs a
    ``fori_loop`` lambda that draws from ``fold_in(key, index)``, written as ``key``."""
    info = ctx.function
    if info is None:
        return None
    lam = node.args[2] if ctx.qualname(node.func) == "jax.lax.fori_loop" and len(node.args) > 2 else None
    if isinstance(lam, ast.Lambda):
        inner = ctx.model.infos.get(lam)
        fold = next((c for c in ast.walk(lam) if isinstance(c, ast.Call) and ast.unparse(c) == key), None)
        root = fold.args[0] if fold is not None and fold.args else None
        if inner is None or root is None or not plain_path(root) or not inner.body_params():
            return None
        return (inner, inner.body_params()[0], ast.unparse(root)) if handed_over_once(inner) else None
    if not plain_path_text(key):
        return None
    if ctx.loops:
        loop = ctx.loops[-1]
        index = _loop_index(loop) if len(ctx.loops) == 1 and isinstance(loop, ast.For) else None
        return (info, index, key) if index is not None and runs_once_per_parent_run(info) else None
    if info.repeated_by == "jax.lax.fori_loop" and info.body_params() and handed_over_once(info):
        return info, info.body_params()[0], key
    return None


def _key_uses(where: ast.AST | list[ast.stmt], key: str) -> int:
    """How many calls in ``where`` (not in functions nested there) are passed ``key``."""
    return calls_passing(own_nodes(where) if isinstance(where, list) else ast.walk(where), key)


def _hands_back(statements: list[ast.stmt], key: str) -> bool:
    """Whether a ``return`` of the body hands ``key`` back by name (not inside a call)."""
    for node in own_nodes(statements):
        if isinstance(node, ast.Return) and node.value is not None and _names_outside_calls(node.value, key):
            return True
    return False


def _names_outside_calls(node: ast.expr, key: str) -> bool:
    if isinstance(node, ast.Name):
        return node.id == key
    if isinstance(node, (ast.Tuple, ast.List)):
        return any(_names_outside_calls(element, key) for element in node.elts)
    return False


def _fold_in_loop_index(
    node: ast.Call, ctx: Context, key: str, loop: ast.AST | None
) -> FoldInIndex | ThreadCarriedKey | None:
    """A field of a local value (``batch.key``), read once in the only loop around it, a loop
    over ``range``/``enumerate``: fold the loop index into it. Not a global, closed-over or
    ``self`` key: each call would fold the same indices into the same key again."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)) or len(ctx.loops) != 1:
        return None  # nested loops: the inner index alone repeats across the outer loop
    index = _loop_index(loop)
    argument = passed_as(node, key)
    if index is None or argument is None or not plain_path(argument) or index in stored_names(loop.body):
        return None
    root = path_root(argument)
    if (
        root is None
        or root in ("self", "cls")
        or root in stored_names(loop.body)
        or _key_uses(loop.body, key) != 1
    ):
        return None
    if not local_of_a_single_run(ctx.function, root):  # a carried leaf: each step splits it anew
        return thread_carried_key(ctx, key, (node,), index)
    if ctx.function is None or not drawn_only_at(ctx.function, root, key, (node,)):
        return None  # another loop folding the same indices into it would draw the same numbers
    # JAX's key-reuse checker counts each slice of a key array (`keys[0]`) as a use of `keys`:
    # an item is read once, before the loop
    item = any(isinstance(n, ast.Subscript) for n in ast.walk(argument))
    return FoldInIndex(key, index, loop if item else None)


def _loop_index(loop: ast.For | ast.AsyncFor) -> str | None:
    """``i`` of ``for i in range(...)`` and of ``for i, x in enumerate(...)``."""
    iterator, target = loop.iter, loop.target
    if not isinstance(iterator, ast.Call) or not isinstance(iterator.func, ast.Name):
        return None
    if iterator.func.id == "range" and isinstance(target, ast.Name):
        return target.id
    if (
        iterator.func.id == "enumerate"
        and isinstance(target, ast.Tuple)
        and target.elts
        and isinstance(target.elts[0], ast.Name)
    ):
        return target.elts[0].id
    return None


def _loop_advice(ctx: Context, key: str, loop: ast.AST | None) -> str:
    """Split a key the loop can rebind; fold the loop index into one it cannot (rebinding a
    global or closed-over name in the loop would make it local)."""
    if key.isidentifier() and is_local_name(ctx, key):
        return f"split it in the loop, {split_advice(key)}"
    index = _loop_index(loop) if isinstance(loop, (ast.For, ast.AsyncFor)) else None
    return (
        f"draw from a key of its own each iteration, `jax.random.fold_in({key}, {index or 'i'})`, "
        f"or pass a fresh key in"
    )


def _split_indexed_by_data(node: ast.Call, ctx: Context) -> bool:
    """``jax.random.split(key, n)[i]`` with an index that is not a constant (a step index): each
    step picks another subkey of the same split."""
    parent = ctx.parent
    return (
        isinstance(parent, ast.Subscript)
        and parent.value is node
        and not isinstance(parent.slice, ast.Constant)
        and ctx.qualname(node.func) == "jax.random.split"
    )


def _in_branch(node: ast.Call, ctx: Context) -> bool:
    """Whether the draw is in a ``lax.cond``/``switch`` branch nested in the loop body (traced
    on every step, taken on some), or is that ``cond``/``switch`` call."""
    if ctx.qualname(node.func) in ("jax.lax.cond", "jax.lax.switch"):
        return True
    function = ctx.function
    return (
        function is not None
        and function.parent is not None
        and "body" in function.transformed_by
        and function.repeated_by is None
    )
