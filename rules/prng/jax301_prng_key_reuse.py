"""JAX301: the same PRNG key consumed twice."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import callee_leaf, encloses
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic import measured
from jaxlint.semantic.bodies import step_counter

from ..support.blocks import is_local_name, own_nodes
from ..support.explain import BOUND_KEY_ADVICE, snippet, split_advice
from ..support.paths import path_root, plain_path
from .carry import ThreadCarriedKey, thread_carried_key
from .copies import split_copies
from .keypaths import (
    REPEATING,
    default_key,
    drawn_only_at,
    handed_over_once,
    local_of_a_single_run,
    passed_as,
    plain_path_text,
)


@dataclass(frozen=True)
class SplitBeforeFirstUse(FixRequest):
    """``key, subkey = split(key)`` before ``first`` (the call that consumed ``key`` first), which
    then takes ``subkey``: the reuse consumes the fresh ``key``. With ``fresh_after`` (``key``
    is read again later, returned, or the code repeats), the reuse takes a subkey of its own too
    and ``key`` stays unconsumed."""

    key: str
    first: ast.Call
    fresh_after: bool = False


@dataclass(frozen=True)
class SplitForBoth(FixRequest):
    """A key that cannot be rebound here (a field, an item, a closed-over or global name):
    ``key, subkey = split(<key>)`` (fresh names) before ``first``, which takes ``subkey``; the
    reuse takes ``key``. ``fold_index``: in a ``fori_loop`` body, the step index is folded into
    the key first (``split(fold_in(<key>, i))``), so each step splits a key of its own."""

    key: str
    first: ast.Call
    fold_index: str | None = None


class PrngKeyReuse(Rule):
    """## What it does
    Finds a PRNG key consumed by a second `jax.random` call (a sampler, or `split`) without
    being rebound in between: two draws from one key, or a draw from a key that was already
    split. Same-module helpers that consume a key argument count as consuming it.

    ## Why is this bad?
    JAX's random functions are deterministic in their key: the same key gives the same bits.
    Two draws from one key are perfectly correlated (`normal(key)` twice returns equal arrays),
    and a key reused after `split` correlates with its children. Nothing fails; statistics are
    silently wrong. With `jax.config.update("jax_debug_key_reuse", True)`, JAX raises
    `KeyReuseError` on typed keys.

    ## Example
    ```python
    import jax

    def init_linear(key):
        w = jax.random.normal(key, (3, 2))
        b = jax.random.normal(key, (2,))
        return w, b
    ```

    ## Use instead
    ```python
    import jax

    def init_linear(key):
        w_key, b_key = jax.random.split(key)
        w = jax.random.normal(w_key, (3, 2))
        b = jax.random.normal(b_key, (2,))
        return w, b
    ```

    ## Fix safety
    The fix splits the key right before the second use (`key, subkey = jax.random.split(key)`)
    and passes the fresh subkey. A key held in a field or item of a `lax` loop body's carry
    (`batch.rng`, `pair[1]`, `carry["key"]`) is split into a new key and a subkey for each draw,
    and the new key goes back into the record the body hands back (`dataclasses.replace`,
    `_replace`, a new dict or tuple), so the next step splits a fresh one. No fix where the
    calls consume only a key their argument holds (the argument is not the key to split).
    Unsafe by nature: it changes the random numbers drawn (that is the point), so seeded
    results and golden tests change.

    The fix rewrites the Example to:
    ```python
    import jax

    def init_linear(key):
        key, subkey = jax.random.split(key)
        w = jax.random.normal(subkey, (3, 2))
        b = jax.random.normal(key, (2,))
        return w, b
    ```

    ## References
    - [JAX: Pseudorandom numbers](https://docs.jax.dev/en/latest/random-numbers.html)
    - [jax.experimental.key_reuse](https://docs.jax.dev/en/latest/jax.experimental.key_reuse.html)
    """

    code = "JAX301"
    name = "prng-key-reuse"
    message = "A PRNG key is consumed twice: both calls draw the same random bits"
    outcome = "identical (correlated) random numbers; KeyReuseError under jax_debug_key_reuse"
    fix_title = "Split the key before reusing it"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        event = ctx.key_events.get(node)
        if event is None or event.kind != "reuse" or event.first is None:
            return
        first = event.first
        if _compared_alike(ctx, node, first):
            return  # `a = normal(key); b = normal(key); assert array_equal(a, b)`: sameness is the point
        consumer = snippet(ctx, first.func, 32) if isinstance(first, ast.Call) else "a call"
        splits = any(_is_split(ctx, call) for call in (node, first)) or _layer_and_other(ctx, node, first)
        effect = (
            "the draws differ, but they are not guaranteed independent: a consumed key is never "
            "used again (`KeyReuseError` under `jax_debug_key_reuse`)"
            if splits
            else "reusing it draws the same random bits"
        )
        partial = node in ctx.model.partial_calls or first in ctx.model.partial_calls
        bound = node in ctx.model.bound_key_calls or first in ctx.model.bound_key_calls
        elsewhere = _held_elsewhere(ctx, event.key)
        default = default_key(event.key)
        copied = _indexed_copies(ctx, node, first)
        if bound:  # `add = partial(noise, key)` called twice
            what = f"key `{event.key}`"
            advice = BOUND_KEY_ADVICE
        elif partial:  # the calls consume a key that `event.key` holds (a field, an item)
            what = f"a key held by `{event.key}`"
            advice = "split that key and pass each call a record holding a key of its own"
        elif default is not None:  # `def noise(x, key=jax.random.key(0))` called twice
            function, parameter = default
            what = f"the default `{parameter}` of `{function}`, a key made once when the `def` ran,"
            advice = f"give `{function}` no default key and pass each call a key of its own (split)"
        elif copied is not None:  # `keys = [key] * 2`, then `keys[0]` and `keys[1]`
            holder, made = copied
            what = f"key `{event.key}` (`{holder}` holds copies of one key, `{snippet(ctx, made)}`)"
            advice = "split the key into one per copy instead, `jax.random.split(key, n)`"
        elif elsewhere:  # `m.sample_a(); m.sample_b()`, both drawing from `self.key`
            same = isinstance(first, ast.Call) and ast.dump(first.func) == ast.dump(node.func)
            drawer = "the method draws" if same else "both methods draw"
            what = f"the key `{event.key}` that {drawer} from"
            advice = (
                f"split it in the class before each draw and store the new key, "
                f"`{event.key}, subkey = jax.random.split({event.key})`"
            )
        else:
            what = f"key `{event.key}`"
            advice = _advice(event.key, event.key.isidentifier() and is_local_name(ctx, event.key))
        returned_by = _returned_spent(ctx, first)
        if returned_by is not None:  # `x, key = step(key)`, where `step` consumed the key it returns
            what = f"key `{event.key}`, which `{returned_by}` returns,"
            advice = f"have `{returned_by}` return a key it has not consumed (a new one from a split)"
        paired = _paired_permutations(ctx, node, first)
        if paired:  # `images` and `labels` shuffled alike on purpose: splitting would unpair them
            effect = "both get the same order"
            advice = (
                "if that is meant (shuffling arrays in step), draw the order once, "
                "`order = jax.random.permutation(key, n)`, and index each array with it; "
                "else split the key"
            )
        ctx.report(
            node,
            f"{what} was already consumed by `{consumer}` at line {first.lineno}: {effect}; {advice}",  # pyright: ignore[reportAttributeAccessIssue]
            fix=None
            if partial or elsewhere or bound or paired or returned_by
            else split_copies(copied[1])
            if copied is not None
            else _split_fix(node, ctx, event.key, first),
        )


def _returned_spent(ctx: Context, first: ast.AST) -> str | None:
    """The function that consumed a key in its body (``first``, outside the current function)
    and then returned it."""
    function = ctx.function
    if function is None or encloses(function.node, first):
        return None
    owner = next((info for info in ctx.model.infos.values() if first in info.spent_returns.values()), None)
    return None if owner is None else owner.name


def _paired_permutations(ctx: Context, node: ast.Call, first: ast.AST) -> bool:
    """Two ``jax.random.permutation`` calls with one key: the same order for both, often meant."""
    return all(
        isinstance(call, ast.Call) and ctx.qualname(call.func) == "jax.random.permutation"
        for call in (node, first)
    )


def _compared_alike(ctx: Context, node: ast.Call, first: ast.AST) -> bool:
    """Whether the code checks two identical draws for equality (a determinism test:
    ``assert jnp.array_equal(a, b)``, ``np.testing.assert_allclose(a, b)``,
    ``assert jnp.array_equal(w, init(shape))``), each draw by the name it is bound to or
    written in the check itself."""
    if not isinstance(first, ast.Call) or ast.dump(first) != ast.dump(node):
        return False  # a determinism test repeats one draw; two different ones are two uses
    scope = ctx.function.node if ctx.function is not None else ctx.model.tree
    handles: list[tuple[ast.AST, str | None]] = []
    for draw in (first, node):
        bound = next(
            (
                statement.targets[0].id
                for statement in ast.walk(scope)
                if isinstance(statement, ast.Assign)
                and statement.value is draw
                and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
            ),
            None,
        )
        handles.append((draw, bound))
    negated = {n.operand for n in ast.walk(scope) if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not)}
    for check in ast.walk(scope):
        if check in negated:
            continue  # `assert not jnp.allclose(a, b)`: the draws were meant to differ
        if isinstance(check, ast.Call):
            leaf = (callee_leaf(check) or "").lower()
            operands: list[ast.expr] = list(check.args) if "equal" in leaf or "close" in leaf else []
        elif isinstance(check, ast.Compare) and all(isinstance(op, ast.Eq) for op in check.ops):
            operands = [check.left, *check.comparators]
        else:
            continue
        if len(operands) >= 2 and all(any(_shows(o, draw, name) for o in operands) for draw, name in handles):
            return True
    return False


def _shows(operand: ast.expr, draw: ast.AST, name: str | None) -> bool:
    """Whether ``operand`` holds the draw: the call itself, or the name it is bound to."""
    return any(n is draw or (isinstance(n, ast.Name) and n.id == name) for n in ast.walk(operand))


def _held_elsewhere(ctx: Context, key: str) -> bool:
    """``self.key`` named from a function with no ``self``: the key an object's methods draw
    from, consumed here through calls of those methods (no fix can split it here)."""
    root = key.split(".", 1)[0]
    return root == "self" and "." in key and not is_local_name(ctx, root)


def _layer_and_other(ctx: Context, node: ast.Call, first: ast.AST) -> bool:
    """A layer built from the key (which splits it inside) and another consumer: they draw
    different bits from it, though not independent ones. Two alike layers draw the same."""
    names = [ctx.qualname(c.func) if isinstance(c, ast.Call) else None for c in (node, first)]
    layers = measured.key_consuming_layers()
    return any(name in layers for name in names) and names[0] != names[1]


def _is_split(ctx: Context, call: ast.AST) -> bool:
    return isinstance(call, ast.Call) and ctx.qualname(call.func) == "jax.random.split"


def _advice(key: str, rebindable: bool) -> str:
    if rebindable:
        return f"split it first, {split_advice(key)}"
    if plain_path_text(key):  # rebinding a global or closed-over name would make it local
        return f"split it into a key for each use, `key_1, key_2 = jax.random.split({key})`"
    return split_advice(key)


def _split_fix(
    node: ast.Call, ctx: Context, key: str, first: ast.AST
) -> SplitBeforeFirstUse | SplitForBoth | ThreadCarriedKey | None:
    """Rebind a local key by splitting it; split a key held by a local value (``batch.rng``,
    ``keys[0]``, ``params["key"]``) into fresh names, when both calls are in this function and
    pass it as an argument. Not a global, closed-over or ``self`` key, nor in code that repeats
    (a loop, a lax loop body): splitting it on every call or step consumes the same key again."""
    if not isinstance(first, ast.Call):
        return None
    if key.isidentifier() and is_local_name(ctx, key):
        return SplitBeforeFirstUse(key, first, _read_again(node, ctx, key))
    function = ctx.function.node if ctx.function is not None else None
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    statements = list(own_nodes(function.body))
    if not any(n is first for n in statements):
        return None  # the first draw is in another function
    if any(isinstance(n, REPEATING) and encloses(n, first) for n in statements):
        return None  # the first draw repeats in a loop the reuse is not in: the split would too
    first_argument, reuse_argument = passed_as(first, key), passed_as(node, key)
    if first_argument is None or reuse_argument is None or not plain_path(first_argument):
        return None
    root = path_root(first_argument)
    if root is None or root in ("self", "cls") or ctx.loops:
        return None
    if local_of_a_single_run(ctx.function, root):
        return SplitForBoth(key, first)
    index = _fori_step_index(ctx, root)
    if (
        index is not None
        and ctx.function is not None
        and not _array_items(first_argument)
        and drawn_only_at(ctx.function, root, key, (first, node))  # else other draws fold the same indices
    ):
        return SplitForBoth(key, first, index)
    # split again on every repetition, the same key would be consumed again: unless the carry
    # hands the new key back
    return thread_carried_key(ctx, key, (first, node))


def _array_items(path: ast.expr) -> bool:
    """Whether ``path`` takes an item other than a dict entry (``keys[0]``): if ``keys`` is a key
    array, JAX's key-reuse checker counts each slice as a use of it, on every step."""
    return any(
        isinstance(n, ast.Subscript)
        and not (isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str))
        for n in ast.walk(path)
    )


def _fori_step_index(ctx: Context, root: str) -> str | None:
    """The step index of the ``fori_loop`` body ``def`` this code is in, when the key's value
    ``root`` comes from the step's carry or from code around that runs once: folding the index
    in gives each step a key of its own."""
    info = ctx.function
    if info is None or info.repeated_by != "jax.lax.fori_loop" or not isinstance(info.node, ast.FunctionDef):
        return None
    index = step_counter(info)
    if index is None or root == index:
        return None
    if root in info.scope.bound:
        return index  # from the step's carry: a new value each step
    if local_of_a_single_run(info.parent, root) and handed_over_once(info):
        return index
    return None


def _read_again(reuse: ast.Call, ctx: Context, key: str) -> bool:
    """Whether ``key`` must still be fresh after ``reuse``: the code repeats (a loop, a lax loop
    body) or reads the name again after it (a later draw, a ``return key``)."""
    if ctx.loops or (ctx.function is not None and ctx.function.repeated_by):
        return True
    function = ctx.function.node if ctx.function is not None else None
    body = function.body if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
    end = (reuse.end_lineno or reuse.lineno, reuse.end_col_offset or 0)
    return any(
        isinstance(n, ast.Name)
        and n.id == key
        and isinstance(n.ctx, ast.Load)
        and (n.lineno, n.col_offset) >= end
        for n in own_nodes(body)
    )


def _indexed_copies(ctx: Context, node: ast.Call, first: ast.AST) -> tuple[str, ast.expr] | None:
    """``keys[0]`` and ``keys[1]`` drawn by ``first`` and ``node``, where the name ``keys`` is
    bound once to copies of one key (``[key] * 2``, ``[key, key]``): the name and the copies."""
    holders: set[str] = set()
    for call in (node, first):
        argument = call.args[0] if isinstance(call, ast.Call) and call.args else None
        if not (isinstance(argument, ast.Subscript) and isinstance(argument.value, ast.Name)):
            return None
        holders.add(argument.value.id)
    if len(holders) != 1:
        return None
    holder = holders.pop()
    owner = ctx.scope.lookup(holder)
    made = owner.single_value(holder) if owner is not None else None
    if made is None or split_copies(made) is None:
        return None
    return holder, made
