import functools
from typing import Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit, lax


@jax.jit
def relu_or_leak(x):
    if x.sum() > 0:  # error: JAX501
        return x
    return 0.01 * x


@jit
def piecewise(x):
    if x < 0:  # error: JAX501
        return -x
    elif x < 1:  # error: JAX501
        return x**2
    else:
        return 2 * x - 1


@jax.jit
def forward(x, training):
    if training:  # error: JAX501
        x = x * 0.5
    return jnp.tanh(x)


@jax.jit
def doubling_steps(x):
    steps = 0
    while x < 100.0:  # error: JAX501
        x = x * 2.0
        steps += 1
    return x, steps


def square_small(v):
    return v if v > 1.0 else v**2  # error: JAX501


batched = jax.vmap(square_small)


@jax.jit
def both(x, y):
    if x.any() and not y.all():  # error: JAX501
        return x
    return y


def body(i, carry):
    if carry > 10:  # error: JAX501
        return carry
    return carry + i


def loop(x):
    return lax.fori_loop(0, 5, body, x)


def helper(v, threshold):
    if v.max() > threshold:  # error: JAX501
        return v
    return -v


@jax.jit
def calls_helper(x):
    return helper(x, 0.5)


@jax.jit
def comprehension(xs: jax.Array):
    return [x for x in xs if x > 0]  # error: JAX501


@jax.jit
def traced_on_one_path_only(x):
    scale = 1.0
    if x.shape[0] > 2:
        scale = x.sum()
    if scale > 0:  # error: JAX501
        return x * scale
    return x


@jax.jit
def traced_after_the_loop(x):
    total = 0.0
    for row in range(3):
        total = total + x[row]
    if total > 0:  # error: JAX501
        return x
    return -x


@jax.jit
def constant_computed_with_jnp(x):
    y = jnp.add(1, 1)
    if y > 0:  # error: JAX501
        return x
    return -x


WEIGHTS = jnp.ones(3)


@jax.jit
def module_array_indexed(x):
    if WEIGHTS[0] > 0:  # error: JAX501
        return x * WEIGHTS
    return x


def scan_body_on_constants(carry, x):
    if jnp.zeros(()).sum() == 0:  # error: JAX501
        return carry, x
    return carry, -x


scanned = lax.scan(scan_body_on_constants, 0.0, jnp.ones(3))


@jax.jit
def branches_on_dict_values(params, x):
    for value in params.values():
        if value > 0:  # error: JAX501
            x = x + value
    for name, value in params.items():
        if value < 0:  # error: JAX501
            x = x - value
    return x


@jax.jit
def compares_items_with_numbers(xs, total):
    kept = [x for x in xs if x > 0]  # error: JAX501
    for row in xs:
        if row.sum() > 0:  # error: JAX501
            total = total + 1
    return kept, total


@jax.jit
def branches_on_rows(xs: jax.Array, x):
    for row in xs:
        if row > 0:  # error: JAX501
            x = x + row
    return x


TABLE = jnp.linspace(-1.0, 1.0, 4)


@jax.jit
def branches_on_a_leaf_of_a_known_tree(x):
    leaves = jax.tree.leaves({"table": TABLE, "offset": x})
    if leaves[1].sum() > 0:  # error: JAX501
        x = x * 2.0
    return x


# --- near misses ---


@jax.jit
def branches_on_dict_keys(params, x):
    for name in params:  # a dict's keys are strings, whatever the values hold
        if name == "b":
            x = x + params[name]
    return x


@jax.jit
def comprehension_over_an_argument_of_unknown_kind(params):
    return sum(params[name] for name in params if name != "b")  # a dict's keys: unknown, silent


@jax.jit
def defaults_to_a_dict(x, extras=None):
    extras = extras or {}
    for name in extras:
        if name == "bias":
            x = x + extras[name]
    return x


def vmapped_on_constants(x):
    if jnp.zeros(()).sum() == 0:  # a bare vmap runs operations on constants eagerly
        return x
    return -x


batched_constants = jax.vmap(vmapped_on_constants)


@jax.jit
def static_facts_of_arrays(x):
    if WEIGHTS.shape[0] > 2 and jnp.pi > 3 and x.ndim == 1:
        return x
    return -x


@jax.jit
def maybe_pool(x):
    if x.shape[0] > 2:
        x = x.reshape(-1, 2).mean(axis=1)
    return x


@jax.jit
def dense(x, w, bias=None):
    y = x @ w
    if bias is None:
        return y
    return y + bias


@functools.partial(jax.jit, static_argnames=("training",))
def forward_static(x, training):
    if training:
        x = x * 0.5
    return jnp.tanh(x)


@functools.partial(jax.jit, static_argnums=(1,))
def forward_static_num(x, training):
    if training:
        return x * 0.5
    return x


@jax.jit
def with_default(x, mode="fast"):
    if mode == "fast":
        return x
    return x * 2


def huber(w, x, y):
    r = jnp.abs(x @ w - y).mean()
    if r < 1.0:
        return 0.5 * r**2
    return r - 0.5


grad_only = jax.grad(huber)


@jax.jit
def isinstance_guard(x, scale):
    if isinstance(scale, float) and scale > 1:
        return x * scale
    return x


@jax.jit
def tuple_truthiness(x, limits: Sequence[float] = ()):
    if limits:
        return jnp.clip(x, limits[0], limits[1])
    return x


@jax.jit
def rank_loop(x):
    for axis in range(x.ndim):
        if axis > 0:
            x = x.sum(axis=0)
    return x


@jax.jit
def containers(x):
    parts = [x, x]
    if parts:
        return parts[0]
    return x


def eager(x):
    if x.sum() > 0:
        return x
    return -x


def with_defaults(x, mode="sum"):
    if mode == "sum":
        return x.sum()
    return x


vmapped_defaults = jax.vmap(with_defaults)


@jax.jit
def kwargs_keys(x, **updates):
    for name in updates:
        if name == "scale":
            x = x * updates[name]
    return x


@jax.jit
def tree_leaves_truthiness(tree):
    leaves = jax.tree_util.tree_leaves(tree)
    if not leaves:
        return 0.0
    return leaves[0]


def _make_filter(flag):
    return lambda leaf: flag


@jax.jit
def partition_like(tree):
    masks = jax.tree_util.tree_map(_make_filter(True), tree)
    return jax.tree_util.tree_map(lambda mask, x: x if mask else None, masks, tree)


@jax.jit
def eager_path_behind_a_tracer_test(x):
    if isinstance(x, jax.core.Tracer):
        return jnp.abs(x)
    if x > 0:  # ok: runs only on concrete values, never under jit
        return x
    return -x


def eager_path_when_static(x):
    if not isinstance(x, jax.core.Tracer):
        return float(x)
    if x > 0:  # error: JAX501
        return x
    return -x


jax.jit(eager_path_when_static)(1.0)


class Normalizer:
    """Built inside `normalize`, which jit traces: what `__init__` stores on `self` is read back."""

    def __init__(self, x):
        self.scale = jnp.abs(x).max()
        if self.scale > 0:  # error: JAX501
            x = x / self.scale
        self.size = x.shape[0]
        if self.size > 2:  # static: a shape
            x = x[:2]
        self.offset = x.sum()
        self.reset()
        if self.offset > 0:  # not known after `reset()`, which may change it
            x = x - 1.0
        self.out = x

    def reset(self):
        self.offset = 0.0


@jax.jit
def normalize(x):
    return Normalizer(x).out


Y_GRID = jnp.arange(10.0)


@jax.jit
def numpy_reduction_of_a_tracer(x):
    # measured: NumPy's reductions call the tracer's own method (`np.all(a)` is `a.all()`) and
    # hand back a tracer, so the branch raises, on an argument and on a constant alike
    if np.all(x <= 0):  # error: JAX501
        x = x + 1.0
    if np.any(Y_GRID > 5):  # error: JAX501
        x = x * 2.0
    if np.all(np.ones(3) > 0):  # NumPy on NumPy: a Python bool
        x = x - 1.0
    if np.ndim(x) > 1:  # a static query
        x = x.ravel()
    return float(np.sum(x))  # error: JAX503


@jax.jit
def computed_at_compile_time(x):
    with jax.ensure_compile_time_eval():
        if np.all(jnp.diff(Y_GRID) > 0):  # constants are computed eagerly here
            x = x + 1.0
        if jnp.sum(Y_GRID > 5) > 2:  # likewise
            x = x * 2.0
        if x.sum() > 0:  # error: JAX501 (an argument is still a tracer)
            x = x - 1.0
    return x


class Grid:
    def __init__(self, n):
        self.x = jnp.linspace(0.0, 1.0, n)

    @functools.cached_property
    def spacing(self):
        step = jnp.diff(self.x).mean()
        return 1.0 if step > 0 else -1.0  # the first read may be eager: it is cached afterwards


GRID = Grid(5)
WARM = GRID.spacing


@jax.jit
def scaled(x):
    return x * GRID.spacing


# `in_axes` entries that are pytrees of axes: `None` leaves an entry unmapped (its caller's value)
def per_example(batch):
    if batch["x"] > 0:  # error: JAX501
        return batch["x"] * batch["scale"]
    if batch["scale"] > 0:  # ok: `scale` is not mapped, its caller passed a concrete value
        return batch["x"]
    return -batch["x"]


def per_pair(pair):
    if pair[1] > 0:  # ok: the second item is not mapped
        return pair[0] * pair[1]
    return pair[0]


def per_pair_mapped(pair):
    if pair[0] > 0:  # error: JAX501
        return pair[0]
    return -pair[0]


def mapped_entries(x, scale):
    a = jax.vmap(per_example, in_axes=({"x": 0, "scale": None},))({"x": x, "scale": scale})
    b = jax.vmap(per_pair, in_axes=((0, None),))((x, scale))
    c = jax.vmap(per_pair_mapped, in_axes=[(0, None)])((x, scale))
    return a, b, c


# type tests that short-circuit before a tracer is compared: a tracer is a `jax.Array`, no `float`
def noise_unless_zero(x, std):
    if not isinstance(std, jax.Array) and std == 0:  # ok: never compares a tracer
        return x
    if isinstance(std, jax.Array) and std == 0:  # error: JAX501
        return x
    return x + std


def shift_unless_zero(x, s):
    if isinstance(s, jax.core.Tracer) or s != 0:  # ok: a tracer never reaches `s != 0`
        return x + s
    return x


def shift_unless_one(x, s):
    if not isinstance(s, jax.core.Tracer) or s != 1:  # error: JAX501
        return x - s
    return x


def scale_unless_one(x, s):
    if type(s) is float and s == 1.0:  # ok: a tracer's type is not float
        return x
    if type(s) is not float and s == 2.0:  # error: JAX501
        return x
    return x * s


@jax.jit
def guarded(x, s):
    return noise_unless_zero(x, s) + shift_unless_zero(x, s) + shift_unless_one(x, s) + scale_unless_one(x, s)


def positive_or_unknown(x):
    try:
        if x > 0:  # ok: the probe's error is caught
            return True
    except TypeError:
        return None
    return False


@jax.jit
def probes_the_sign(x):
    return x, positive_or_unknown(x)


# `jax.checkpoint` stages every argument a call passes, as `jit` does: a flag with a default is
# traced where a call passes it, and keeps its default where none does (measured with JAX 0.10.2)
@jax.checkpoint
def remat_block(x, residual=False):
    return jnp.tanh(x) + (x if residual else 0.0)  # error: JAX501


def remat_caller(x):
    return remat_block(x, residual=False)


@jax.checkpoint
def remat_default(x, residual=False):
    return jnp.tanh(x) + (x if residual else 0.0)


def remat_default_caller(x):
    return remat_default(x)
