"""JAX303: a PRNG key made from a constant seed inside a loop or a repeated body."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.astutil import call_argument, encloses
from jaxlint.engine.context import Context
from jaxlint.engine.diagnostics import FixRequest
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.semantic import api
from jaxlint.semantic.bodies import step_counter
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.keys import constant_fold
from jaxlint.semantic.transforms import MAPPING, REPEATING
from jaxlint.semantic.values import is_traced, key_ids

from ..support.blocks import own_nodes, statement_path, stores_name
from ..support.explain import function_name, names_assigned_in, snippet
from .carry import carried_names, hands_back_carried, read_by_nested

# what makes a key from a seed, or from saved key data (`wrap_key_data(SAVED)`): the same
# argument, the same key
KEY_SOURCES = api.KEY_CONSTRUCTORS | {"jax.random.wrap_key_data"}
CONSTRUCTOR_NAMES = frozenset(name.rsplit(".", 1)[1] for name in KEY_SOURCES)
RNGS = frozenset({"flax.nnx.Rngs", "flax.nnx.rnglib.Rngs"})
RESEEDS = frozenset({"flax.nnx.reseed", "flax.nnx.rnglib.reseed"})
STACKERS = frozenset({"jax.numpy.stack", "jax.numpy.array", "jax.numpy.asarray"})


@dataclass(frozen=True)
class HoistKey(FixRequest):
    """Move ``assign`` (``key = PRNGKey(seed)``, a statement of ``loop``'s body) before ``loop``,
    split ``key`` per iteration, and read the subkey at ``uses`` (every later read in the body)."""

    loop: ast.For | ast.AsyncFor | ast.While
    assign: ast.Assign
    key: str
    uses: tuple[ast.Name, ...]
    fold_index: str | None = None  # a fori_loop body's step index, folded into the hoisted key


@dataclass(frozen=True)
class SplitCarriedKey(FixRequest):
    """Split the key ``carried`` that a ``scan``/``while_loop`` body carries and hands back, on
    every step, and use the new key for the one made from a constant seed: before ``statement``
    (of the body), ``carried, subkey = split(carried)``; with ``target``, the statement is
    ``target = <the key made>`` and becomes ``carried, target = split(carried)``."""

    carried: str
    statement: ast.stmt
    target: str | None


@dataclass(frozen=True)
class FoldStepIndex(FixRequest):
    """``fold_in(<the key made>, index)``: a key of its own for each step of a ``fori_loop``."""

    index: str


class ConstantSeedKeyInLoop(Rule):
    """## What it does
    Finds `jax.random.PRNGKey(seed)` / `jax.random.key(seed)` with a seed that does not change
    from one iteration to the next, created inside a Python loop or comprehension that repeats
    the same work (its loop variable is unused, as in `for _ in range(n)`), or inside a function
    that a `lax` loop or `vmap` runs repeatedly (`lax.scan`, `fori_loop`, `while_loop`,
    `lax.map`, `vmap`). In a `lax` loop body, a Python loop whose iterations differ
    (`fold_in(key(0), i)`) still makes the same keys on every step. So does
    `jax.random.fold_in(base_key, epoch)` in a loop that changes neither (an inner loop whose
    variable is unused): `fold_in` does not consume its key, and the same inputs make the same
    key. So does `nnx.Rngs(dropout=0)` made on every iteration (its streams start over), and
    `jnp.stack([key] * n)` scanned over by `lax.scan` (a copy of one key for each step). Also a
    function that was
    given a key (a parameter named `key`, `rng`, `*_key`..., or stax's `kwargs.get('rng')`)
    and replaces it, unread and not under a test of its own parameters, with a key of a fixed
    seed.

    ## Why is this bad?
    The same seed makes the same key, so every iteration (or every batch element under `vmap`)
    draws identical "random" numbers; a function that replaces the key it was given draws the
    same numbers on every call, whatever key its caller passes. Create the key once, outside, and split it per iteration,
    or fold the iteration index into it with `jax.random.fold_in(key, i)`.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def sample_paths(x0):
        paths = []
        for _ in range(3):
            key = jax.random.PRNGKey(0)
            paths.append(x0 + jax.random.normal(key, x0.shape))
        return jnp.stack(paths)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    def sample_paths(x0):
        paths = []
        key = jax.random.PRNGKey(0)
        for _ in range(3):
            key, subkey = jax.random.split(key)
            paths.append(x0 + jax.random.normal(subkey, x0.shape))
        return jnp.stack(paths)
    ```

    ## Fix safety
    The fix hoists the key creation above the loop and splits it at the top of the body. Unsafe
    by nature: the numbers drawn change. In a `fori_loop` body the step index is folded into the
    key (`jax.random.fold_in(jax.random.key(0), i)`), and in a `while_loop` body the counter it
    unpacks from its carry and hands back as `count + 1`; the key is hoisted to the top of the
    body first where a Python loop of identical iterations repeats it too. In a `scan` or
    `while_loop` body whose carry holds a key that the body only hands back, that key is split on
    every step and the new key takes the constant one's place (`key, key0 =
    jax.random.split(key)`): the next step draws from the key handed back. It is not offered
    where the hoisted key would still be re-created each time (inside an outer loop, or in a
    function that `vmap`, `scan` or a `while_loop` without such a counter or key repeats). A
    constant-seed key folded with data that changes (a loop variable, a step index, a counter)
    is not reported. A `fold_in` of values the loop does not change gets the loop variable
    folded in too (`fold_in(fold_in(base_key, epoch), step)`), where the loop has a named one.

    ## References
    - [JAX: Pseudorandom numbers](https://docs.jax.dev/en/latest/random-numbers.html)
    """

    code = "JAX303"
    name = "constant-seed-key-in-loop"
    message = "A PRNG key with a constant seed is re-created on every iteration"
    outcome = "every iteration (or batch element) draws identical random numbers"
    fix_title = "Create the key once outside the loop and split it per iteration"
    fix_availability = FixAvailability.SOMETIMES
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        func = node.func
        tail = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if tail == "fold_in" and ctx.loops:
            self.check_fold(node, ctx)
            return
        if tail in ("Rngs", "reseed") and ctx.loops:
            self.check_rngs(node, ctx)
            return
        if tail in ("stack", "array", "asarray"):
            self.check_copies(node, ctx)
            return
        seed = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "seed"), None)
        if tail not in CONSTRUCTOR_NAMES or seed is None or ctx.qualname(func) not in KEY_SOURCES:
            return
        if any(isinstance(n, (ast.Call, ast.Await, ast.Yield)) for n in ast.walk(seed)):
            return
        if is_traced(ctx.value(seed)):
            return
        names = {n.id for n in ast.walk(seed) if isinstance(n, ast.Name)}
        names |= _folded_with(ctx, node) | _picked_with(ctx, node)
        replaced = _replaced_key(ctx, names)
        if replaced is not None:
            ctx.report(
                node,
                f"`{replaced} = {snippet(ctx, node)}` replaces the key `{replaced}` that "
                f"`{function_name(ctx)}` was given with one made from a fixed seed: every call draws "
                f"the same random numbers, whatever key the caller passes; draw from `{replaced}`",
            )
            return
        ignored = _unread_key_parameter(ctx, names)
        if ignored is not None and not _varied(ctx, node):
            ctx.report(
                node,
                f"`{snippet(ctx, node)}` makes a key of a fixed seed in `{function_name(ctx)}`, which "
                f"never reads the key `{ignored}` it is given: every call draws the same random "
                f"numbers, whatever key the caller passes; draw from `{ignored}`",
            )
            return
        where = self.repetition(ctx, ctx.loops, names)
        counters = _range_counters(ctx, names) if ctx.loops and where is None else None
        if where is None and (not ctx.loops or counters) and _read_where_repeated(ctx):
            caller = _called_in_loop(ctx, names)
            if caller is not None:
                same = (
                    f"the same keys (seeded by its loop counter `{counters}`)" if counters else "the same key"
                )
                ctx.report(
                    node,
                    f"`{snippet(ctx, node)}` makes {same} on every call of "
                    f"`{function_name(ctx)}`, and the loop at line {caller} calls it on every "
                    f"iteration: each iteration draws identical random numbers; pass `{function_name(ctx)}` "
                    f"a key split from one made once outside the loop",
                )
                return
            if counters:
                return
            lines = _called_twice(ctx, names)
            if lines is not None:
                ctx.report(
                    node,
                    f"`{snippet(ctx, node)}` makes the same key on every call of `{function_name(ctx)}`, "
                    f"which is called {_twice(lines)}: each call draws identical "
                    f"random numbers; pass `{function_name(ctx)}` a key, split anew for each call",
                )
            return
        if where is None or not _read_where_repeated(ctx):
            return
        # hoisted out of its loop, the key must not land in another repetition, unless that is
        # the step of a fori_loop, whose index then goes into it
        hoistable = ctx.loops and self.repetition(ctx, ctx.loops[:-1], names) is None
        if where.startswith("for every element"):
            if not _drawn_alike(ctx, node):
                return  # folded, split or handed on with what may differ per element
            ctx.report(
                node,
                f"`{snippet(ctx, node)}` is re-created with the same seed {where}: every element "
                f"draws identical random numbers; split one key per element outside "
                f"(`jax.random.split(key, n)`) and map over the keys",
            )
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` is re-created with the same seed {where}: every iteration "
            f"draws identical random numbers; create the key once outside and split it per iteration",
            fix=self.hoist(ctx) if hoistable else self.fold_step(ctx, node, where),
        )

    def check_copies(self, node: ast.Call, ctx: Context) -> None:
        """``keys = jnp.stack([key] * n)`` scanned over (``lax.scan(step, x0, keys)``): every
        step gets a copy of the same key and draws the same numbers."""
        if ctx.qualname(node.func) not in STACKERS or len(node.args) != 1 or ctx.function is None:
            return
        copied = _copied_item(node.args[0])
        assign = ctx.parent
        if copied is None or not isinstance(assign, ast.Assign) or len(assign.targets) != 1:
            return
        target = assign.targets[0]
        if not isinstance(target, ast.Name) or not (
            key_ids(ctx.value(copied)) or (isinstance(copied, ast.Name) and _key_name(copied.id))
        ):
            return
        scan = _scanned_over(ctx, target.id)
        if scan is None:
            return
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` holds copies of one key, `{snippet(ctx, copied)}`, and `lax.scan` at line "
            f"{scan.lineno} hands one copy to each step: every step draws identical random numbers; split the key "
            f"into one per step, `jax.random.split({snippet(ctx, copied)}, n)`",
        )

    def check_rngs(self, node: ast.Call, ctx: Context) -> None:
        """``nnx.Rngs(dropout=0)`` made again on every iteration, or ``nnx.reseed(model,
        dropout=1)`` run on every iteration: the streams start from the same seeds, so every
        iteration draws the same numbers (a dropout mask, a noise; measured with flax 0.12.8)."""
        qualname = ctx.qualname(node.func)
        reseeding = qualname in RESEEDS
        if not (qualname in RNGS or reseeding) or not (node.args or node.keywords):
            return
        seeds = (
            [k.value for k in node.keywords] if reseeding else [*node.args, *(k.value for k in node.keywords)]
        )
        if not seeds or not all(isinstance(s, ast.Constant) and type(s.value) is int for s in seeds):
            return
        where = self.repetition(ctx, ctx.loops, set())
        if where is None or not _read_where_repeated(ctx):
            return
        ctx.report(
            node,
            (
                f"`{snippet(ctx, node)}` resets the streams to the same seeds {where}"
                if reseeding
                else f"`{snippet(ctx, node)}` is made again with the same seeds {where}: its streams start over"
            )
            + ", so every iteration draws identical random numbers (the same dropout mask); "
            + (
                "reseed once, before the loop"
                if reseeding
                else "make the `Rngs` once, before the loop, and pass that one each time"
            ),
        )

    def check_fold(self, node: ast.Call, ctx: Context) -> None:
        """``fold_in(base_key, epoch)`` in a loop where neither changes (and the loop variable is
        unused): the same key on every iteration, as a constant seed makes."""
        if ctx.qualname(node.func) != "jax.random.fold_in" or len(node.args) != 2 or node.keywords:
            return
        if constant_fold(node):
            return  # a constant folded in: the key walker reports its draws (JAX302)
        parts = [n for argument in node.args for n in ast.walk(argument)]
        if any(isinstance(n, (ast.Call, ast.Await, ast.Yield, ast.NamedExpr)) for n in parts):
            return  # a call may differ each time (a constant-seed key inside is checked itself)
        names = {n.id for n in parts if isinstance(n, ast.Name)}
        loop = ctx.loops[-1]
        if names & names_assigned_in(ctx, loop) or _iterations_differ(loop) or not _read_where_repeated(ctx):
            return
        if not key_ids(ctx.value(node.args[0])):
            return
        target = getattr(loop, "target", None)
        index = target.id if isinstance(target, ast.Name) and target.id.strip("_") else None
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` makes the same key on every iteration of the loop at line "
            f"{loop.lineno}: nothing it folds changes there, so each iteration draws identical "  # pyright: ignore[reportAttributeAccessIssue]
            f"random numbers; fold in what changes per iteration too"
            + (f" (`jax.random.fold_in({snippet(ctx, node)}, {index})`)" if index else ""),
            fix=FoldStepIndex(index) if index else None,
        )

    def fold_step(
        self, ctx: Context, node: ast.Call, where: str
    ) -> HoistKey | FoldStepIndex | SplitCarriedKey | None:
        """In a ``fori_loop`` body: the step index folded into the key where only the steps
        repeat it; hoisted to the top of the body and folded there, where a Python loop of
        identical iterations repeats it too. In a body with no step index, a key it carries."""
        index = _step_index(ctx)
        if index is None:
            return _split_carried(ctx, node)
        if where.startswith("on every iteration of `"):
            # in a Python loop whose iterations differ, the step index alone leaves every
            # iteration the same key: only a key the loop already folds its data into is fixed
            return FoldStepIndex(index) if not ctx.loops or _folded_with(ctx, node) else None
        return self.hoist(ctx, index) if len(ctx.loops) == 1 else None

    def hoist(self, ctx: Context, fold_index: str | None = None) -> HoistKey | None:
        """The fix when the key is made by ``key = ...`` straight in the body of the innermost loop."""
        loop, assign = ctx.loops[-1], ctx.parent
        if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) or not isinstance(assign, ast.Assign):
            return None
        if assign not in loop.body or len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name):
            return None
        key = assign.targets[0].id
        position = loop.body.index(assign)
        earlier, later = loop.body[:position], loop.body[position + 1 :]
        uses = [n for n in own_nodes(later) if isinstance(n, ast.Name) and n.id == key]
        if any(isinstance(n, ast.Name) and n.id == key for n in own_nodes(earlier)):
            return None  # the key is used before it is made
        if any(not isinstance(n.ctx, ast.Load) for n in uses):
            return None  # rebound later in the loop
        if any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) for n in own_nodes(later)):
            return None  # a function defined in the body may read the key later
        return HoistKey(loop, assign, key, tuple(uses), fold_index)

    def repetition(self, ctx: Context, loops: tuple[ast.AST, ...], seed_names: set[str]) -> str | None:
        """Where a key made at this call would be re-created with the same seed, inside ``loops``."""
        function = ctx.function
        repeated_by = function.repeated_by if function is not None else None
        if loops:
            loop = loops[-1]
            if not (seed_names & names_assigned_in(ctx, loop) or _iterations_differ(loop)):
                return f"on every iteration of the loop at line {loop.lineno}"  # pyright: ignore[reportAttributeAccessIssue]
            if repeated_by not in REPEATING:
                return None
            # the loop's iterations differ, but every step of the lax loop around, or every
            # element of the vmap (device of the pmap), makes them again
        step = _step_index(ctx) if repeated_by == "jax.lax.while_loop" else None
        if function is not None and repeated_by and not seed_names & {*function.params, step}:
            if repeated_by in MAPPING:
                return f"for every element that `{repeated_by}` maps"
            return f"on every iteration of `{repeated_by}`"
        return None


def _called_in_loop(ctx: Context, seed_names: set[str]) -> int | None:
    """The line of a loop, anywhere in the module, whose every iteration calls the current
    function by its name (``step(x)`` in ``for _ in range(n)``, the loop variable unused) when
    the seed comes from none of its parameters: each call makes the same key again. None for a
    method, a function whose name is defined twice, or where no such loop is in sight."""
    function = ctx.function
    if function is None or function.is_method or seed_names & function.parameter_names():
        return None
    name = getattr(function.node, "name", None)
    if name is None:
        return None
    index = ctx.model.index
    if not any(name in scope.called for scope in [index.module, *index.functions]):
        return None  # called nowhere in this module (a cheap question, asked first)
    loops = _loops_calling(ctx).get(name, [])
    return min(loops) if loops and _defined_once(ctx, name) else None


def _called_twice(ctx: Context, seed_names: set[str]) -> tuple[int, int] | None:
    """The lines of two calls in sight of the current function, a compiled one (a step,
    called once per batch: every use of it is such a call), when the seed comes from none of
    its parameters: the two draw the same numbers. A plain function called twice with a fixed
    seed is often a reproducibility check, and stays silent."""
    function = ctx.function
    if function is None or function.is_method or seed_names & function.parameter_names():
        return None
    if ctx.model.compiled_root(function) is not function:
        return None
    calls = ctx.model.calls_in_sight(function)
    lines = sorted(call.lineno for call, _ in calls or [])
    return (lines[0], lines[1]) if len(lines) >= 2 else None


def _twice(lines: tuple[int, int]) -> str:
    return f"twice at line {lines[0]}" if lines[0] == lines[1] else f"at lines {lines[0]} and {lines[1]}"


def _loops_calling(ctx: Context) -> dict[str, list[int]]:
    """For each name, the lines of the loops of identical iterations whose body calls it
    (memoised: one walk of the module)."""
    found: dict[str, list[int]] | None = ctx.memo.get("loops-calling")
    if found is not None:
        return found
    found = ctx.memo["loops-calling"] = {}
    # one walk; each node with the line of the innermost loop of alike iterations around it in
    # its own function (None: none)
    stack: list[tuple[ast.AST, int | None]] = [(ctx.model.tree, None)]
    while stack:
        node, loop = stack.pop()
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and loop is not None:
            found.setdefault(node.func.id, []).append(loop)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            inner = None
        elif isinstance(node, (ast.For, ast.While, *COMPREHENSIONS)) and not _iterations_differ(node):
            inner = node.lineno
        else:
            inner = loop
        if isinstance(node, (ast.For, ast.While)):
            body = {id(statement) for statement in node.body}
        elif isinstance(node, COMPREHENSIONS):  # what runs per element (not the first iterable)
            body = {id(part) for part in _comprehension_parts(node)}
        else:
            body = ()
        for child in ast.iter_child_nodes(node):
            stack.append((child, inner if id(child) in body or inner is None or inner == loop else loop))
    return found


COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _comprehension_parts(node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> list[ast.AST]:
    elements: list[ast.AST] = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
    return elements + [part for g in node.generators for part in g.ifs]


def _range_counters(ctx: Context, seed_names: set[str]) -> str | None:
    """The seed's names, where each is the variable of a loop around the key of the current
    function over ``range(stop)`` (from 0, or another literal start): every call of the function
    makes the same keys in the same order, whatever ``stop`` is. None otherwise."""
    counters = {
        loop.target.id
        for loop in ctx.loops
        if isinstance(loop, ast.For)
        and isinstance(loop.target, ast.Name)
        and isinstance(loop.iter, ast.Call)
        and isinstance(loop.iter.func, ast.Name)
        and loop.iter.func.id == "range"
        and 1 <= len(loop.iter.args) <= 2
        and (len(loop.iter.args) == 1 or isinstance(loop.iter.args[0], ast.Constant))
    }
    function = ctx.function
    if not seed_names or not seed_names <= counters or function is None:
        return None
    if any(function.scope.bound.get(name) != 1 for name in seed_names):
        return None  # rebound in the body: not the counter alone
    return ", ".join(sorted(seed_names))


def _defined_once(ctx: Context, name: str) -> bool:
    return sum(1 for info in ctx.model.infos.values() if info.name == name) == 1


def _split_carried(ctx: Context, made: ast.Call) -> SplitCarriedKey | None:
    """The fix for a key made at the top of a ``scan``/``while_loop`` body (not in a Python loop
    there) that carries a key it only hands back: split that key on every step instead."""
    info = ctx.function
    if info is None or ctx.loops or not isinstance(info.node, ast.FunctionDef):
        return None
    body = info.node.body
    statement = next((s for s in body if encloses(s, made)), None)
    carried = next((name for name in carried_names(info) if _carries_a_key_only(ctx, body, info, name)), None)
    if statement is None or isinstance(statement, ast.Return) or carried is None:
        return None
    if any(stores_name(n, carried) for n in own_nodes(body[body.index(statement) :])):
        return None  # unpacked from the carry after the key is made
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and statement.value is made:
        target = statement.targets[0]
        return SplitCarriedKey(carried, statement, target.id if isinstance(target, ast.Name) else None)
    return SplitCarriedKey(carried, statement, None)


def _carries_a_key_only(ctx: Context, body: list[ast.stmt], info: FunctionInfo, name: str) -> bool:
    """Whether the lax loop body ``info`` (statements ``body``) carries a PRNG key in ``name``
    (named as keys are, and a key as far as the model knows) and only hands it back: it reads it
    in its ``return`` statements alone, and no function nested in it reads it."""
    if not _key_name(name) or not hands_back_carried(info, name) or read_by_nested(body, name):
        return False
    nodes = list(own_nodes(body))
    reads = [n for n in nodes if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    returns = [n for n in nodes if isinstance(n, ast.Return)]
    # each `return` hands it back once (hands_back_carried), and nothing else reads it
    return len(reads) == len(returns) and all(key_ids(ctx.value(n)) for n in reads)


def _read_where_repeated(ctx: Context) -> bool:
    """Whether the key made is used inside what repeats it: a key assigned to a name that the
    loop (or the repeated function) never reads draws nothing there (``while tries: key = ...``)."""
    assign = ctx.parent
    if (
        not isinstance(assign, ast.Assign)
        or len(assign.targets) != 1
        or not isinstance(assign.targets[0], ast.Name)
    ):
        return True
    region = ctx.loops[-1] if ctx.loops else ctx.function.node if ctx.function is not None else None
    if region is None:
        return True
    key = assign.targets[0].id
    return any(
        isinstance(n, ast.Name) and n.id == key and isinstance(n.ctx, ast.Load) for n in ast.walk(region)
    )


# annotations of parameters that hand a function its random streams
RNG_STREAMS = frozenset({"flax.nnx.Rngs", "flax.nnx.rnglib.Rngs"})

KEY_PARAMETER_NAMES = frozenset({"key", "rng", "prng", "prng_key", "rng_key", "prngkey"})


def _replaced_key(ctx: Context, seed_names: set[str]) -> str | None:
    """The key a function was given that ``name = PRNGKey(seed)`` throws away: ``name`` is a
    parameter named as a key (or read from ``**kwargs`` under its name, stax's
    ``rng = kwargs.get('rng')``), never read before, and the seed is none of the parameters."""
    function, assign = ctx.function, ctx.parent
    if function is None or not isinstance(assign, ast.Assign) or len(assign.targets) != 1:
        return None
    target = assign.targets[0]
    if not isinstance(target, ast.Name) or not _key_name(target.id):
        return None
    params = {p.arg for p in function.param_nodes()}
    if seed_names & params:
        return None
    body = getattr(function.node, "body", [])
    earlier = [n for n in own_nodes(body) if getattr(n, "lineno", assign.lineno) < assign.lineno]
    if any(isinstance(n, ast.Name) and n.id == target.id and isinstance(n.ctx, ast.Load) for n in earlier):
        return None
    tests = _conditions_around(body, assign)
    if tests is None or not all(_fixed_per_function(function, test) for test in tests):
        return None  # only on some calls (`if deterministic:`): the others use the key given
    kwargs = function.node.args.kwarg
    given = target.id in params or (
        kwargs is not None and any(_reads_keyword(n, kwargs.arg, target.id) for n in earlier)
    )
    return target.id if given else None


VARYING_USES = frozenset({"jax.random.fold_in", "jax.eval_shape"})


def _varied(ctx: Context, node: ast.Call) -> bool:
    """Whether the fixed key is folded with data (``fold_in(base, step)``), picked by a varying
    index (``split(key, n)[head]``) or never drawn from (``jax.eval_shape``): directly, or
    through the name it is bound to."""
    uses: list[list[ast.AST]] = [list(ctx.ancestors())]
    parent = next((a for a in ctx.ancestors() if isinstance(a, ast.stmt)), None)  # `keys = split(key(0), n)`
    function = ctx.function
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and function is not None:
        target = parent.targets[0]
        if isinstance(target, ast.Name):
            parents = {
                child: outer for outer in ast.walk(function.node) for child in ast.iter_child_nodes(outer)
            }
            for use in ast.walk(function.node):
                if isinstance(use, ast.Name) and use.id == target.id and isinstance(use.ctx, ast.Load):
                    chain, current = [], parents.get(use)
                    while current is not None:
                        chain.append(current)
                        current = parents.get(current)
                    uses.append(chain)
    for chain in uses:
        for holder in chain:
            if isinstance(holder, ast.Call) and ctx.qualname(holder.func) in VARYING_USES:
                return True
            if isinstance(holder, ast.Subscript) and not isinstance(holder.slice, ast.Constant):
                return True
            if isinstance(holder, ast.stmt):
                break
    return False


def _unread_key_parameter(ctx: Context, seed_names: set[str]) -> str | None:
    """A parameter annotated as a source of random streams (``nnx.Rngs``) that the function
    making a key of a fixed seed never reads, in any branch: the seed is none of its parameters.
    (A parameter merely named ``key`` and left unread is often plumbing of a fixed-seed draw
    that is meant: the ground truth calls such programs correct.)"""
    function = ctx.function
    if function is None:
        return None
    params = function.param_nodes()
    if seed_names & {p.arg for p in params}:
        return None
    read = {n.id for n in ast.walk(function.node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if params and params[0].arg not in read and _linen_initializer(ctx, function.node):
        return params[0].arg  # flax calls it with a key of its own for each parameter
    if isinstance(function.node, ast.Lambda):
        return None
    for param in params:
        if param.arg not in read and _annotated_streams(ctx, param.annotation):
            return param.arg
    return None


def _linen_initializer(ctx: Context, function: ast.AST) -> bool:
    """Whether ``function`` is a lambda given as the initializer of ``self.param(name, init,
    ...)`` in a flax linen module, which flax calls with a key (its first parameter)."""
    call = ctx.model.parent_map.get(function)
    if not isinstance(function, ast.Lambda) or not isinstance(call, ast.Call):
        return False
    func = call.func
    given = (call.args[1:2] == [function]) or any(
        k.arg == "init_fn" and k.value is function for k in call.keywords
    )
    if not (
        given
        and isinstance(func, ast.Attribute)
        and func.attr == "param"
        and isinstance(func.value, ast.Name)
    ):
        return False
    cls = ctx.model.class_of_self(ctx.model.scope_of_load(func.value), func.value.id)
    return cls is not None and ctx.model.is_flax_module(cls)


def _annotated_streams(ctx: Context, annotation: ast.expr | None) -> bool:
    """Whether an annotation names ``nnx.Rngs`` (also ``nnx.Rngs | None``, ``Optional[...]``,
    or quoted)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return False
    if annotation is None:
        return False
    return any(
        isinstance(n, (ast.Name, ast.Attribute)) and ctx.qualname(n) in RNG_STREAMS
        for n in ast.walk(annotation)
    )


def _conditions_around(body: list[ast.stmt], statement: ast.stmt) -> list[ast.expr] | None:
    """The tests of the ``if`` statements of ``body`` that hold ``statement``; None where another
    compound statement holds it (a loop, ``try``, ``match``, ``with``)."""
    path = statement_path(body, statement)
    if not path:
        return []
    holders = [block[index] for block, index in path]
    if holders[-1] is not statement or not all(isinstance(h, ast.If) for h in holders[:-1]):
        return None
    return [h.test for h in holders[:-1]]  # pyright: ignore[reportAttributeAccessIssue]


def _fixed_per_function(function: FunctionInfo, test: ast.expr) -> bool:
    """Whether ``test`` reads only closure variables of an enclosing function (stax's ``mode``,
    fixed when the layer is made), so every call of ``function`` takes the same branch."""
    names = [n.id for n in ast.walk(test) if isinstance(n, ast.Name)]
    for name in names:
        owner = function.scope.lookup(name)
        if owner is None or owner is function.scope or owner.kind != "function":
            return False
    return bool(names)


def _copied_item(expr: ast.expr) -> ast.expr | None:
    """``key`` in ``[key] * n``, ``n * [key]`` or ``[key for _ in range(n)]``."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        display = expr.left if isinstance(expr.left, ast.List) else expr.right
        if isinstance(display, ast.List) and len(display.elts) == 1:
            return display.elts[0]
    if isinstance(expr, ast.ListComp) and len(expr.generators) == 1:
        names = {n.id for n in ast.walk(expr.generators[0].target) if isinstance(n, ast.Name)}
        if not any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr.elt)):
            return expr.elt
    return None


def _scanned_over(ctx: Context, name: str) -> ast.Call | None:
    """The ``lax.scan`` of the current function that scans over ``name`` (its ``xs``)."""
    for node in own_nodes(getattr(ctx.function.node, "body", [])):  # pyright: ignore[reportOptionalMemberAccess]
        if isinstance(node, ast.Call) and ctx.qualname(node.func) == "jax.lax.scan":
            xs = call_argument(node, 2, "xs")
            if isinstance(xs, ast.Name) and xs.id == name:
                return node
    return None


def _key_name(name: str) -> bool:
    return name in KEY_PARAMETER_NAMES or name.endswith(("_key", "_rng"))


def _reads_keyword(node: ast.AST, kwargs: str, name: str) -> bool:
    """``kwargs.get("rng")`` or ``kwargs["rng"]``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        base, first = node.func.value, node.args[0] if node.args else None
    elif isinstance(node, ast.Subscript):
        base, first = node.value, node.slice
    else:
        return False
    return (
        isinstance(base, ast.Name)
        and base.id == kwargs
        and isinstance(first, ast.Constant)
        and first.value == name
    )


def _drawn_alike(ctx: Context, node: ast.Call) -> bool:
    """Whether the key ``node`` makes reaches its draws unchanged for every mapped element: drawn
    from directly, or folded with constants and the variables of loops over constant ranges,
    wherever it is read (through names bound once). A key split, indexed, folded with anything
    else (a mapped argument, an axis index) or handed to another function may differ per
    element, so nothing is claimed."""
    function = ctx.function
    return function is not None and _drawn_here(ctx, node, function, depth=0)


def _drawn_here(ctx: Context, key: ast.expr, function: FunctionInfo, depth: int) -> bool:
    """Whether ``key`` is the key argument of a ``jax.random`` draw, itself, folded with constants
    and loop variables over constant ranges, split into keys drawn from (unpacked, or indexed by
    constants), or through the one name it is bound to."""
    parent = ctx.model.parent_map.get(key)
    if depth > 4:
        return False
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1:
        target = parent.targets[0]
        if isinstance(target, ast.Name):
            return _reads_drawn(ctx, target.id, function, depth + 1)
        if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
            # `k1, k2 = split(key)`: the keys read are drawn from (one left unused says nothing)
            names = [e.id for e in target.elts]  # pyright: ignore[reportAttributeAccessIssue]
            read = [n for n in names if _reads_of(n, function)]
            return bool(read) and all(_reads_drawn(ctx, n, function, depth + 1) for n in read)
        return False
    if isinstance(parent, ast.Subscript) and parent.value is key and isinstance(parent.slice, ast.Constant):
        return _drawn_here(ctx, parent, function, depth + 1)  # `keys[1]` of a split
    if isinstance(parent, ast.Call) and parent.args and parent.args[0] is key:
        qualname = ctx.qualname(parent.func) or ""
        data = parent.args[1:]
        if qualname in ("jax.random.fold_in", "jax.random.split") and all(
            _unvarying(d, function) for d in data
        ):
            return _drawn_here(ctx, parent, function, depth + 1)
        module, _, tail = qualname.rpartition(".")
        return module == "jax.random" and tail in api.RANDOM_CONSUMERS and tail != "split"
    return False


def _reads_drawn(ctx: Context, name: str, function: FunctionInfo, depth: int) -> bool:
    """Whether ``name``, bound once in ``function``, is read and every read is drawn from."""
    if function.scope.bound.get(name) != 1:
        return False
    reads = _reads_of(name, function)
    return bool(reads) and all(_drawn_here(ctx, read, function, depth) for read in reads)


def _reads_of(name: str, function: FunctionInfo) -> list[ast.Name]:
    return [
        n
        for n in own_nodes(_statements(function))
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]


def _statements(function: FunctionInfo) -> list[ast.stmt]:
    node = function.node
    return node.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else []


def _unvarying(data: ast.expr, function: FunctionInfo) -> bool:
    """Whether ``data`` is the same for every mapped element: constants and the variables of
    Python loops over constant ranges in ``function``."""
    loop_variables = {
        loop.target.id
        for loop in own_nodes(_statements(function))
        if isinstance(loop, ast.For)
        and isinstance(loop.target, ast.Name)
        and isinstance(loop.iter, ast.Call)
        and isinstance(loop.iter.func, ast.Name)
        and loop.iter.func.id == "range"
        and all(isinstance(a, ast.Constant) for a in loop.iter.args)
    }
    return all(
        isinstance(n, (ast.Constant, ast.expr_context, ast.operator))
        or (isinstance(n, ast.Name) and n.id in loop_variables and function.scope.bound.get(n.id) == 1)
        or isinstance(n, ast.BinOp)
        for n in ast.walk(data)
    )


def _folded_with(ctx: Context, node: ast.Call) -> set[str]:
    """The names in the data of ``fold_in(<node>, data)`` when ``node`` is that key: the key
    drawn from then changes wherever they do (a loop variable, a step index)."""
    parent = ctx.parent
    if not isinstance(parent, ast.Call) or not parent.args or parent.args[0] is not node:
        return set()
    if ctx.qualname(parent.func) != "jax.random.fold_in" or len(parent.args) < 2:
        return set()
    return {n.id for n in ast.walk(parent.args[1]) if isinstance(n, ast.Name)}


def _picked_with(ctx: Context, node: ast.Call) -> set[str]:
    """The names in the index of ``split(<node>, n)[index]``, directly or through the name the
    split is bound to: the key drawn from then changes wherever they do."""
    parent = ctx.parent
    if not isinstance(parent, ast.Call) or not parent.args or parent.args[0] is not node:
        return set()
    if ctx.qualname(parent.func) != "jax.random.split" or ctx.function is None:
        return set()
    ancestors = list(ctx.ancestors())
    holder = ancestors[1] if len(ancestors) > 1 else None
    indexes: list[ast.expr] = []
    if isinstance(holder, ast.Subscript) and holder.value is parent:
        indexes.append(holder.slice)
    elif (
        isinstance(holder, ast.Assign)
        and len(holder.targets) == 1
        and isinstance(holder.targets[0], ast.Name)
    ):
        name = holder.targets[0].id
        indexes.extend(
            use.slice
            for use in ast.walk(ctx.function.node)
            if isinstance(use, ast.Subscript) and isinstance(use.value, ast.Name) and use.value.id == name
        )
    return {n.id for index in indexes for n in ast.walk(index) if isinstance(n, ast.Name)}


def _step_index(ctx: Context) -> str | None:
    """The name that differs on every step of the lax loop ``def`` body this code is in (a ``fori_loop``
    index, a ``while_loop`` counter): folded into a key made once per step, it gives each step
    keys of its own."""
    info = ctx.function
    return step_counter(info) if info is not None and isinstance(info.node, ast.FunctionDef) else None


def _iterations_differ(loop: ast.AST) -> bool:
    """Whether the loop variable is used in the body: iterations then differ (in shapes, say),
    and one seed per iteration may be meant. A `for _ in range(n)` repeats the same work."""
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        targets, body = [loop.target], loop.body
    elif isinstance(loop, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        targets = [g.target for g in loop.generators]
        body = [loop.elt] if not isinstance(loop, ast.DictComp) else [loop.key, loop.value]
    else:
        return False
    names = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return any(
        isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load)
        for part in body
        for n in ast.walk(part)
    )
