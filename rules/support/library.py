"""A library function compiled by ``jax.jit`` and called: ``step = jax.jit(jnp.unique); step(x)``.

``jit`` traces every argument it does not mark static, so the library function receives tracers
and its own rules apply at the call: a parameter that must be static (JAX403), an output whose
size depends on the data (JAX402), a conversion to a Python value (JAX503).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from jaxlint.engine.context import Context
from jaxlint.semantic.tracing import static_names, static_positions
from jaxlint.semantic.transforms import COMPILING_TRANSFORMS
from jaxlint.semantic.values import InstanceRef, is_jax_array, is_traced_leaf, record_kind, refs


@dataclass(frozen=True)
class JittedLibraryCall:
    """A call of ``jax.jit(<library function>)``: which function, and which arguments are traced."""

    qualname: str  # the library function: `jax.numpy.unique`, `builtins.float`, `math.sqrt`
    static: frozenset[int]  # the positions `static_argnums` keeps static
    static_names: frozenset[str] = frozenset()  # the parameters `static_argnames` keeps static

    def traced(self, node: ast.Call) -> list[ast.expr]:
        """The positional arguments of ``node`` that jit traces. `static_argnames` is not
        consulted: the data arguments the rules ask about are arrays, which cannot be static."""
        return [argument for position, argument in enumerate(node.args) if position not in self.static]

    @property
    def short(self) -> str:
        """The name as users write it: `jnp.unique`, `float`, `math.sqrt`."""
        name = self.qualname.replace("jax.numpy.", "jnp.").replace("jax.lax.", "lax.")
        return name.removeprefix("builtins.")


def jitted_library_call(ctx: Context, node: ast.Call) -> JittedLibraryCall | None:
    """``node`` calls a library function through ``jax.jit`` (None if not, or if its
    ``static_argnums`` are not literals, or if an argument is starred)."""
    library = ctx.model.transformed_library_calls.get(node)
    if library is None:
        return None
    jits = [layer for layer in library.layers if layer.transform in COMPILING_TRANSFORMS]
    if not jits or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    static, names = static_positions(jits[-1].call), static_names(jits[-1].call)
    if static is None or names is None:
        return None
    return JittedLibraryCall(library.qualname, frozenset(static), frozenset(names))


def array_method_receiver(ctx: Context, node: ast.Call) -> ast.expr | None:
    """The array in ``x.min(axis)``, a method call on a JAX array or a tracer (a traced leaf is
    an array), which runs the ``jax.numpy`` function of that name; None where the receiver may
    be something else: a list, a record, an object of this module's classes, or any value
    where a class of this module defines a method of that name."""
    func = node.func
    if not isinstance(func, ast.Attribute) or _index_update(func.value):
        return None
    value = ctx.value(func.value)
    if not is_jax_array(value):
        if not is_traced_leaf(value) or record_kind(value) is not None:
            return None
        if any(isinstance(ref, InstanceRef) for ref in refs(value)) or ctx.model.defines_method(func.attr):
            return None
    return func.value


def _index_update(node: ast.expr) -> bool:
    """``x.at[i]``: its ``min``/``max``/``set`` are functional updates, not reductions."""
    return (
        isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "at"
    )
