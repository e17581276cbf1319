"""JAX105: Python's or NumPy's random numbers, or the clock, read inside a traced function."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import api
from jaxlint.semantic.transforms import MAPPING
from jaxlint.semantic.values import is_traced

from ..support.explain import function_name, snippet, why_traced

STDLIB_RANDOM = frozenset(
    [
        "random",
        "uniform",
        "randint",
        "randrange",
        "choice",
        "choices",
        "shuffle",
        "sample",
        "gauss",
        "normalvariate",
        "lognormvariate",
        "expovariate",
        "betavariate",
        "gammavariate",
        "triangular",
        "vonmisesvariate",
        "paretovariate",
        "weibullvariate",
        "getrandbits",
        "randbytes",
        "binomialvariate",
    ]
)
NUMPY_RNG_FACTORIES = frozenset({"numpy.random.default_rng", "numpy.random.RandomState"})
NUMPY_NON_DRAWS = frozenset(
    {
        "default_rng",
        "RandomState",
        "Generator",
        "SeedSequence",
        "PCG64",
        "PCG64DXSM",
        "MT19937",
        "Philox",
        "SFC64",
        "BitGenerator",
        "get_state",
    }
)
# Clocks and entropy: values that differ on every call, frozen into the program at trace time.
CLOCK_READS = api.CLOCKS | frozenset(
    {
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
        "datetime.date.today",
    }
)
CLOCKS_AND_ENTROPY = CLOCK_READS | frozenset(
    {"os.urandom", "uuid.uuid1", "uuid.uuid4"}
    | {f"secrets.{name}" for name in ("randbelow", "randbits", "choice", "token_bytes", "token_hex")}
)


def _shaped(node: ast.Call) -> bool:
    """A NumPy draw given a shape: ``size=...``, or the dimensions of ``rand``/``randn``."""
    func = node.func
    sized = any(k.arg == "size" for k in node.keywords)
    return sized or (isinstance(func, ast.Attribute) and func.attr in ("rand", "randn") and bool(node.args))


class PythonRandomnessInTracedFunction(Rule):
    """## What it does
    Finds `random.*`, `np.random.*` (and draws from NumPy generators), `time.time()`,
    `datetime.now()`, `os.urandom` and `uuid4()` inside functions JAX traces abstractly, and
    a tracer given as the seed of Python's or NumPy's generators (`np.random.default_rng(seed)`
    with a traced `seed`), which raises.

    ## Why is this bad?
    These run in Python, once, while JAX traces the function; the number they return is
    compiled into the program as a constant. Every later call reuses it: the "random" noise is
    the same on every step and the "timestamp" never moves. Nothing fails, the results are
    just wrong. A bare `jax.vmap` traces the function again on every call, but once for the
    whole batch: an array of NumPy draws there (`size=x.shape`) is the same for every element.

    ## Example
    ```python
    import jax
    import numpy as np

    @jax.jit
    def add_noise(x):
        return x + 0.1 * np.random.normal(size=x.shape)
    ```

    ## Use instead
    ```python
    import jax

    @jax.jit
    def add_noise(key, x):
        return x + 0.1 * jax.random.normal(key, x.shape)
    ```

    ## Fix safety
    No automatic fix: the function needs a PRNG key argument, which changes its callers.

    ## References
    - [JAX: Pseudorandom numbers](https://docs.jax.dev/en/latest/random-numbers.html)
    - [JAX: Common gotchas, pure functions](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions)
    """

    code = "JAX105"
    traced_only = True
    name = "python-randomness-in-traced-function"
    message = "Python-side randomness or clock in a traced function is frozen at trace time"
    outcome = "the value drawn while tracing is compiled in and repeats on every call"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if self.check_traced_seed(node, ctx):
            return
        if not ctx.trace_reused:
            self.check_mapped(node, ctx)  # traced afresh on every call: one draw per call
            return
        what = self.describe(node, ctx)
        if what is None:
            return
        cure = (
            "read the clock outside and pass its value as an argument"
            if ctx.qualname(node.func) in CLOCK_READS
            else "use `jax.random` with a key argument"
        )
        ctx.report(
            node,
            f"`{what}(...)` in `{function_name(ctx)}` runs only while JAX traces it (once per compilation): its result is "
            f"compiled in as a constant and repeats on every call ({why_traced(ctx)}); {cure}",
        )

    def check_traced_seed(self, node: ast.Call, ctx: Context) -> bool:
        """``np.random.default_rng(seed)`` with a traced ``seed``: Python's and NumPy's
        generators take a Python number as their seed, and raise given a tracer."""
        qualname = ctx.qualname(node.func) or ""
        error = api.SEEDING_FUNCTIONS.get(qualname)
        seed = (
            node.args[0]
            if node.args
            else next((k.value for k in node.keywords if k.arg in ("seed", "a", "x")), None)
        )
        if error is None or seed is None or not is_traced(ctx.value(seed)):
            return False
        name = qualname.replace("numpy.", "np.")
        ctx.report(
            node,
            f"`{name}` is given traced `{snippet(ctx, seed)}` as its seed: it needs a Python number, so "
            f"it raises `{error}` ({why_traced(ctx, seed)}); make a JAX key from it, "
            f"`jax.random.key({snippet(ctx, seed)})`, and draw with `jax.random`",
        )
        return True

    def check_mapped(self, node: ast.Call, ctx: Context) -> None:
        """An array of NumPy draws in a function a bare ``vmap`` maps: one draw per trace,
        shared by the batch (a scalar draw may be meant once per call)."""
        function = ctx.function
        mapping = function.repeated_by if function is not None and ctx.traced_to_run else None
        if mapping not in MAPPING or not _shaped(node):
            return
        what = self.describe(node, ctx)
        generator = ctx.qualname(node.func) is None  # `rng.normal(size=...)` of a NumPy generator
        if what is None or not (what.startswith("np.random.") or generator):
            return
        ctx.report(
            node,
            f"`{what}(...)` in `{function_name(ctx)}` runs once, while `{mapping}` traces it, not once "
            f"per element: every element of the batch gets the same numbers; draw with "
            f"`jax.random` from a key per element (`jax.random.split(key, n)`, mapped with the batch)",
        )

    def describe(self, node: ast.Call, ctx: Context) -> str | None:
        qualname = ctx.qualname(node.func)
        if qualname is not None:
            module, _, attribute = qualname.rpartition(".")
            if module == "random" and attribute in STDLIB_RANDOM:
                return qualname
            if module == "numpy.random" and attribute not in NUMPY_NON_DRAWS:
                return qualname.replace("numpy.", "np.")
            if qualname in CLOCKS_AND_ENTROPY:
                return qualname
            return None
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner = ctx.scope.lookup(func.value.id)
            value = None if owner is None else owner.assigned.get(func.value.id)
            if (
                isinstance(value, ast.Call)
                and owner is not None
                and ctx.model.qualname(value.func, owner) in NUMPY_RNG_FACTORIES
                and not (owner.function is ctx.scope.function and _seeded(value))
            ):
                return f"{func.value.id}.{func.attr}"
        return None


def _seeded(factory: ast.Call) -> bool:
    """Whether a generator is made with a seed (``default_rng(self.seed)``): made afresh on
    every run of the function, it draws the same numbers on every eager call too, so the trace
    freezes nothing (measured: jit matches eager)."""
    seed = (
        factory.args[0]
        if factory.args
        else next((k.value for k in factory.keywords if k.arg == "seed"), None)
    )
    return seed is not None and not (isinstance(seed, ast.Constant) and seed.value is None)
