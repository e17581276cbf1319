"""The catalogue of JAX transformations and what each one does to the function it is given.

A transformation is applied as a decorator (``@jax.jit``, ``@partial(jax.jit, static_argnames=...)``)
or a call (``jax.jit(f)``, ``lax.scan(body, ...)``, ``jax.jit(jax.grad(f))``). Each entry says how
abstract the function's values become, and which parameters it traces. The levels, checked with
JAX 0.10.2 by running a Python ``if`` on ``jnp.zeros(()).sum() == 0`` under each transformation:

- :data:`STAGED` (``jit``, ``pmap``, ``checkpoint``, ``eval_shape``, ``shard_map``, ``lax`` bodies):
  the function is staged out into a program, so every JAX operation gives a tracer, even on
  constants (omnistaging);
- :data:`ABSTRACT` (a bare ``vmap``): the batched arguments are tracers, but operations on
  constants run eagerly and give concrete arrays;
- :data:`CONCRETE` (a bare ``grad``): the differentiated arguments are JVP tracers carrying
  concrete values: Python control flow, ``bool()``, ``int()`` work; ``float()``, NumPy conversion
  and storing them outside the function do not;
- :data:`HOST` (callbacks): the function runs on the host with concrete values.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Literal

NONE = 0
CONCRETE = 1
ABSTRACT = 2
STAGED = 3
HOST = -1


Kind = Literal[
    "jit",
    "remat",
    "fresh_remat",
    "pmap",
    "vmap",
    "grad",
    "body",
    "filter",
    "filter_vmap",
    "callback",
    "wrapper",
    "flax",
]
"""What a transformation does with the function it gets, which decides how its parameters are
traced (:mod:`jaxlint.semantic.tracing`) and what rules conclude:

- ``jit``: traces every parameter but the static ones, compiles, and caches the program on the
  function (so a global read is frozen until the next compilation: JAX103);
- ``remat``: ``jax.checkpoint``: traces like ``jit`` and caches the traced program on the function
  (even called eagerly, and even wrapped anew: measured with JAX 0.10.2, a side effect runs once
  and a global read is frozen across eager calls of the same shapes), but compiles nothing;
  ``fresh_remat``: the same applied to a function object made anew on each call (a lambda, a
  ``partial``, a bound method, a ``def`` nested in the caller), which misses that cache;
- ``pmap``: like ``jit``, per device; ``filter``: equinox's ``filter_jit``, arrays traced by annotation;
- ``vmap``: traces the parameters whose ``in_axes`` is not ``None``; traced again on every call;
  ``filter_vmap``: equinox's, arrays traced by annotation;
- ``grad``: concrete values (a bare ``grad`` does not make Python control flow fail);
- ``body``: a function a ``lax`` primitive calls (``scan``, ``fori_loop``, ``cond``...), traced
  afresh each time the caller runs;
- ``callback``: runs on the host with concrete values (``pure_callback``, ``io_callback``);
- ``wrapper``: a decorator that changes nothing JAX sees (``functools.wraps``, ``beartype``);
- ``flax``: a flax module method, traced under ``apply``/``init``.
"""

# Kinds that compile the function and cache the program on it: what it reads at trace time stays
# frozen until it is traced again.
CACHING_KINDS: frozenset[Kind] = frozenset({"jit", "remat", "pmap", "filter"})
# The kinds that stage every argument a call passes (a Python number too): a parameter with a
# default is traced where some call passes it, and keeps its default where none does.
CALL_STAGING: frozenset[Kind] = frozenset({"jit", "remat", "pmap"})
# Of these, the kinds that compile (`checkpoint` caches its trace without compiling it).
JITTING_KINDS: frozenset[Kind] = frozenset({"jit", "pmap", "filter"})
# equinox's: they trace the arrays they are given and hold everything else static
FILTER_KINDS: frozenset[Kind] = frozenset({"filter", "filter_vmap"})
# Kinds that never hash the function they are given, so an unhashable callable object (a
# dataclass, an equinox module holding arrays) is traced through its `__call__` (measured).
UNHASHING_KINDS: frozenset[Kind] = frozenset({"vmap", "grad", "filter_vmap"})
# Kinds under which the Python code of a function runs once per trace, not once per call (or per
# step): compiled and cached, a lax body (run as a traced loop or branch), a flax module method
# (applied under `jit` in training code). A bare vmap or grad runs it on every call.
TRACE_REUSING_KINDS: frozenset[Kind] = CACHING_KINDS | frozenset[Kind]({"body", "flax"})


@dataclass(frozen=True)
class Transform:
    """How one JAX API treats the function(s) it receives."""

    name: str
    level: int
    kind: Kind
    fn_positions: tuple[int, ...] = (0,)
    fn_keywords: tuple[str, ...] = ("fun", "f")
    arity: int | None = None  # leading parameters a body receives; None: all
    operands_from: int | None = None  # body arity = positional args from this index on
    static_argnums: str | None = None  # keyword naming static positions
    static_argnames: str | None = None
    # where a body's parameters come from: for each leading parameter, the call's argument
    # (position, keyword) whose pytree it receives, its leaves traced (sliced along the leading
    # axis for `scan`'s xs, which keeps the structure); None: a fresh tracer (fori_loop's index)
    feeds: tuple[tuple[int, str] | None, ...] = ()
    unmapped: str | None = None  # keyword naming the positions and names a mapping passes through

    @property
    def abstract(self) -> bool:
        return self.level >= ABSTRACT

    @property
    def evaluates(self) -> bool:
        """Whether a call runs the function and returns its results (``lax.scan``), rather than
        returning a transformed function (``jax.jit``)."""
        return self.kind in ("body", "callback") or self.name in EVALUATING


def _jit(
    name: str, argnums: str | None = "static_argnums", argnames: str | None = "static_argnames"
) -> Transform:
    return Transform(name, STAGED, "jit", static_argnums=argnums, static_argnames=argnames)


def _body(
    name: str,
    positions: tuple[int, ...],
    keywords: tuple[str, ...],
    arity: int | None = None,
    operands_from: int | None = None,
    feeds: tuple[tuple[int, str] | None, ...] = (),
) -> Transform:
    return Transform(name, STAGED, "body", positions, keywords, arity, operands_from, feeds=feeds)


def _grad(name: str) -> Transform:
    return Transform(name, CONCRETE, "grad")


def _callback(name: str) -> Transform:
    return Transform(name, HOST, "callback", fn_keywords=("callback", "fun", "f"))


def _wrapper(name: str) -> Transform:
    return Transform(name, NONE, "wrapper")


_ENTRIES = [
    _jit("jax.jit"),
    _jit("flax.nnx.jit"),
    Transform("jax.checkpoint", STAGED, "remat", static_argnums="static_argnums"),
    Transform("flax.nnx.remat", STAGED, "remat", static_argnums="static_argnums"),
    _jit("jax.make_jaxpr", argnames=None),
    _jit("jax.eval_shape", argnums=None, argnames=None),
    _jit("jax.shard_map", argnums=None, argnames=None),
    Transform("jax.pmap", STAGED, "pmap", static_argnums="static_broadcasted_argnums"),
    Transform("jax.vmap", ABSTRACT, "vmap"),
    Transform("flax.nnx.vmap", ABSTRACT, "vmap"),
    # vmap underneath, once per core dimension; `excluded` arguments reach the function as given
    Transform("jax.numpy.vectorize", ABSTRACT, "vmap", fn_keywords=("pyfunc",), unmapped="excluded"),
    Transform("equinox.filter_jit", STAGED, "filter"),
    Transform("equinox.filter_vmap", ABSTRACT, "filter_vmap"),
    Transform("equinox.filter_pmap", STAGED, "filter"),
    Transform("equinox.filter_checkpoint", STAGED, "filter"),
    Transform("equinox.filter_eval_shape", STAGED, "filter"),
    # traces to a program that returns the error beside the result (staged: measured)
    _jit("jax.experimental.checkify.checkify", argnums=None, argnames=None),
    _grad("jax.grad"),
    _grad("jax.value_and_grad"),
    _grad("jax.jacfwd"),
    _grad("jax.jacrev"),
    _grad("jax.jacobian"),
    _grad("jax.hessian"),
    _grad("jax.jvp"),
    _grad("jax.vjp"),
    _grad("jax.linearize"),
    _grad("flax.nnx.grad"),
    _grad("flax.nnx.value_and_grad"),
    _grad("equinox.filter_grad"),
    _grad("equinox.filter_value_and_grad"),
    _body("jax.lax.scan", (0,), ("f",), arity=2, feeds=((1, "init"), (2, "xs"))),
    _body("flax.nnx.scan", (0,), ("f",)),
    _body("jax.lax.fori_loop", (2,), ("body_fun",), arity=2, feeds=(None, (3, "init_val"))),
    _body("jax.lax.while_loop", (0, 1), ("cond_fun", "body_fun"), arity=1, feeds=((2, "init_val"),)),
    _body("jax.lax.cond", (1, 2), ("true_fun", "false_fun"), operands_from=3),
    _body("jax.lax.switch", (1,), ("branches",), operands_from=2),
    _body("jax.lax.map", (0,), ("f",), arity=1, feeds=((1, "xs"),)),
    _body("jax.lax.associative_scan", (0,), ("fn",), arity=2, feeds=((1, "elems"), (1, "elems"))),
    # the reduction's computation, traced on scalars (`lambda a, b: jnp.maximum(a, b)`)
    _body("jax.lax.reduce", (2,), ("computation",), arity=2),
    _body("jax.lax.reduce_window", (2,), ("computation",), arity=2),
    # `vmap` of the function over the other axes: each row a tracer, the function traced once
    _body("jax.numpy.apply_along_axis", (0,), ("func1d",), arity=1, feeds=((2, "arr"),)),
    # jitted with its functions static: each traced on `x` (its pieces masked), eagerly too
    _body("jax.numpy.piecewise", (2,), ("funclist",), arity=1, feeds=((0, "x"),)),
    _body("jax.lax.custom_root", (0, 2, 3), ("f", "solve", "tangent_solve")),
    _body("jax.lax.custom_linear_solve", (0, 2, 3), ("matvec", "solve", "transpose_solve")),
    _body("jax.experimental.ode.odeint", (0,), ("func",)),
    # the operator (and preconditioner) traced on vectors shaped like `b`, eagerly too
    *(
        _body(f"jax.scipy.sparse.linalg.{name}", (0,), ("A", "M"), arity=1, feeds=((1, "b"),))
        for name in ("cg", "gmres", "bicgstab")
    ),
    _body("jax.scipy.optimize.minimize", (0,), ("fun",)),
    _callback("jax.pure_callback"),
    _callback("jax.debug.callback"),
    _callback("jax.experimental.io_callback"),
    _callback("jax.experimental.host_callback.id_tap"),
    _callback("jax.experimental.host_callback.call"),
    _wrapper("jax.custom_jvp"),
    _wrapper("jax.custom_vjp"),
    _wrapper("jax.named_call"),
    _wrapper("functools.wraps"),
    _wrapper("builtins.staticmethod"),
    _wrapper("typing.overload"),
    _wrapper("abc.abstractmethod"),
    _wrapper("jaxtyping.jaxtyped"),
    _wrapper("beartype.beartype"),
    _wrapper("typeguard.typechecked"),
    _wrapper("chex.assert_max_traces"),
    _wrapper("flax.linen.compact"),
]

TRANSFORMS: dict[str, Transform] = {t.name: t for t in _ENTRIES}
# A decorator of the project that forwards every call to the function it decorates
# (:mod:`jaxlint.semantic.decorators`): transparent, as `functools.wraps` is.
FORWARDING = _wrapper("a decorator that forwards its calls")
EVALUATING = frozenset({"jax.jvp", "jax.vjp", "jax.linearize", "jax.eval_shape", "equinox.filter_eval_shape"})

# jits whose ``static_argnames`` a fix can extend (one application marks a parameter static).
JITS_WITH_STATIC_ARGNAMES = frozenset({"jax.jit", "flax.nnx.jit"})
# Transformations that compile the function they are given and cache the executable on that
# function object: applied to a fresh function (a new lambda, a new closure), they compile again.
COMPILING_TRANSFORMS = frozenset({"jax.jit", "jax.pmap", "flax.nnx.jit"})
# Compiling transformations whose call returns the function's own result, each traced leaf now a
# JAX array (not flax.nnx.jit, which returns module objects updated in place).
COMPILED_OUTPUTS = frozenset({"jax.jit", "jax.pmap", "equinox.filter_jit"})
# Transformations that trace a function only to look at its result's shapes or program, never run it.
TRACED_FOR_SHAPES = frozenset({"jax.eval_shape", "jax.make_jaxpr", "equinox.filter_eval_shape"})
# Transformations that run their function's body once per batch element (or device), all in one trace.
MAPPING = frozenset({"jax.vmap", "flax.nnx.vmap", "jax.numpy.vectorize", "equinox.filter_vmap", "jax.pmap"})
# Transformations that run their function's body once per iteration or batch element.
REPEATING = MAPPING | frozenset(
    {
        "jax.lax.scan",
        "jax.lax.fori_loop",
        "jax.lax.while_loop",
        "jax.lax.map",
        "flax.nnx.scan",
        "jax.numpy.apply_along_axis",
    }
)

# flax linen's lifted transformations applied to a module class (`nn.remat(Block,
# static_argnums=(2,))`): the new class's `__call__` is traced like this kind, its `static_argnums`
# counting the module as 0 (checked with flax 0.12.8: `(1,)` leaves a `train` flag at 2 traced).
# Linen's lifted `remat` traces `__call__` again on every `apply` (measured), unlike `jax.checkpoint`,
# which caches: it is a module method traced under `apply`.
FLAX_LIFTED: dict[str, Kind] = {
    "flax.linen.remat": "flax",
    "flax.linen.checkpoint": "flax",
    "flax.linen.jit": "jit",
    "flax.linen.scan": "body",
    "flax.linen.vmap": "vmap",
}

# jax.tree.map and friends call their function on the leaves: traced leaves make it traced.
TREE_MAPS = frozenset({"jax.tree.map", "jax.tree_util.tree_map_with_path", "jax.tree.map_with_path"})
# the name every spelling of `jax.tree.map` resolves to (`jax.tree_util.tree_map`, `jax.tree_map`)
TREE_MAP = "jax.tree.map"

# Last components of callee names worth collecting during the scope walk.
CALL_TAILS = frozenset(
    {name.rsplit(".", 1)[1] for name in [*TRANSFORMS, *FLAX_LIFTED]}
    | {"partial", "Partial", "map", "map_with_path"}
)

# Functions that bind leading arguments and keywords of a function to make another.
PARTIALS = frozenset({"functools.partial", "jax.tree_util.Partial"})


def user_transform(name: str) -> Transform:
    """A decorator named in ``[tool.jaxlint] traced-decorators``: treated like ``jax.jit``."""
    return _jit(name, argnums="static_argnums", argnames="static_argnames")


def body_operand(call: ast.Call, transform: Transform, position: int) -> ast.expr | None:
    """The argument of ``call`` whose pytree the body's parameter at ``position`` receives."""
    if transform.operands_from is not None:
        index, keyword = transform.operands_from + position, ""
    elif position < len(transform.feeds) and transform.feeds[position] is not None:
        index, keyword = transform.feeds[position]  # pyright: ignore[reportGeneralTypeIssues]
    else:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args[: index + 1]):
        return None
    if index < len(call.args):
        return call.args[index]
    return next((k.value for k in call.keywords if k.arg == keyword and keyword), None)


def function_arguments(call: ast.Call, transform: Transform) -> list[ast.expr]:
    """The function-valued arguments ``transform`` receives in ``call``."""
    found: list[ast.expr] = []
    for position in transform.fn_positions:
        if position < len(call.args) and not any(
            isinstance(a, ast.Starred) for a in call.args[: position + 1]
        ):
            found.append(call.args[position])
    for keyword in call.keywords:
        if keyword.arg in transform.fn_keywords:
            found.append(keyword.value)
    expanded: list[ast.expr] = []
    for expr in found:
        if isinstance(expr, (ast.List, ast.Tuple)):
            expanded.extend(expr.elts)
        else:
            expanded.append(expr)
    return expanded
