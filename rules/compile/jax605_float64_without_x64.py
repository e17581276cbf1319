"""JAX605: float64 requested in a module that never enables ``jax_enable_x64``."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import callee_leaf
from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule
from jaxlint.semantic import api
from jaxlint.semantic.values import is_jax_array, is_static, is_traced

from ..support.dtypes import mentions_x64
from ..support.explain import snippet

WIDE = {
    "jax.numpy.float64": "float32",
    "jax.numpy.double": "float32",
    "jax.numpy.complex128": "complex64",
    "jax.numpy.cdouble": "complex64",
    "numpy.float64": "float32",
    "numpy.double": "float32",
    "numpy.complex128": "complex64",
    "numpy.cdouble": "complex64",
}
WIDE_STRINGS = {"float64": "float32", "double": "float32", "complex128": "complex64", "f8": "float32"}
CONSTRUCTORS = frozenset(
    {"jax.numpy.float64", "jax.numpy.double", "jax.numpy.complex128", "jax.numpy.cdouble"}
)
# Where the dtype goes when passed by position.
DTYPE_POSITION = {
    "jax.numpy.zeros": 1,
    "jax.numpy.ones": 1,
    "jax.numpy.empty": 1,
    "jax.numpy.array": 1,
    "jax.numpy.asarray": 1,
    "jax.numpy.zeros_like": 1,
    "jax.numpy.ones_like": 1,
    "jax.numpy.empty_like": 1,
    "jax.numpy.astype": 1,
    "jax.numpy.full": 2,
    "jax.numpy.full_like": 2,
    "jax.lax.convert_element_type": 1,
}
# Callees worth resolving when no `dtype=` keyword is given.
DTYPE_LEAVES = frozenset(name.rsplit(".", 1)[1] for name in [*CONSTRUCTORS, *DTYPE_POSITION]) | {"astype"}


class Float64WithoutX64(Rule):
    """## What it does
    Finds float64 (or complex128) requested from JAX in a module that never mentions
    `jax_enable_x64`: `dtype=jnp.float64` (or `np.float64`, `"float64"`) passed to a `jax.numpy`,
    `lax` or `jax.random` function, `x.astype(jnp.float64)` on a JAX array, and `jnp.float64(x)`.
    Any mention of x64 in the module (`jax.config.update("jax_enable_x64", True)`,
    `jax.enable_x64(...)`, `JAX_ENABLE_X64`, a comment) keeps the rule silent.

    The rule cannot see x64 enabled elsewhere: by the `JAX_ENABLE_X64` environment variable, by a
    `--jax_enable_x64` flag, or by another module (a package `__init__`, a `conftest.py`). Suppress it
    there with `# noqa: JAX605`, or set `jax.config.update("jax_enable_x64", True)` where the
    64-bit code lives.

    ## Why is this bad?
    By default JAX computes in 32 bits: a request for float64 only emits a `UserWarning` ("Explicitly
    requested dtype float64 requested in zeros is not available, and will be truncated to dtype
    float32") and returns float32 (complex64 for complex128). Code that needs the precision
    silently loses it. Enable x64 at startup, or ask for float32.

    ## Example
    ```python
    import jax.numpy as jnp

    def accumulator(n):
        return jnp.zeros(n, dtype=jnp.float64)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    def accumulator(n):
        return jnp.zeros(n, dtype=jnp.float64)
    ```

    ## Fix safety
    No automatic fix: whether to enable x64 for the whole program or to use float32 is a design
    decision.

    ## References
    - [JAX sharp bits: double (64-bit) precision](https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#double-64bit-precision)
    - [jax.enable_x64](https://docs.jax.dev/en/latest/_autosummary/jax.enable_x64.html)
    """

    code = "JAX605"
    name = "float64-without-x64"
    message = "float64 is requested but `jax_enable_x64` is never enabled"
    outcome = "UserWarning, and a float32 (complex64) array instead of float64 (complex128)"
    severity = "warning"

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        if not (node.keywords or node.args) or (
            callee_leaf(node) not in DTYPE_LEAVES and not any(k.arg == "dtype" for k in node.keywords)
        ):
            return
        qualname = ctx.qualname(node.func)
        dtype = self.requested(node, qualname, ctx)
        if dtype is None or mentions_x64(ctx):
            return
        wide, narrow = dtype
        ctx.report(
            node,
            f"`{snippet(ctx, node)}` asks for {wide}, but this module never enables `jax_enable_x64`: "
            f"JAX warns and returns {narrow}; enable x64 at startup "
            f'(`jax.config.update("jax_enable_x64", True)`) or request {narrow}',
        )

    def requested(self, node: ast.Call, qualname: str | None, ctx: Context) -> tuple[str, str] | None:
        if qualname in CONSTRUCTORS:
            return qualname.removeprefix("jax.numpy."), WIDE[qualname]
        candidates = [k.value for k in node.keywords if k.arg == "dtype"]
        if qualname is not None:
            if not qualname.startswith(api.JAX_ARRAY_NAMESPACES):
                return None
            position = DTYPE_POSITION.get(qualname)
            if position is not None and position < len(node.args):
                candidates.append(node.args[position])
        elif isinstance(node.func, ast.Attribute) and node.func.attr == "astype":
            wide = self.wide(node.args[:1], ctx)
            if wide is None:
                return None  # (asked first: the receiver's value may cost an analysis)
            receiver = ctx.value(node.func.value)
            array = (is_jax_array(receiver) and not is_static(receiver)) or is_traced(receiver)
            return wide if array else None  # a tracer with `.astype` is an array
        else:
            return None
        return self.wide(candidates, ctx)

    @staticmethod
    def wide(candidates: list[ast.expr], ctx: Context) -> tuple[str, str] | None:
        """The 64-bit dtype one of ``candidates`` names, and its 32-bit counterpart."""
        for candidate in candidates:
            if isinstance(candidate, ast.Constant) and candidate.value in WIDE_STRINGS:
                return candidate.value, WIDE_STRINGS[candidate.value]
            spelled = ctx.qualname(candidate)
            if spelled in WIDE:
                return spelled.rsplit(".", 1)[1], WIDE[spelled]
        return None
