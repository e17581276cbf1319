"""Where NumPy and ``jax.numpy`` part ways: what the compile-hygiene rules (JAX6xx) ask.

The measured facts of :mod:`jaxlint.semantic.measured` (``tools/measure_jax_api.py``) say which
NumPy functions raise on a tracer and where ``jax.numpy`` functions refuse a Python list; the
hand tables below, each entry checked against jax 0.10.2 with NumPy 2.4 (the measurement confirms
every one), cover what the measurement cannot reach (``jnp.where``'s second and third arguments):

- :data:`NUMPY_CONVERTS_TRACER`: NumPy functions that convert their array arguments with
  ``__array__``, which a tracer refuses (``TracerArrayConversionError``), and whose ``jax.numpy``
  namesake computes the same thing. NumPy functions that delegate to a method of their argument
  (``np.sum``, ``np.mean``, ``np.reshape``, ``np.transpose``...) work on tracers and are left out,
  as are conversions (``np.asarray``: JAX503), ``np.random``, and functions whose ``jax.numpy``
  namesake fails under ``jit`` too (``np.nonzero``, ``np.unique``). ``np.clip`` and ``np.ptp`` call
  the array's method with NumPy's signature (``out=``), which JAX's does not take, and convert.
- :data:`NUMPY_CONVERTS_TRACER_NEEDS_SIZE`: NumPy functions measured to reject a tracer whose
  ``jax.numpy`` namesake works under ``jit`` only given a static ``size=`` (``np.unique``,
  ``np.nonzero``): reported, not rewritten.
- :data:`SCIPY_CONVERTS_TRACER`: SciPy functions measured to reject a tracer whose ``jax.scipy``
  namesake works under ``jit`` (``scipy.special.expit``).
- :data:`HOST_ONLY_CONVERTS_TRACER`: functions of NumPy's and SciPy's host-only modules
  (``numpy.testing``, ``scipy.signal``, ``scipy.stats``...) measured to reject a tracer, whose JAX
  namesake, if any, is not measured (``jax.scipy.stats.rankdata``): reported, with no rewrite.
- :data:`JNP_REJECTS_SEQUENCE`: ``jax.numpy`` functions that raise ``TypeError`` ("requires
  ndarray or scalar arguments") when a Python list or tuple is passed at one of the given
  positions, unlike NumPy. Constructors (``array``, ``asarray``, ``stack``, ``concatenate``...)
  and shape or axis arguments (``zeros(shape)``, ``reshape(x, shape)``, ``transpose(x, axes)``)
  accept sequences and are absent.
"""

from __future__ import annotations

from jaxlint.semantic import measured

# NumPy ufuncs with a jax.numpy namesake (every ufunc converts: a tracer has no __array_ufunc__).
_UFUNCS = """
abs absolute acos acosh add arccos arccosh arcsin arcsinh arctan arctan2 arctanh asin asinh atan
atan2 atanh bitwise_and bitwise_count bitwise_invert bitwise_left_shift bitwise_not bitwise_or
bitwise_right_shift bitwise_xor cbrt ceil conj conjugate copysign cos cosh deg2rad degrees divide
divmod equal exp exp2 expm1 fabs float_power floor floor_divide fmax fmin fmod frexp gcd greater
greater_equal heaviside hypot invert isfinite isinf isnan lcm ldexp left_shift less less_equal log
log10 log1p log2 logaddexp logaddexp2 logical_and logical_not logical_or logical_xor matmul matvec
maximum minimum mod modf multiply negative nextafter not_equal positive pow power rad2deg radians
reciprocal remainder right_shift rint sign signbit sin sinh spacing sqrt square subtract tan tanh
true_divide trunc vecdot vecmat
"""
# Other NumPy functions that call np.asarray/asanyarray on their array arguments.
_CONVERTING = """
clip ptp allclose atleast_1d atleast_2d atleast_3d average broadcast_to column_stack concatenate cross
diagonal diff dot dstack einsum expand_dims full_like hstack inner interp isclose kron median
nanmax nanmean nanmedian nanmin nanprod nanstd nansum nanvar ones_like outer pad ravel roll sort
tensordot tile trace tril triu vdot vstack where zeros_like
linalg.cholesky linalg.det linalg.eig linalg.eigh linalg.eigvals linalg.eigvalsh linalg.inv
linalg.norm linalg.pinv linalg.qr linalg.slogdet linalg.svd
fft.fft fft.fft2 fft.fftn fft.ifft fft.ifft2 fft.ifftn fft.irfft fft.irfftn fft.rfft fft.rfft2
fft.rfftn
"""
# Conversions are JAX503's (``np.asarray(x)``); these NumPy functions have a namesake that needs
# more under jit (``size=``), mutate in place, or raise something else on a tracer.
_NOT_REWRITTEN = frozenset(
    f"numpy.{name}"
    for name in (
        "asarray array asanyarray ascontiguousarray asfortranarray copy frombuffer from_dlpack astype "
        "place put putmask nonzero argwhere flatnonzero unique unique_all unique_counts unique_inverse "
        "unique_values trim_zeros"
    ).split()
)


def _measured_converters(prefix: str, namesake_prefix: str) -> frozenset[str]:
    """Functions under ``prefix`` (``numpy.``, ``scipy.``) measured to raise
    ``TracerArrayConversionError`` whose JAX namesake (the name with ``namesake_prefix`` in
    place of ``prefix``) works under jit as it is called."""
    found = set()
    for qualname in measured.numpy_functions_rejecting_tracers():
        if not qualname.startswith(prefix):
            continue
        namesake = namesake_prefix + qualname.removeprefix(prefix)
        if (
            qualname not in _NOT_REWRITTEN
            and measured.numpy_tracer_error(qualname) == "TracerArrayConversionError"
            and measured.concrete_parameters(namesake) is not None
            and measured.required_under_jit(namesake) is None
            and measured.fails_under_jit(namesake) is None
        ):
            found.add(qualname)
    return frozenset(found)


NUMPY_CONVERTS_TRACER = frozenset(
    f"numpy.{name}" for name in (_UFUNCS + _CONVERTING).split()
) | _measured_converters("numpy.", "jax.numpy.")


SCIPY_CONVERTS_TRACER = _measured_converters("scipy.", "jax.scipy.")


def _host_only_converters() -> frozenset[str]:
    """Functions of NumPy's and SciPy's host-only modules (``np.testing.assert_allclose``,
    ``scipy.signal.lfilter``) measured to raise ``TracerArrayConversionError`` on a tracer, that
    no measured JAX function is named after."""
    modules = tuple(f"{module}." for module in measured.host_only_modules())
    return frozenset(
        qualname
        for qualname in measured.numpy_functions_rejecting_tracers()
        if qualname.startswith(modules)
        and measured.numpy_tracer_error(qualname) == "TracerArrayConversionError"
        and not measured.is_jax_name(f"jax.{qualname}")
    )


HOST_ONLY_CONVERTS_TRACER = _host_only_converters()


def _converters_needing(parameter: str) -> dict[str, str]:
    """NumPy functions measured to raise ``TracerArrayConversionError`` whose ``jax.numpy``
    namesake works under jit only given ``parameter`` (``np.unique``: ``jnp.unique(x, size=n)``),
    each with its namesake's parameter."""
    found = {}
    for qualname in measured.numpy_functions_rejecting_tracers():
        namesake = "jax." + qualname
        required = measured.required_under_jit(namesake) if qualname.startswith("numpy.") else None
        if (
            required is not None
            and parameter in required.requires
            and measured.numpy_tracer_error(qualname) == "TracerArrayConversionError"
        ):
            found[qualname] = parameter
    return found


# `np.unique(x)` on a tracer: `jnp.unique` works under jit given a static `size=` (`np.where`
# of three arguments is rewritten as it is)
NUMPY_CONVERTS_TRACER_NEEDS_SIZE = {
    name: parameter
    for name, parameter in _converters_needing("size").items()
    if name not in NUMPY_CONVERTS_TRACER
}

_FIRST = """
abs absolute acos acosh all amax amin angle any arccos arccosh arcsin arcsinh arctan arctanh argmax
argmin argsort argwhere around array_split asin asinh astype atan atanh bincount bitwise_count
bitwise_invert bitwise_not broadcast_to cbrt ceil choose conj conjugate copy corrcoef cos cosh
count_nonzero cov cumprod cumsum cumulative_prod cumulative_sum deg2rad degrees diag
diag_indices_from diagflat diagonal diff dsplit ediff1d empty_like exp exp2 expand_dims expm1 fabs
flatnonzero flip fliplr flipud floor frexp histogram histogram_bin_edges histogramdd hsplit i0 imag
invert iscomplex isfinite isinf isnan isneginf isposinf isreal log log10 log1p log2 logical_not
matrix_transpose max mean median min modf moveaxis nan_to_num nanargmax nanargmin nancumprod
nancumsum nanmax nanmean nanmedian nanmin nanprod nanstd nansum nanvar negative nonzero ones_like
packbits pad permute_dims piecewise poly polyder polyint positive prod ptp rad2deg radians ravel
real reciprocal reshape rint roll roots rot90 round sign signbit sin sinc sinh sort sort_complex
spacing split sqrt square squeeze std sum tan tanh tile trace transpose trapezoid tril
tril_indices_from trim_zeros triu triu_indices_from trunc unique unique_all unique_counts
unique_inverse unique_values unpackbits unravel_index unstack unwrap vander var vsplit zeros_like
linalg.cholesky linalg.cond linalg.det linalg.diagonal linalg.eig linalg.eigh linalg.eigvals
linalg.eigvalsh linalg.inv linalg.matrix_norm linalg.matrix_rank linalg.matrix_transpose
linalg.norm linalg.pinv linalg.qr linalg.slogdet linalg.svd linalg.svdvals linalg.tensorinv
linalg.trace linalg.vector_norm
"""
_FIRST_TWO = """
add allclose append arctan2 atan2 bitwise_and bitwise_left_shift bitwise_or bitwise_right_shift
bitwise_xor compress convolve copysign correlate cross delete digitize divide divmod dot equal
extract float_power floor_divide fmax fmin fmod full_like gcd geomspace greater greater_equal
heaviside histogram2d hypot inner intersect1d isclose isin kron lcm ldexp left_shift less
less_equal linspace logaddexp logaddexp2 logical_and logical_or logical_xor logspace matmul matvec
maximum minimum mod multiply nanpercentile nanquantile nextafter not_equal outer percentile polyadd
polydiv polymul polysub polyval pow power quantile remainder repeat right_shift searchsorted
setdiff1d setxor1d subtract take take_along_axis tensordot true_divide union1d vdot vecdot vecmat
"""
_CHECKED_REJECTS_SEQUENCE: dict[str, tuple[int, ...]] = {
    **{f"jax.numpy.{name}": (0,) for name in _FIRST.split()},
    **{f"jax.numpy.{name}": (0, 1) for name in _FIRST_TWO.split()},
    "jax.numpy.where": (0, 1, 2),
    "jax.numpy.insert": (0, 1, 2),
    "jax.numpy.interp": (0, 1, 2),
    "jax.numpy.place": (0, 1, 2),
    "jax.numpy.full": (1,),
    "jax.numpy.clip": (0, 1, 2),  # `min` and `max` too (checked with JAX 0.10.2)
    "jax.numpy.einsum": (1, 2, 3, 4, 5, 6, 7),
}


def _rejects_sequence() -> dict[str, tuple[int, ...]]:
    table = dict(_CHECKED_REJECTS_SEQUENCE)
    for qualname in measured.functions_rejecting_sequences():
        positions = measured.rejects_sequence(qualname) or frozenset()
        table[qualname] = tuple(sorted(set(table.get(qualname, ())) | positions))
    return table


# jax.numpy function -> the positions where a Python list or tuple raises `TypeError`
JNP_REJECTS_SEQUENCE = _rejects_sequence()
# jax.numpy function -> the parameters, by name, where one does (checked: `clip`'s `min`/`max`)
JNP_REJECTS_SEQUENCE_KEYWORDS = {
    qualname: measured.rejects_sequence_keywords(qualname)
    | ({"min", "max"} if qualname.endswith(".clip") else set())
    for qualname in JNP_REJECTS_SEQUENCE
}
