"""JAX611: a function (or another object that is not a JAX type) passed as an argument that a
jitted function traces."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import FixAvailability, Rule
from jaxlint.fixing.plans import MarkStatic
from jaxlint.semantic import api
from jaxlint.semantic.measured import is_jax_function
from jaxlint.semantic.scopes import Scope

from ..support.dtypes import named_dtype_kind
from ..support.explain import snippet
from ..support.jitted import JitCall, jitted_callee

PARTIAL_OBJECTS = frozenset({"functools.partial"})
# decorators that leave a def a function object (a JAX transformation returns another function)
FUNCTION_DECORATORS_ROOTS = ("jax.", "functools.")


class NonArrayArgumentToJit(Rule):
    """## What it does
    Finds a call of a jitted function (`@jax.jit`, `jax.jit(f)`, `nnx.jit`) that passes a
    function to a parameter that is not static: a `def` or a lambda of this module, a method
    bound to `self`, a function of `jax.numpy`, `jax.nn`, `jax.lax`, `jax.random` or
    `jax.scipy`, or a `functools.partial` object; or an object that is not a pytree of
    arrays: an optax optimizer (a `GradientTransformation`, a NamedTuple of functions), a
    flax.linen module (a dataclass, not a pytree), a dtype (`jnp.int8`, `np.float32`,
    `jnp.dtype("float16")`), a string (`"relu"`), or a tuple or list written with strings in it
    (`frozen=("b",)`).

    ## Why is this bad?
    `jax.jit` traces every argument that is not static as an array (a pytree of arrays). A
    function is not a JAX type: the call raises `TypeError` ("Error interpreting argument to
    ... as an abstract array. The problematic value is of type <class 'function'>"), under an
    outer `jit` too; so is an optimizer or a linen module. Passing the loss, the activation or
    the optimizer as an argument is how the same code is written eagerly, which is why it is
    an easy mistake to make.

    ## Example
    ```python
    import jax
    import jax.numpy as jnp

    def mse(pred, y):
        return jnp.mean((pred - y) ** 2)

    @jax.jit
    def step(w, x, y, loss_fn):
        return jax.grad(lambda w: loss_fn(x @ w, y))(w)

    step(w, x, y, mse)
    ```

    ## Use instead
    ```python
    import jax
    import jax.numpy as jnp
    import functools

    def mse(pred, y):
        return jnp.mean((pred - y) ** 2)

    @functools.partial(jax.jit, static_argnames=("loss_fn",))
    def step(w, x, y, loss_fn):
        return jax.grad(lambda w: loss_fn(x @ w, y))(w)

    step(w, x, y, mse)
    ```
    A static argument must be hashable, which functions, optimizers and linen modules are, and
    jit compiles once per distinct one. Or close over the function, or wrap it in `jax.tree_util.Partial`, a
    pytree.

    ## Fix safety
    Unsafe: the parameter joins `static_argnames` of the jit. Each distinct function object
    then compiles its own version: a lambda or a `partial` made anew for every call compiles on
    every call. Offered for a named function, never for a lambda or `partial` written at the
    call.

    ## References
    - [jax.jit: static_argnums and static_argnames](https://docs.jax.dev/en/latest/_autosummary/jax.jit.html)
    """

    code = "JAX611"
    name = "non-array-argument-to-jit"
    message = "A function or another non-array object is passed to a traced parameter of a jitted function"
    outcome = "TypeError: the argument is not a valid JAX type"
    fix_title = "Mark the parameter static with `static_argnames`"
    fix_availability = FixAvailability.SOMETIMES

    def visit_Call(self, node: ast.Call, ctx: Context) -> None:
        callee = jitted_callee(ctx, node)
        if callee is None:
            return
        for argument in [*node.args, *(k.value for k in node.keywords if k.arg)]:
            if isinstance(argument, ast.Starred):
                break
            parameter = callee.parameter(node, argument)
            kind = None if parameter is None or parameter in callee.static else _non_array_kind(ctx, argument)
            if parameter is not None and kind is not None:
                self.check(argument, parameter, kind, callee, ctx)

    def check(self, argument: ast.expr, parameter: str, kind: str, callee: JitCall, ctx: Context) -> None:
        # a lambda or `partial` made at the call compiles anew on each call; a list is unhashable
        named = not isinstance(argument, (ast.Lambda, ast.Call, ast.List))
        ctx.report(
            argument,
            f"`{snippet(ctx, argument)}` is {kind}, passed to `{parameter}` of jitted `{callee.info.name}`, "
            f"which traces it as an array: it is not a JAX type, so the call raises `TypeError` "
            f'("Error interpreting argument ... as an abstract array"); mark `{parameter}` static '
            f"(`static_argnames`), or close over it instead of passing it",
            fix=MarkStatic(parameter, callee.info.node) if named else None,
        )


def _non_array_kind(ctx: Context, argument: ast.expr) -> str | None:
    """What object that is no JAX type ``argument`` certainly is (a function, an optimizer, a
    linen module, strings), as a message fragment; None when not certain."""
    if isinstance(argument, ast.Lambda):
        return "a lambda"
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        return "a string"
    if isinstance(argument, (ast.Tuple, ast.List)):
        return _strings(argument)
    if isinstance(argument, ast.Call):
        qualname = ctx.model.qualname(argument.func, ctx.scope)
        if qualname in ("jax.numpy.dtype", "numpy.dtype"):
            return "a dtype"
        return "a `functools.partial` object" if qualname in PARTIAL_OBJECTS else None
    if not isinstance(argument, (ast.Name, ast.Attribute)):
        return None
    if named_dtype_kind(ctx.model, argument, ctx.scope) is not None:  # `jnp.int8`, `float`
        return "a dtype"
    qualname = ctx.model.qualname(argument, ctx.scope)
    if qualname is not None:
        return f"the function `{qualname}`" if is_jax_function(qualname) else None
    if isinstance(argument, ast.Attribute):
        return "a bound method" if _bound_method(ctx, argument) else None
    owner = ctx.scope.lookup(argument.id)
    if owner is None:
        return None
    definition = owner.single_def(argument.id)
    if isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)) and _stays_a_function(ctx, definition):
        return "a function"
    value = owner.single_value(argument.id)
    if isinstance(value, ast.Lambda):
        return "a lambda"
    if isinstance(value, ast.Tuple):
        return _strings(value)
    return _made_object(ctx, value, owner) if isinstance(value, ast.Call) else None


def _strings(display: ast.Tuple | ast.List) -> str | None:
    """A tuple or list written with a string in it (``frozen=("b",)``): a string is no JAX type."""
    if not any(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in display.elts):
        return None
    return "a tuple holding strings" if isinstance(display, ast.Tuple) else "a list holding strings"


def _made_object(ctx: Context, call: ast.Call, owner: Scope) -> str | None:
    """What object ``call`` makes that is not a JAX type: an optax optimizer (a NamedTuple of
    functions) or a flax.linen module (a dataclass, not a pytree)."""
    qualname = ctx.model.qualname(call.func, owner)
    if qualname in api.OPTAX_OPTIMIZERS:
        return f"an optax optimizer (`{qualname}`: a `GradientTransformation`, a NamedTuple of functions)"
    cls = ctx.model.class_named(call.func, owner)
    if cls is not None and ctx.model.is_flax_module(cls):
        return f"a flax.linen module (`{cls.name}`: a dataclass, not a pytree)"
    return None


def _bound_method(ctx: Context, argument: ast.Attribute) -> bool:
    """``self.loss`` where ``loss`` is a method of the class (or a base of this module) that no
    method stores over on ``self``, and not a property: a bound method object."""
    if not isinstance(argument.value, ast.Name):
        return False
    cls = ctx.model.class_of_self(ctx.scope, argument.value.id)
    if cls is None or ctx.model.self_stores(cls).get(argument.attr):
        return False
    member = ctx.model.class_member(cls, argument.attr)
    if not isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    return not any(_decorator_name(d) in ("property", "cached_property") for d in member.decorator_list)


def _decorator_target(decorator: ast.expr) -> ast.expr:
    """What a decorator names: ``f`` of ``@f`` and of ``@f(...)``."""
    return decorator.func if isinstance(decorator, ast.Call) else decorator


def _decorator_name(decorator: ast.expr) -> str | None:
    target = _decorator_target(decorator)
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else None


def _stays_a_function(ctx: Context, definition: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A def whose decorators, if any, are JAX's or functools' (which give a function back): a
    decorator of another library may make it anything."""
    scope = ctx.model.index.parents.get(definition, ctx.model.index.module)
    for decorator in definition.decorator_list:
        qualname = ctx.model.qualname(_decorator_target(decorator), scope) or ""
        if not qualname.startswith(FUNCTION_DECORATORS_ROOTS) or qualname == "jax.tree_util.Partial":
            return False
    return True
