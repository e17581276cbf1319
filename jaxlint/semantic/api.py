"""What jaxlint knows about the JAX, NumPy and Python APIs it meets in traced code.

Tables only, one home for each fact: which calls return static metadata, which return
containers rather than arrays, which return boolean masks, which consume a PRNG key, the array
attributes and methods, and the Python methods and clocks the rules ask about. JAX's
transformations are catalogued in :mod:`jaxlint.semantic.transforms`.
"""

from __future__ import annotations

import ast

JAX_ARRAY_NAMESPACES = (
    "jax.numpy.",
    "jax.lax.",
    "jax.nn.",
    "jax.scipy.",
    "jax.random.",
    "jax.image.",
)

# Parameters a call with one argument fills under another meaning, as JAX's errors name them:
# `jnp.arange(n)` gives `n` to `start`, which JAX treats (and names) as `stop`.
LONE_ARGUMENT_NAMES = {("jax.numpy.arange", "start"): "stop"}

# Calls that answer from shapes and dtypes alone: static even on tracers.
STATIC_QUERIES = frozenset(
    {
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "jax.numpy.result_type",
        "jax.numpy.issubdtype",
        "jax.numpy.isdtype",
        "jax.numpy.dtype",
        "jax.numpy.iinfo",
        "jax.numpy.finfo",
        "jax.numpy.promote_types",
        "jax.numpy.can_cast",
        "jax.numpy.isscalar",
        "jax.numpy.iscomplexobj",
        "jax.numpy.isrealobj",
        "jax.numpy.broadcast_shapes",
        "jax.lax.broadcast_shapes",
        "jax.lax.axis_size",
        "jax.eval_shape",
        "jax.tree.structure",
        "jax.tree_util.tree_structure",
        "jax.typeof",
        "numpy.shape",
        "numpy.ndim",
        "numpy.size",
        "numpy.dtype",
        "numpy.result_type",
        "numpy.issubdtype",
        "numpy.iinfo",
        "numpy.finfo",
    }
)

# Calls that return a tuple or list of arrays rather than one array.
CONTAINER_RESULTS = frozenset(
    {
        "jax.numpy.split",
        "jax.numpy.array_split",
        "jax.numpy.hsplit",
        "jax.numpy.vsplit",
        "jax.numpy.dsplit",
        "jax.numpy.meshgrid",
        "jax.numpy.broadcast_arrays",
        "jax.numpy.nonzero",
        "jax.numpy.unravel_index",
        "jax.numpy.histogram",
        "jax.numpy.histogram2d",
        "jax.numpy.histogramdd",
        "jax.numpy.divmod",
        "jax.numpy.frexp",
        "jax.numpy.modf",
        "jax.numpy.triu_indices",
        "jax.numpy.tril_indices",
        "jax.numpy.diag_indices",
        "jax.numpy.ix_",
        "jax.numpy.linalg.svd",
        "jax.numpy.linalg.eig",
        "jax.numpy.linalg.eigh",
        "jax.numpy.linalg.qr",
        "jax.numpy.linalg.slogdet",
        "jax.numpy.linalg.lstsq",
        "jax.lax.top_k",
        "jax.lax.sort_key_val",
        "jax.lax.scan",
        "jax.lax.fori_loop",
        "jax.lax.while_loop",
        "jax.lax.cond",
        "jax.lax.switch",
        "jax.lax.map",
        "jax.lax.associative_scan",
        "jax.lax.optimization_barrier",
        "jax.scipy.linalg.lu",
        "jax.scipy.linalg.qr",
        "jax.scipy.linalg.svd",
        "jax.scipy.linalg.eigh",
        "jax.scipy.optimize.minimize",
        "jax.nn.initializers.normal",
    }
)

# Calls whose result is a boolean array.
BOOL_RESULTS = frozenset(
    {
        f"jax.numpy.{name}"
        for name in [
            "isnan",
            "isinf",
            "isfinite",
            "isneginf",
            "isposinf",
            "iscomplex",
            "isreal",
            "signbit",
            "isin",
            "isclose",
            "logical_and",
            "logical_or",
            "logical_not",
            "logical_xor",
            "equal",
            "not_equal",
            "greater",
            "greater_equal",
            "less",
            "less_equal",
            "any",
            "all",
            "array_equal",
            "array_equiv",
            "allclose",
        ]
    }
    | {f"jax.lax.{name}" for name in ["eq", "ne", "lt", "le", "gt", "ge", "is_finite"]}
    | {"jax.random.bernoulli"}
)

# Calls that make a mutable reference (`jax.Ref`): unlike an array, it takes item assignment
# (`ref[0] += 1`, `ref[...] = x`), under `jit` too.
REF_CONSTRUCTORS = frozenset(
    {
        "jax.new_ref",
        "jax.empty_ref",
        "jax.ref.new_ref",
        "jax.ref.empty_ref",
        "jax._src.core.new_ref",
        "jax._src.core.mutable_array",
        "jax.experimental.mutable_array",
    }
)

# Calls that return their (first) argument's structure unchanged.
PASSTHROUGH = frozenset(
    {
        "jax.lax.stop_gradient",
        "jax.device_put",
        "jax.block_until_ready",
        "jax.lax.with_sharding_constraint",
    }
)

TREE_CONTAINER_RESULTS = frozenset(
    {
        "jax.tree.map",
        "jax.tree.map_with_path",
        "jax.tree_util.tree_map_with_path",
        "jax.tree.leaves",
        "jax.tree_util.tree_leaves",
        "jax.tree.unflatten",
        "jax.tree_util.tree_unflatten",
        "jax.tree.transpose",
    }
)

# Attributes of an array that are static metadata.
STATIC_ATTRIBUTES = frozenset(
    {"shape", "ndim", "dtype", "size", "itemsize", "nbytes", "weak_type", "sharding", "aval"}
)
# Attributes of an array that are arrays again.
ARRAY_ATTRIBUTES = frozenset({"T", "mT", "real", "imag", "at", "flat"})

# Methods of an array that return an array.
ARRAY_METHODS = frozenset(
    [
        "sum",
        "mean",
        "max",
        "min",
        "prod",
        "std",
        "var",
        "any",
        "all",
        "argmax",
        "argmin",
        "cumsum",
        "cumprod",
        "cummax",
        "cummin",
        "reshape",
        "ravel",
        "flatten",
        "transpose",
        "swapaxes",
        "squeeze",
        "astype",
        "clip",
        "round",
        "dot",
        "conj",
        "conjugate",
        "copy",
        "take",
        "repeat",
        "diagonal",
        "trace",
        "sort",
        "argsort",
        "searchsorted",
        "view",
        "block_until_ready",
        "set",
        "add",
        "subtract",
        "multiply",
        "mul",
        "divide",
        "power",
        "apply",
        "get",
        "ptp",
        "nansum",
        "nanmean",
        "__getitem__",
        "__add__",
        "__mul__",
        "__sub__",
        "__truediv__",
        "__neg__",
        "__abs__",
        "__invert__",
        "addressable_data",
    ]
)
BOOL_METHODS = frozenset({"any", "all"})
# Array methods whose result is a boolean array when the receiver is one.
BOOL_PRESERVING_METHODS = frozenset(
    [
        "reshape",
        "ravel",
        "flatten",
        "transpose",
        "swapaxes",
        "squeeze",
        "copy",
        "take",
        "repeat",
        "view",
        "block_until_ready",
    ]
)
# The methods of ``x.at[i]``: each returns an updated copy of ``x``.
AT_UPDATE_METHODS = frozenset(
    {"set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max", "apply"}
)


def updated_by_at(expr: ast.AST) -> ast.expr | None:
    """The array ``expr`` updates through ``.at[...]`` (``x`` in ``x.at[i].set(v)``: the result
    is an updated copy, a JAX array); None if ``expr`` is no such update."""
    if not isinstance(expr, ast.Call) or not isinstance(expr.func, ast.Attribute):
        return None
    indexer = expr.func.value
    if expr.func.attr not in AT_UPDATE_METHODS or not isinstance(indexer, ast.Subscript):
        return None
    if not isinstance(indexer.value, ast.Attribute) or indexer.value.attr != "at":
        return None
    return indexer.value.value


# Methods that wait for an array's value on the device (or copy it to the host).
SYNCING_METHODS = frozenset(
    {"block_until_ready", "item", "tolist", "tobytes", "copy_to_host_async", "__array__"}
)
# Array methods that no list, tuple or dict has: calling one proves the receiver is an array.
ARRAY_ONLY_METHODS = ARRAY_METHODS - {"copy", "get", "add", "set", "apply", "sort", "__getitem__"}
ARRAY_ONLY_METHODS |= {"item", "tolist", "tobytes"}
# Methods that turn an array into a Python value: they need a concrete array.
CONVERSION_METHODS = frozenset({"item", "tolist", "tobytes", "__bool__", "__index__", "__int__", "__float__"})

# Python builtins whose result is static whatever they are given.
STATIC_BUILTINS = frozenset(
    {
        "builtins.len",
        "builtins.isinstance",
        "builtins.issubclass",
        "builtins.type",
        "builtins.callable",
        "builtins.hasattr",
        "builtins.id",
        "builtins.str",
        "builtins.repr",
        "builtins.format",
        "builtins.print",
        "builtins.range",
        "builtins.hash",
        "builtins.getattr",
        "builtins.super",
        "builtins.object",
        "builtins.dir",
        "builtins.vars",
    }
)
CONVERSION_BUILTINS = frozenset({"builtins.bool", "builtins.int", "builtins.float", "builtins.complex"})

# jax.random functions that do not consume their key argument.
KEY_NEUTRAL = frozenset(
    {
        "jax.random.fold_in",
        "jax.random.key_data",
        "jax.random.key_impl",
        "jax.random.wrap_key_data",
        "jax.random.clone",
        "jax.random.PRNGKey",
        "jax.random.key",
        "jax.random.default_prng_impl",
    }
)
KEY_CONSTRUCTORS = frozenset({"jax.random.PRNGKey", "jax.random.key"})
# jax.random functions whose result is a new key (or keys): each gets its own identity.
# key makers whose keys, from any int seed, have one shape and type (one trace serves both)
SEEDED_KEY_MAKERS = frozenset({"jax.random.key", "jax.random.PRNGKey"})
KEY_MAKERS = KEY_CONSTRUCTORS | {
    "jax.random.split",
    "jax.random.fold_in",
    "jax.random.clone",
    "jax.random.wrap_key_data",
}
# Their keys are typed (dtype `key<impl>`): arithmetic on them raises `TypeError`, where a raw
# `PRNGKey` is a uint32 array (measured with JAX 0.10.2).
TYPED_KEY_MAKERS = frozenset({"jax.random.key", "jax.random.wrap_key_data"})
# Their keys are typed exactly when the key they are given is.
KEY_DERIVERS = frozenset({"jax.random.split", "jax.random.fold_in", "jax.random.clone"})

# Annotation spellings of a JAX array.
ARRAY_ANNOTATIONS = frozenset(
    {
        "jax.Array",
        "jax.numpy.ndarray",
        "jax.numpy.DeviceArray",
        "jax.typing.ArrayLike",
        "chex.Array",
        "chex.ArrayDevice",
        "chex.PRNGKey",
        "jaxtyping.Array",
        "jaxtyping.ArrayLike",
        "jaxtyping.PRNGKeyArray",
        "jax.random.KeyArray",
    }
)
JAXTYPING_DTYPES = frozenset(
    [
        "Float",
        "Int",
        "Bool",
        "Shaped",
        "Real",
        "Num",
        "Inexact",
        "Integer",
        "UInt",
        "Complex",
        "Key",
        "Float32",
        "Float64",
        "Int32",
        "Int64",
        "UInt8",
        "UInt32",
        "BFloat16",
        "Float16",
    ]
)
# Annotation spellings of Python scalars and strings (configuration when not traced).
SCALAR_ANNOTATIONS = frozenset(
    {"builtins.int", "builtins.float", "builtins.bool", "builtins.str", "builtins.complex"}
)

# Annotation spellings of Python containers: their truthiness and length are static.
CONTAINER_ANNOTATIONS = frozenset(
    {
        f"typing.{name}"
        for name in [
            "Tuple",
            "List",
            "Dict",
            "Set",
            "FrozenSet",
            "Sequence",
            "MutableSequence",
            "Mapping",
            "MutableMapping",
            "Iterable",
            "Collection",
        ]
    }
    | {
        f"collections.abc.{name}"
        for name in [
            "Sequence",
            "MutableSequence",
            "Mapping",
            "MutableMapping",
            "Iterable",
            "Collection",
            "Set",
        ]
    }
    | {"builtins.tuple", "builtins.list", "builtins.dict", "builtins.set", "builtins.frozenset"}
)
# lax control flow returns its carry, which may be a single array.
PYTREE_RESULTS = frozenset(
    {
        "jax.lax.fori_loop",
        "jax.lax.while_loop",
        "jax.lax.cond",
        "jax.lax.switch",
        "jax.lax.map",
        "jax.lax.associative_scan",
        "jax.lax.optimization_barrier",
        "jax.scipy.optimize.minimize",
    }
)

# isinstance() against these proves a value is a plain Python (or NumPy) value, not a tracer.
PYTHON_SCALAR_TYPES = frozenset(
    {f"builtins.{name}" for name in ["int", "float", "bool", "complex", "str", "bytes"]}
    | {f"numbers.{name}" for name in ["Number", "Integral", "Real", "Complex", "Rational"]}
    | {
        f"numpy.{name}"
        for name in [
            "ndarray",
            "integer",
            "floating",
            "number",
            "generic",
            "bool_",
            "int32",
            "int64",
            "float32",
            "float64",
        ]
    }
)

# The scalar types NumPy and jax.numpy share (jax.numpy adds `bfloat16`): called, each converts.
SCALAR_TYPES = (
    "bool_",
    "float16",
    "float32",
    "float64",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "complex64",
    "complex128",
)

# Given a concrete JAX array of their dtype, these hand it back rather than stage a conversion
# (measured with JAX 0.10.2 under jit: `jnp.asarray(a)`, `jnp.float32(a)` stay concrete; to
# another dtype they give a tracer).
CONVERTING_AS_IS = frozenset(
    {"jax.numpy.asarray", "jax.numpy.bfloat16", *(f"jax.numpy.{name}" for name in SCALAR_TYPES)}
)

# isinstance() against these is true exactly when the value is a tracer: false proves it concrete.
TRACER_TYPES = frozenset(
    {"jax.core.Tracer", "jax._src.core.Tracer", "jax.interpreters.partial_eval.DynamicJaxprTracer"}
)
# The classes a handler may name to catch each tracer error (measured with JAX 0.10.2: the
# errors' `__mro__`; `jax.errors.X` and `jax._src.errors.X` are the same class).
_JAX_TYPE_ERROR = (
    "jax.errors.JAXTypeError",
    "builtins.TypeError",
    "builtins.Exception",
    "builtins.BaseException",
)
ERROR_CATCHERS: dict[str, frozenset[str]] = {
    "TracerBoolConversionError": frozenset(
        {"jax.errors.TracerBoolConversionError", "jax.errors.ConcretizationTypeError", *_JAX_TYPE_ERROR}
    ),
    "ConcretizationTypeError": frozenset({"jax.errors.ConcretizationTypeError", *_JAX_TYPE_ERROR}),
    "TracerIntegerConversionError": frozenset({"jax.errors.TracerIntegerConversionError", *_JAX_TYPE_ERROR}),
    "TracerArrayConversionError": frozenset({"jax.errors.TracerArrayConversionError", *_JAX_TYPE_ERROR}),
}

# Types every tracer is an instance of, as every concrete JAX array is (measured with JAX 0.10.2:
# `isinstance(x, jax.Array)` is true of a `jit` tracer): a value that is not one is no tracer.
ARRAY_OR_TRACER_TYPES = TRACER_TYPES | {"jax.Array", "jax.numpy.ndarray"}

# Names of the jax.random functions that consume a key (the last part of a callee's name).
RANDOM_CONSUMERS = frozenset(
    (
        "normal uniform split bernoulli categorical randint permutation choice truncated_normal "
        "gumbel exponential laplace logistic cauchy rademacher maxwell gamma loggamma beta "
        "dirichlet poisson t chisquare f geometric lognormal pareto wald multivariate_normal "
        "binomial multinomial weibull_min double_sided_maxwell triangular orthogonal ball bits "
        "generalized_normal rayleigh"
    ).split()
)

# ---------------------------------------------------------------------------- Python

# Methods that change a list, dict, set, deque or queue in place.
MUTATING_METHODS = frozenset(
    {
        "append",
        "appendleft",
        "extend",
        "extendleft",
        "insert",
        "pop",
        "popleft",
        "popitem",
        "remove",
        "clear",
        "update",
        "setdefault",
        "add",
        "discard",
        "sort",
        "reverse",
        "put",
        "put_nowait",
    }
)
# Standard-library objects that hold state, and the methods that change it (a `threading.Event`
# set in a `lax.cond` branch, a `ContextVar` set to the loss; containers and queues are
# `MUTATING_METHODS`): called in traced code, they act once per trace, and a tracer they are
# given outlives it.
STATEFUL_OBJECT_METHODS: dict[str, frozenset[str]] = {
    "threading.Event": frozenset({"set", "clear"}),
    "contextvars.ContextVar": frozenset({"set"}),
}
# Functions that call a predicate on each element of an iterable and take the truth of what it
# returns: given traced elements, a predicate that computes on them returns a tracer.
PREDICATE_TAKERS = frozenset(
    {"builtins.filter", "itertools.takewhile", "itertools.dropwhile", "itertools.filterfalse"}
)
# Functions of the standard library that change the list given as their first argument, as
# its methods do: `heapq.heappush(heap, item)`, `bisect.insort(ranks, r)`.
LIST_CHANGING_FUNCTIONS = frozenset(
    {f"heapq.{name}" for name in ("heappush", "heappop", "heapify", "heapreplace", "heappushpop")}
    | {f"bisect.{name}" for name in ("insort", "insort_left", "insort_right")}
)
# Seeding functions of Python's and NumPy's random generators, and what each raises given a
# tracer as its seed, under `jit` and under `grad` alike (measured with JAX 0.10.2, NumPy 2).
SEEDING_FUNCTIONS: dict[str, str] = {
    "numpy.random.default_rng": "TypeError",
    "numpy.random.SeedSequence": "TypeError",
    "numpy.random.PCG64": "TypeError",
    "numpy.random.RandomState": "TracerArrayConversionError",
    "numpy.random.seed": "TracerArrayConversionError",
    "random.seed": "TypeError",
    "random.Random": "TypeError",
}
# Methods of lists, dicts and sets (none of a JAX array): calling one shows a name holds a container.
CONTAINER_METHODS = frozenset(
    [
        "append",
        "extend",
        "insert",
        "keys",
        "values",
        "items",
        "get",
        "update",
        "setdefault",
        "pop",
        "popitem",
        "copy",
        "index",
        "count",
        "sort",
        "remove",
        "clear",
        "add",
        "discard",
    ]
)
# Readings of the clocks of the ``time`` module.
CLOCKS = frozenset(
    {
        "time.time",
        "time.time_ns",
        "time.perf_counter",
        "time.perf_counter_ns",
        "time.monotonic",
        "time.monotonic_ns",
        "time.process_time",
    }
)
# What benchmarks read elapsed time with.
TIMERS = CLOCKS | {"timeit.default_timer"}

# Methods of a flax linen module that run one of its methods (`__call__` unless `method=` names
# another) on the arguments after the first (the variables, or the PRNG keys of `init`), and the
# keywords they keep for themselves.
FLAX_ENTRY_POINTS = frozenset({"apply", "init", "init_with_output"})
FLAX_APPLY_KEYWORDS = frozenset({"method", "rngs", "mutable", "capture_intermediates"})


# context managers under which JAX computes on constants eagerly, even inside a trace
COMPILE_TIME_EVAL = frozenset({"jax.ensure_compile_time_eval", "jax.core.eval_context"})

# transformations that differentiate in reverse mode (through a `while_loop` they raise); not
# `jax.vjp`, which raises only when its pullback is called (measured)
REVERSE_MODE = frozenset(
    {
        "jax.grad",
        "jax.value_and_grad",
        "jax.jacrev",
        "jax.jacobian",
        "jax.hessian",
        "flax.nnx.grad",
        "flax.nnx.value_and_grad",
        "equinox.filter_grad",
        "equinox.filter_value_and_grad",
    }
)

# Layers of flax and equinox whose call returns one array (not a tuple, as recurrent cells do).
_EQUINOX_LAYERS = (
    "Linear",
    "MLP",
    "Conv",
    "Conv1d",
    "Conv2d",
    "ConvTranspose",
    "Embedding",
    "LayerNorm",
    "RMSNorm",
    "Dropout",
)
_FLAX_LAYERS = ("Conv", "ConvTranspose", "Embed", "LayerNorm", "RMSNorm", "BatchNorm", "GroupNorm", "Dropout")
ARRAY_LAYERS = frozenset(
    [
        *(
            f"flax.nnx.{n}"
            for n in (*_FLAX_LAYERS, "Linear", "LinearGeneral", "MultiHeadAttention", "Einsum")
        ),
        *(
            f"flax.linen.{n}"
            for n in (*_FLAX_LAYERS, "Dense", "DenseGeneral", "MultiHeadDotProductAttention", "SelfAttention")
        ),
        *(f"equinox.nn.{n}" for n in _EQUINOX_LAYERS),
    ]
)

# Optimizers written by hand: their `update` runs the function given at (position, keyword),
# which takes that many of the update's traced values (`stateless`: the updates and parameters).
CUSTOM_UPDATES: dict[str, tuple[int, str, int]] = {
    "optax.GradientTransformation": (1, "update", 3),
    "optax.GradientTransformationExtraArgs": (1, "update", 3),
    "optax.stateless": (0, "f", 2),
    "optax.stateless_with_tree_map": (0, "f", 2),
}
# Wrappers of an optimizer factory whose result builds the same optimizer, schedules included:
# `optax.inject_hyperparams(optax.sgd)(learning_rate=schedule)`
OPTIMIZER_WRAPPERS = frozenset({"optax.inject_hyperparams"})

# optax functions of arrays that return arrays (a norm, a loss): given a tracer, a tracer
OPTAX_ARRAY_FUNCTIONS = frozenset(
    f"optax.{name}"
    for name in (
        "global_norm",
        "safe_norm",
        "safe_root_mean_squares",
        "l2_loss",
        "squared_error",
        "huber_loss",
        "log_cosh",
        "cosine_similarity",
        "cosine_distance",
        "softmax_cross_entropy",
        "softmax_cross_entropy_with_integer_labels",
        "sigmoid_binary_cross_entropy",
        "hinge_loss",
        "kl_divergence",
        "smooth_labels",
    )
)
# optax functions of pytrees of arrays that return one (`apply_updates(params, updates)`)
OPTAX_TREE_FUNCTIONS = frozenset({"optax.apply_updates", "optax.incremental_update", "optax.periodic_update"})
# optax functions that return a `GradientTransformation`, a NamedTuple of two functions: not a
# JAX type, so `jax.jit` cannot trace it as an argument (measured with optax 0.2: `TypeError`).
OPTAX_OPTIMIZERS = frozenset(
    f"optax.{name}"
    for name in (
        "adabelief",
        "adadelta",
        "adafactor",
        "adagrad",
        "adam",
        "adamax",
        "adamaxw",
        "adamw",
        "amsgrad",
        "chain",
        "fromage",
        "lamb",
        "lars",
        "lbfgs",
        "lion",
        "nadam",
        "nadamw",
        "noisy_sgd",
        "novograd",
        "radam",
        "rmsprop",
        "sgd",
        "sm3",
        "yogi",
    )
)


# NumPy calls that always return a NumPy array or scalar (never a Python number): equinox's
# filters (`eqx.is_array`) trace what they return as they trace a JAX array (measured with
# equinox 0.13: a Python `if` on `np.float32(2.0)` or `np.array(2.0)` passed to `filter_jit` raises).
NUMPY_ARRAY_MAKERS = frozenset(
    f"numpy.{name}"
    for name in (
        "array",
        "asarray",
        "zeros",
        "ones",
        "full",
        "empty",
        "zeros_like",
        "ones_like",
        "full_like",
        "arange",
        "linspace",
        "eye",
        "identity",
        *SCALAR_TYPES,
    )
)


# the keywords that put a dropout layer (equinox's, flax's) in inference mode
LAYER_MODE_KEYWORDS = ("inference", "deterministic")
