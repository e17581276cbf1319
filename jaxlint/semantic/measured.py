"""Facts about JAX's API measured by running JAX, for rules that never import it.

``tools/measure_jax_api.py`` calls every public function of ``jax.numpy`` (with ``linalg`` and
``fft``), ``jax.lax``, ``jax.nn`` and ``jax.random`` under ``jax.jit`` with one argument traced at a
time, each ``jax.random`` function twice on one key with the key-reuse checker on, and each NumPy
namesake on a tracer; it writes ``data/jax_api.json``, which this module reads once, lazily.

Every question takes a qualified name (``"jax.numpy.zeros"``, ``"numpy.exp"``). Where an answer
can be ``None``, ``None`` means *no fact*: the function is not in the scanned modules, or no call
of it could be measured. A rule must read it as "unknown", never as "no".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class ConcreteParameter:
    """A parameter that must be concrete under ``jit``: a tracer there raises ``error``.

    ``position`` is None for a keyword-only parameter; ``variadic`` marks ``*args`` (this position
    and every later one). ``value`` is the kind of value measured: ``"int"``, ``"ints"`` (a tuple
    of ints: a shape, axes), ``"bool"``, ``"float"``, ``"array"`` or ``"arrays"``. ``unless``
    names optional parameters whose presence lifts the requirement (``repeats`` of ``jnp.repeat``
    unless ``total_repeat_length``); ``lifting_flags``: of those, the flags and the truth value
    that lifts it (``strip_zeros=False`` of ``jnp.roots``). ``array_ok``: only an int there must
    be concrete; an array may be traced (``bins`` of ``jnp.histogram``: a count, or the edges).
    ``array_constant_error``: what a concrete JAX array there raises under ``jit`` (it works
    eagerly), since the function stages it (``repeats`` of ``jnp.repeat``: ``TypeError``;
    ``shape`` of ``jnp.zeros`` takes one); "" where it works.
    ``rejects_float``: the forms in which a Python float there raises even eagerly:
    ``"scalar"`` (``jnp.zeros(2.0)``, ``num=5.0`` of ``jnp.linspace``), ``"sequence"`` (a float
    in a shape, ``(2.0, 3)``); ``jnp.arange`` takes floats.
    """

    name: str
    position: int | None
    value: str
    error: str
    variadic: bool = False
    unless: tuple[str, ...] = ()
    lifting_flags: tuple[tuple[str, bool], ...] = ()
    array_ok: bool = False
    array_constant_error: str = ""
    rejects_float: tuple[str, ...] = ()


@dataclass(frozen=True)
class ConcreteParams:
    """The parameters of a measured function that must be concrete (none: every measured
    parameter may be traced). ``all_positional``: each positional parameter that takes a number
    or an array must be concrete (``jnp.arange``, ``jnp.zeros``)."""

    parameters: tuple[ConcreteParameter, ...] = ()
    all_positional: bool = False

    @property
    def positions(self) -> frozenset[int]:
        return frozenset(p.position for p in self.parameters if p.position is not None)

    @property
    def names(self) -> frozenset[str]:
        return frozenset(p.name for p in self.parameters)

    def find(self, position: int | None = None, keyword: str | None = None) -> ConcreteParameter | None:
        """The must-be-concrete parameter that an argument at ``position``, or passed as
        ``keyword``, binds to; None when it binds to none of them."""
        for param in self.parameters:
            if keyword is not None and param.name == keyword and not param.variadic:
                return param
            if (
                position is not None
                and param.position is not None
                and (param.position == position or (param.variadic and position > param.position))
            ):
                return param
        return None


@dataclass(frozen=True)
class RequiredUnderJit:
    """Called with the ``given`` parameters only, the function fails under ``jit`` even on
    concrete arguments, and works once one of ``requires`` is passed (``jnp.nonzero`` and
    ``size``)."""

    given: tuple[str, ...]
    requires: tuple[str, ...]


@cache
def _data() -> dict[str, Any]:
    text = resources.files("jaxlint.semantic").joinpath("data/jax_api.json").read_text(encoding="utf-8")
    return json.loads(text)


@cache
def _measured_names() -> frozenset[str]:
    data = _data()
    names = set(data["concrete"])
    for functions in data["measured_without_concrete"].values():
        names.update(functions)
    return frozenset(names)


def is_jax_function(qualname: str) -> bool:
    """Whether ``qualname`` is a function of the measured modules (``jax.numpy.tanh``,
    ``jax.nn.relu``): a function object, not a constant, a dtype or a module."""
    return qualname in _measured_names()


def measured_with() -> str:
    """The JAX version the facts were measured with."""
    return str(_data()["jax_version"])


def concrete_parameters(qualname: str) -> ConcreteParams | None:
    """The parameters of ``qualname`` that must be concrete under ``jit`` (an empty
    :class:`ConcreteParams` when none of those measured must be); None when not measured. Also
    an equinox layer's constructor (``eqx.nn.Linear``: its sizes)."""
    data = _data()
    entry = data["concrete"].get(qualname) or data.get("equinox_layers", {}).get("concrete", {}).get(qualname)
    if entry is None:
        return ConcreteParams() if qualname in _measured_names() else None
    return ConcreteParams(
        tuple(
            ConcreteParameter(
                name=p["name"],
                position=p["position"],
                value=p["value"],
                error=p["error"],
                variadic=p.get("variadic", False),
                unless=tuple(p.get("unless", ())),
                lifting_flags=tuple(p.get("lifting_flags", {}).items()),
                array_ok=p.get("array_ok", False),
                array_constant_error=p.get("array_constant_error", ""),
                rejects_float=tuple(p.get("rejects_float", ())),
            )
            for p in entry["parameters"]
        ),
        entry["all_positional"],
    )


def array_method(name: str) -> tuple[str, int] | None:
    """``x.<name>(...)`` on a JAX array as the ``jax.numpy`` function it applies (``x.min(axis)``
    is ``jnp.min(x, axis)``), with how many of its leading parameters line up with the
    function's after the array; None for the other methods."""
    agree = _data().get("array_methods", {}).get(name)
    return None if agree is None else (f"jax.numpy.{name}", agree)


def schedule_parameters(qualname: str) -> list[tuple[str, int | None]]:
    """The parameters of optax function ``qualname`` whose callable optax calls with the step
    count inside ``update`` (``optax.adam(learning_rate=schedule)``): name and position."""
    entries = _data().get("schedules", {}).get("parameters", {}).get(qualname, [])
    return [(name, position) for name, position in entries]


@cache
def schedule_functions() -> frozenset[str]:
    """The optax functions that take a schedule (see :func:`schedule_parameters`)."""
    return frozenset(_data().get("schedules", {}).get("parameters", {}))


@cache
def stateful_optimizers() -> frozenset[str]:
    """The optax optimizers whose state carries what earlier steps did (Adam's moments, a step
    count): measured, one ``update`` changes an array leaf of the state."""
    return frozenset(_data().get("optimizers", {}).get("stateful", []))


@cache
def descending_optimizers() -> frozenset[str]:
    """The optax optimizers whose updates carry the minus sign (measured: positive gradients give
    all-negative updates), to be added to the parameters (``optax.apply_updates``)."""
    return frozenset(_data().get("optimizers", {}).get("descending", []))


@cache
def optimizers_needing_params() -> frozenset[str]:
    """The optax optimizers whose ``update`` raises without ``params`` (measured: ``adamw``'s
    weight decay, ``lamb``'s trust ratio)."""
    return frozenset(_data().get("optimizers", {}).get("needs_params", []))


@cache
def optimizers_needing_keywords() -> dict[str, tuple[str, ...]]:
    """The optax optimizers whose ``update`` requires keyword-only arguments, and those
    arguments (measured: ``lbfgs``'s line search needs ``value``, ``grad`` and ``value_fn``)."""
    found = _data().get("optimizers", {}).get("needs_keywords", {})
    return {name: tuple(keywords) for name, keywords in found.items()}


@cache
def linen_layers_with_parameters() -> frozenset[str]:
    """The flax linen layers whose instance raises when called outside ``init``/``apply``
    (measured: ``nn.Dense(2)(x)`` raises ``CallCompactUnboundModuleError``)."""
    return frozenset(_data().get("linen_layers", {}).get("unbound_call_raises", []))


@dataclass(frozen=True)
class ModeFlag:
    """A linen layer's mode flag (``Dropout``'s ``deterministic``): a field defaulting to None
    that the call takes too; one of the two must give it. Its position in the constructor's
    and in the call's (after ``self``) parameters."""

    parameter: str
    constructor_position: int
    call_position: int


@cache
def linen_mode_flags() -> dict[str, ModeFlag]:
    """The flax linen layers whose call raises ``ValueError`` when neither the constructor nor
    the call gives a mode flag (measured: ``nn.Dropout(0.5)`` called without ``deterministic``
    in ``init``)."""
    found = _data().get("linen_layers", {}).get("mode_flags", {})
    return {name: ModeFlag(**flag) for name, flag in found.items()}


@cache
def jit_rejected_layers() -> frozenset[str]:
    """The library layers plain ``jax.jit`` cannot take as an argument, since their pytree
    holds a leaf that is no JAX type (measured: ``eqx.nn.MLP``'s activation function makes
    ``jax.jit`` raise ``TypeError`` where ``eqx.filter_jit`` works)."""
    return frozenset(_data().get("equinox_layers", {}).get("jit_rejects", []))


@cache
def layers_needing_a_key_to_call() -> frozenset[str]:
    """The library layers whose call raises without a ``key`` in training mode, their default
    (measured: ``eqx.nn.Dropout(0.5)(x)`` raises ``RuntimeError``; with ``key=`` or
    ``inference=True`` it runs)."""
    return frozenset(_data().get("equinox_layers", {}).get("call_needs_key", []))


@cache
def layer_array_fields() -> dict[str, tuple[str, ...]]:
    """The fields of each library layer that hold a JAX array once built (measured:
    ``eqx.nn.Linear``'s ``weight`` and ``bias``)."""
    found = _data().get("equinox_layers", {}).get("array_fields", {})
    return {qualname: tuple(fields) for qualname, fields in found.items()}


@cache
def key_consuming_initializers() -> frozenset[str]:
    """The initializer factories (``jax.nn.initializers.glorot_normal``, and flax's names for
    them) whose initializer consumes the key it is given (measured: a second call with the same
    key raises ``KeyReuseError``)."""
    return frozenset(_data()["keys"].get("initializer_factories", []))


@cache
def key_consuming_layers() -> frozenset[str]:
    """The library layers whose construction consumes the ``key=`` they are given (measured:
    two ``eqx.nn.Linear(..., key=k)`` come out identical)."""
    return frozenset(_data().get("equinox_layers", {}).get("consume_key", []))


@cache
def nnx_layer_variables() -> dict[str, frozenset[str]]:
    """The flax nnx layers and the attributes of each that hold a variable (measured:
    ``nnx.Linear`` holds ``kernel`` and ``bias``)."""
    found = _data().get("nnx_layers", {}).get("variables", {})
    return {qualname: frozenset(names) for qualname, names in found.items()}


@cache
def library_records() -> dict[str, tuple[tuple[str, str], ...]]:
    """Library pytree classes (flax's ``TrainState``), each with its fields in order and what
    each holds when an instance is passed to ``jit``: ``"traced"``, ``"container"`` (a pytree
    of tracers) or ``"static"`` (kept in the treedef)."""
    found = _data().get("records", {})
    return {qualname: tuple((name, kind) for name, kind in fields) for qualname, fields in found.items()}


def required_under_jit(qualname: str) -> RequiredUnderJit | None:
    """What ``qualname`` needs to work under ``jit`` at all, if anything."""
    entry = _data()["jit_requires"].get(qualname)
    if entry is None:
        return None
    return RequiredUnderJit(tuple(entry["given"]), tuple(entry["requires"]))


def fails_under_jit(qualname: str) -> str | None:
    """The error ``qualname`` raises under ``jit`` even on concrete arguments
    (``jnp.trim_zeros``); None when it works there or was not measured."""
    error = _data()["fails_under_jit"].get(qualname)
    return None if error is None else str(error)


@cache
def key_consumers() -> frozenset[str]:
    """The ``jax.random`` functions measured to consume the key they are given."""
    return frozenset(_data()["keys"]["consumes"])


@cache
def initializer_factories() -> frozenset[str]:
    """The ``jax.nn.initializers`` functions that build an initializer (``normal(stddev)``):
    measured, called with a key and a shape they give back a function, without raising."""
    return frozenset(_data().get("initializer_factories", []))


def sampler_dtype_kinds() -> dict[str, str]:
    """The ``jax.random`` samplers that take one kind of ``dtype`` only, and that kind
    (measured: ``uniform`` raises ``ValueError`` on an integer dtype, ``randint`` on a float)."""
    return dict(_data()["keys"].get("dtype_kind", {}))


def consumes_key(qualname: str) -> bool | None:
    """Whether a ``jax.random`` function consumes the key it is given (a second use of the key
    raises ``KeyReuseError`` under ``jax.debug_key_reuse``); None when it takes no key or was not
    measured."""
    keys = _data()["keys"]
    if qualname in keys["consumes"]:
        return True
    if qualname in keys["does_not_consume"]:
        return False
    return None


@dataclass(frozen=True)
class HostCallback:
    """A SciPy function that calls the Python function given as ``parameter`` (at ``position``)
    on host values and converts what it returns: given one that returns a JAX array staged
    under ``jit``, it raises ``error`` (``scipy.optimize.brentq``: ``TracerArrayConversionError``)."""

    parameter: str
    position: int | None
    error: str


@cache
def host_callbacks() -> dict[str, HostCallback]:
    """The measured :class:`HostCallback` functions, by qualified name."""
    return {
        qualname: HostCallback(entry["parameter"], entry["position"], entry["error"])
        for qualname, entry in _data().get("host_callbacks", {}).items()
    }


def numpy_rejects_tracer(qualname: str) -> bool | None:
    """Whether a NumPy function (``"numpy.exp"``) raises on a tracer as its first array argument
    (``TracerArrayConversionError`` mostly); False when it works on one (``np.sum`` calls the
    array's method); None when not measured."""
    numpy = _data()["numpy"]
    if qualname in numpy["rejects_tracer"]:
        return True
    if qualname in numpy["accepts_tracer"]:
        return False
    return None


def python_tracer_error(qualname: str, staged: bool) -> str | None:
    """The error a Python function of numbers (``statistics.median``, ``sorted``) raises given a
    traced vector: under ``jit`` (``staged``) or a bare ``grad``. None where it computes there
    (``sorted`` compares JVP tracers by their values) or was not measured."""
    errors = _data().get("python_on_tracers", {}).get(qualname)
    return None if errors is None else errors["staged" if staged else "jvp"]


def python_value_error(qualname: str, staged: bool) -> tuple[int, str] | None:
    """Where a Python function of one value (``json.dumps``, ``struct.pack("<f", x)``) takes it,
    and the error it raises given a tracer there: under ``jit`` (``staged``) or a bare ``grad``.
    None where it computes there or was not measured."""
    found = _data().get("python_on_traced_values", {}).get(qualname)
    error = None if found is None else found["staged" if staged else "jvp"]
    return None if found is None or error is None else (found["position"], error)


def numpy_misanswers_tracer(qualname: str) -> bool:
    """Whether a NumPy function given a tracer catches the conversion error and answers anyway,
    unlike on the same values (``np.array_equal`` says ``False``)."""
    return qualname in _data()["numpy"].get("misanswers_tracer", ())


def host_only_modules() -> tuple[str, ...]:
    """The NumPy and SciPy modules every function of which was measured on a tracer
    (``numpy.testing``, ``scipy.signal``...), whether or not JAX has a namesake."""
    return tuple(_data()["numpy"].get("host_only_modules", ()))


def host_only_namesakes() -> frozenset[str]:
    """The functions of those modules measured to reject a tracer whose namesake JAX has, though
    it is not measured here (``scipy.stats.rankdata``: ``jax.scipy.stats.rankdata``)."""
    return frozenset(_data()["numpy"].get("host_only_namesakes", ()))


def is_jax_name(qualname: str) -> bool:
    """Whether JAX has a public callable of that name in the measured modules, measured or not
    (``jax.scipy.signal.convolve``; not ``jax.scipy.signal.lfilter``)."""
    data = _data()
    return (
        qualname in _measured_names()
        or qualname in data["fails_under_jit"]
        or any(qualname in names for names in data["unmeasured"].values())
    )


def numpy_tracer_error(qualname: str) -> str | None:
    """The error a NumPy function raises on a tracer (``TracerArrayConversionError`` mostly);
    None when it accepts one or was not measured."""
    error = _data()["numpy"]["rejects_tracer"].get(qualname)
    return None if error is None else str(error)


def numpy_only_methods() -> frozenset[str]:
    """The ``numpy.ndarray`` methods a JAX array lacks, eagerly and traced (``fill``,
    ``resize``): calling one raises ``AttributeError``."""
    return frozenset(_data().get("numpy_only_methods", ()))


@cache
def numpy_only_attributes() -> dict[str, str]:
    """The attributes of NumPy arrays that a JAX array refuses, eagerly and traced, with the
    error each raises (measured: ``flat``, ``NotImplementedError``; ``strides``,
    ``AttributeError``)."""
    return dict(_data().get("numpy_only_attributes", {}))


def numpy_rejecting_after_first() -> dict[str, tuple[tuple[int, str], ...]]:
    """NumPy functions that take a tracer as their first array argument (calling its method)
    but, given a NumPy array there, reject one as a later argument, with those parameters'
    positions and names (``np.searchsorted(bounds, v)``: ``bounds.searchsorted`` converts ``v``)."""
    table = _data()["numpy"].get("rejects_tracer_after_first", {})
    return {
        name: tuple((int(entry.split(":")[0]), entry.split(":")[1]) for entry in entries)
        for name, entries in table.items()
    }


def numpy_functions_rejecting_tracers() -> frozenset[str]:
    """Every NumPy function measured to raise on a tracer."""
    return frozenset(_data()["numpy"]["rejects_tracer"])


def functions_rejecting_sequences() -> frozenset[str]:
    """Every ``jax.numpy`` function measured to raise ``TypeError`` on a Python list somewhere."""
    return frozenset(_data()["rejects_sequence"])


def rejects_sequence(qualname: str) -> frozenset[int] | None:
    """The positions where a ``jax.numpy`` function raises ``TypeError`` on a Python list in
    place of an array (an empty set when it accepts one everywhere measured); None when not
    measured."""
    entry = _data()["rejects_sequence"].get(qualname)
    if entry is None:
        known = qualname.startswith("jax.numpy.") and qualname in _measured_names()
        return frozenset() if known else None
    return frozenset(
        position for position, name in entry if position is not None and name not in SEQUENCE_PARAMETERS
    )


# Parameters that take arrays one by one (``atleast_1d(*arys)``, ``broadcast_arrays(*args)``) or a
# buffer: the measurement passed each one as a list of numbers. A parameter that takes a sequence
# of arrays (``multi_dot(arrays)``, ``choose(a, choices)``) is measured as such and not recorded.
def rejects_sequence_keywords(qualname: str) -> frozenset[str]:
    """The parameters, by name, where a ``jax.numpy`` function raises ``TypeError`` on a Python
    list (``jnp.sum(x, where=[True, False])``); empty when none was measured."""
    entry = _data()["rejects_sequence"].get(qualname) or []
    return frozenset(name for _, name in entry if name not in SEQUENCE_PARAMETERS)


SEQUENCE_PARAMETERS = frozenset({"args", "arys", "buffer"})


def inplace_by_default() -> frozenset[str]:
    """The ``jax.numpy`` functions that keep NumPy's in-place signature (``place``, ``put``...):
    with ``inplace`` left to its default, True, they raise; ``inplace=False`` returns the new
    array (measured)."""
    return frozenset(_data().get("inplace_by_default", ()))


def is_static_query(qualname: str) -> bool:
    """Whether the call answers from shapes and dtypes: its result holds no tracer when its array
    arguments are traced (``jnp.shape``, ``jnp.result_type``, ``np.ndim``). False also when this
    was not measured (a call with no array argument, such as ``jnp.issubdtype``, is not)."""
    data = _data()
    return qualname in data["static_results"] or qualname in data["numpy"]["static_results"]
