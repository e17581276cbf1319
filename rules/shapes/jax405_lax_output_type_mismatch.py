"""JAX405: a ``lax`` loop body that hands back its carry with another structure or dtype than
it was given, or ``cond``/``switch`` branches that return different ones."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import call_argument, callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic.bodies import own_nodes, returned_expressions
from jaxlint.semantic.functions import FunctionInfo

from ..support.dtypes import carry_mismatch
from ..support.explain import snippet
from ..support.lax_calls import branch_arguments, swapped_while_functions
from ..support.structures import DISPLAYS, IMPLICIT_NONE, Output, output_of, pairs, structure_differs

# loop -> (body position and keyword, carry position and keyword, whether the body returns
# (carry, output) rather than the carry)
LOOPS = {
    "jax.lax.fori_loop": ((2, "body_fun"), (3, "init_val"), False),
    "jax.lax.while_loop": ((1, "body_fun"), (2, "init_val"), False),
    "jax.lax.scan": ((0, "f"), (1, "init"), True),
}
BRANCHES = ("jax.lax.cond", "jax.lax.switch")
LEAVES = frozenset(name.rsplit(".", 1)[1] for name in [*LOOPS, *BRANCHES])


class LaxOutputTypeMismatch(Rule):
    """## What it does
    Finds a `lax.fori_loop`, `lax.while_loop` or `lax.scan` whose body hands back its carry
    with another structure (a tuple of three for a tuple of two, a list for a tuple) or another
    dtype (a float where the carry starts as `jnp.int32(0)` or `jnp.arange(n)`; an integer
    cast where it starts as a float) than the carry it starts with; and `lax.cond`/`lax.switch`
    branches that return different structures (a tuple and an array, `None` and an array) or
    dtypes (`0` in one branch, `0.5` in the other).

    Only what the code shows is compared: tuple and list displays, `None`, numbers, explicit
    dtypes (`jnp.int32(0)`, `.astype(jnp.int32)`, `dtype=jnp.int32`), and operations whose
    result is a float whatever their input (`c + 0.5`, `c / 2`, `jnp.exp(c)`).

    ## Why is this bad?
    A `lax` loop compiles its body once, for a carry of fixed structure, shape and dtype, and a
    `cond` compiles both branches into one program with one output type. JAX raises `TypeError`
    when it traces them ("body function carry input and carry output must have equal types",
    "cond branches must have equal output types"). A Python number as the initial carry is the
    one exception: JAX promotes `0` to the float the body returns, so a loop started at `0` may
    add `0.5`, while one started at `jnp.int32(0)` may not. Branches get no such promotion.

    ## Example
    ```python
    import jax.numpy as jnp
    from jax import lax

    def body(i, total):
        return total + 0.5 * i

    lax.fori_loop(0, 10, body, jnp.int32(0))
    ```

    ## Use instead
    ```python
    import jax.numpy as jnp
    from jax import lax

    def body(i, total):
        return total + 0.5 * i

    lax.fori_loop(0, 10, body, jnp.float32(0))
    ```

    ## Fix safety
    No automatic fix: which of the two types the program meant is the author's call.

    ## References
    - [Control flow](https://docs.jax.dev/en/latest/control-flow.html)
    - [Type promotion semantics](https://docs.jax.dev/en/latest/type_promotion.html)
    """

    code = "JAX405"
    name = "lax-output-type-mismatch"
    message = "A `lax` loop carry or `cond` branch output changes structure or dtype"
    outcome = "TypeError when JAX traces the loop or branch"
    visits_anywhere = frozenset({ast.Call})

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if callee_leaf(node) not in LEAVES:
            return
        qualname = ctx.qualname(node.func)
        if qualname in LOOPS and swapped_while_functions(ctx, node) is None:  # (swapped: JAX637)
            self.check_loop(node, ctx, qualname)
        elif qualname in BRANCHES:
            self.check_branches(node, ctx, qualname)

    def check_loop(self, node: ast.Call, ctx: Context, qualname: str) -> None:
        (body_at, body_keyword), (carry_at, carry_keyword), pairs = LOOPS[qualname]
        body_argument = call_argument(node, body_at, body_keyword)
        start = call_argument(node, carry_at, carry_keyword)
        if body_argument is None or start is None:
            return
        found = ctx.model.resolve_function(body_argument, ctx.scope)
        if found is None:
            return
        body = found[0]
        initial = output_of(ctx, start, ctx.scope)
        loop = "lax." + qualname.rsplit(".", 1)[1]
        for returned in _returns(body):
            if pairs and self.check_pair(node, ctx, body, output_of(ctx, returned, body.scope)):
                return
            carried = _carry_of(returned, pairs)
            if carried is None:
                continue
            carry = _carry_parameter(body, qualname)
            differing = _carry_difference(
                initial, output_of(ctx, carried, body.scope, function=body, carry=carry)
            )
            if differing is not None:
                before, after = differing
                handed = _handing_back(ctx, body, after)
                at, through = _site(body, after)
                changed = _changed_key_site(before, after)
                if changed is not None:  # where the body adds or deletes the key
                    at = through = changed
                ctx.report(
                    at,
                    f"{handed} where the carry of `{loop}` (line {node.lineno}) starts as {before.describe()} "
                    f"(`{snippet(ctx, before.node)}`): a loop carry keeps its structure and dtype, so "
                    f"JAX raises `TypeError` (carry input and output types differ); start the carry "
                    f"with the type the body returns",
                    end=through,
                )
                return

    def check_pair(self, node: ast.Call, ctx: Context, body: FunctionInfo, out: Output) -> bool:
        """A ``scan`` body must return a pair, ``(carry, output)``: report one that does not."""
        if out.shape in ("unknown", "tuple", "list") and (out.shape == "unknown" or len(out.items) == 2):
            return False
        handed = _handing_back(ctx, body, out)
        at, through = _site(body, out)
        ctx.report(
            at,
            f"{handed}, but a `lax.scan` body must return a pair, `(carry, output)` (line "
            f"{node.lineno}): JAX raises `TypeError` (scan body output must be a pair); return "
            f"`new_carry, y`, or `new_carry, None` when there is no per-step output",
            end=through,
        )
        return True

    def check_branches(self, node: ast.Call, ctx: Context, qualname: str) -> None:
        branches = branch_arguments(ctx, node, qualname)
        if branches is None:
            return
        outputs: list[tuple[FunctionInfo, Output]] = []
        for branch in branches:
            found = ctx.model.resolve_function(branch, ctx.scope)
            if found is None:
                return
            function = found[0]
            outputs += [
                (function, output_of(ctx, r, function.scope, function=function)) for r in _returns(function)
            ]
        if not outputs:
            return
        primitive = "lax." + qualname.rsplit(".", 1)[1]
        for index, (second, b) in enumerate(outputs[1:], start=1):
            found = next(
                (
                    (earlier, d)
                    for earlier, a in outputs[:index]
                    if (d := _branch_difference(a, b)) is not None
                ),
                None,
            )  # the first earlier branch it differs from
            if found is None:
                continue
            first, differing = found
            here, there = differing
            at, through = _site(second, there)
            ctx.report(
                at,
                f"{_returning(ctx, second, there)} where {_returning(ctx, first, here)}: the "
                f"branches of `{primitive}` (line {node.lineno}) must return the same structure and "
                f"dtype, so JAX raises `TypeError`; return the same type from every branch",
                end=through,
            )
            return


def _site(function: FunctionInfo, output: Output) -> tuple[ast.AST, ast.AST]:
    """Where to report ``output`` (from, through): a def without ``return`` from its ``def``
    through its last parameter."""
    if not output.implicit:
        return output.node, output.node
    node = function.node
    parameters = [*node.args.posonlyargs, *node.args.args]
    return node, parameters[-1] if parameters else node


def _handing_back(ctx: Context, body: FunctionInfo, output: Output) -> str:
    if output.implicit:
        return f"`{body.name}` has no `return`, so it hands back `None`"
    return f"`{snippet(ctx, output.node)}` in `{body.name}` hands back {output.describe()}"


def _returning(ctx: Context, function: FunctionInfo, output: Output) -> str:
    if output.implicit:
        return f"`{function.name}` returns `None` (it has no `return`)"
    return f"`{snippet(ctx, output.node)}` in `{function.name}` returns {output.describe()}"


def _returns(function: FunctionInfo) -> list[ast.expr]:
    """What the function returns, when it has one ``return`` (with several, a Python branch on
    a static value may pick which one is traced): ``None`` for a def that never returns a value
    and cannot end otherwise (no ``raise``, no ``yield``)."""
    returned = returned_expressions(function.node)
    if _always_raises(function):
        return []
    if returned or isinstance(function.node, ast.Lambda):
        return returned if len(returned) == 1 else []
    body = getattr(function.node, "body", [])
    nodes = list(own_nodes(body))
    if any(isinstance(n, (ast.Return, ast.Raise, ast.Yield, ast.YieldFrom)) for n in nodes):
        return []
    return [IMPLICIT_NONE]


def _always_raises(function: FunctionInfo) -> bool:
    """A def whose body raises before it can return: a ``raise`` or ``assert False`` at its top."""
    body = function.node.body
    return isinstance(body, list) and any(
        isinstance(s, ast.Raise)
        or (isinstance(s, ast.Assert) and isinstance(s.test, ast.Constant) and not s.test.value)
        for s in body
    )


def _carry_of(returned: ast.expr, scan_pair: bool) -> ast.expr | None:
    if not scan_pair:
        return returned
    if isinstance(returned, DISPLAYS) and len(returned.elts) == 2:
        return returned.elts[0]
    return None


def _carry_parameter(body: FunctionInfo, loop: str) -> str | None:
    """The parameter of a loop body that receives the carry (``fori_loop`` bodies take the
    index first)."""
    names = body.positional_names()
    index = 1 if loop == "jax.lax.fori_loop" else 0
    return names[index] if index < len(names) else None


def _changed_key_site(start: Output, out: Output) -> ast.stmt | None:
    """The statement of a carry copy that adds a key the carry did not start with, or deletes
    one it did."""
    if start.shape != "dict" or out.shape != "carry_dict":
        return None
    for key, site in zip([*out.keys, *out.removed], out.sites):
        if (key in start.keys) == (key in out.removed):
            return site
    return None


def _carry_difference(start: Output, out: Output) -> tuple[Output, Output] | None:
    for a, b in pairs(start, out):
        if structure_differs(a, b):
            return a, b
        if a.kind is not None and b.kind is not None and carry_mismatch(a.kind, b.kind):
            return a, b
    return None


def _branch_difference(a: Output, b: Output) -> tuple[Output, Output] | None:
    for x, y in pairs(a, b):
        if structure_differs(x, y):
            return x, y
        if x.kind is not None and y.kind is not None and x.kind.kind != y.kind.kind:
            return x, y
    return None
