from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("step",))
def schedule(x, step):
    return x * 0.99**step


@jax.jit
def total(x):
    return jnp.sum(x)


poly = jax.jit(lambda x, degree: x**degree, static_argnums=1)


@partial(jax.jit, static_argnames=("epoch",))
def decayed(x, epoch):
    rate = 0.1 if epoch < 5 else 0.01  # traced, this would raise: the message says so
    return x * rate


def train(x, epochs):
    for epoch in range(epochs):
        x = decayed(x, epoch)  # error: JAX607
    return x


def run(x, num_steps):
    for step in range(num_steps):
        x = schedule(x, step)  # error: JAX607
    for i in range(100):
        x = schedule(x, step=i + 1)  # error: JAX607
        x = poly(x, 2 * i)  # error: JAX607
    return x


def prefixes(x):
    sums = []
    for i in range(1, x.shape[0]):
        sums.append(total(x[:i]))  # error: JAX607
        sums.append(total(x[i:]))  # error: JAX607
        sums.append(total(jnp.zeros((i, 3))))  # error: JAX607
    return sums


# --- near misses ---


def short_literal_loop(x):
    for degree in range(3):
        x = poly(x, degree)  # three compilations, on purpose
    return x


def traced_index(x, num_steps):
    for i in range(num_steps):
        x = total(x) + i  # `i` is traced: one compilation
    return x


def fixed_windows(x, n):
    out = []
    for i in range(n):
        out.append(total(x[i : i + 8]))  # every window has 8 elements
        out.append(total(x[i]))
    return out


def loop_over_values(x, modes):
    for mode in modes:
        x = poly(x, mode)
    return x


@jax.jit
def inside_jit(x):
    for i in range(50):
        x = schedule(x, i)  # inlined into this trace, not compiled per value
    return x


def counted_by_while(x):
    step = 0
    while step < 40:
        x = schedule(x, step)  # error: JAX607
        step += 1
    return x


def few_while_steps(x):
    step = 0
    while step < 3:
        x = schedule(x, step)  # a handful of compilations, on purpose
        step += 1
    return x


def converging(x, tol):
    step = 0
    while jnp.abs(x).max() > tol:
        x = schedule(x, 3)
        step += 1
    return x


@partial(jax.jit, static_argnames=("n",))
def head_mean(x, n):
    if n == 0:
        return jnp.zeros(())
    return x[:n].mean()  # `n` bounds a slice: a traced `n` raises here too


@partial(jax.jit, static_argnames=("epoch",))
def maybe_scheduled(x, epoch):
    if epoch is None:  # works on a tracer as it is
        return x
    return x * 0.9


def run_heads(x):
    for n in range(100):
        x = x + head_mean(x, n)  # error: JAX607
        x = maybe_scheduled(x, n)  # error: JAX607
    return x


if __name__ == "__main__":
    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above

    def compiled_by(call, *jitted):
        """How many new compilations each jitted function gets from `call`."""
        before = [f._cache_size() for f in jitted]
        call()
        return [f._cache_size() - b for f, b in zip(jitted, before)]

    x = jnp.ones(2)
    # the marked calls compile once per loop value
    assert compiled_by(lambda: fns["train"](x, 5), decayed) == [5]
    assert compiled_by(lambda: fns["run"](x, 3), schedule, poly) == [103, 100]  # step by position, then by name
    assert compiled_by(lambda: fns["prefixes"](jnp.ones((4, 3))), total) == [3]  # one per shape
    assert compiled_by(lambda: fns["counted_by_while"](x), schedule) == [37]  # 0..39 by position, 0..2 known already
    assert compiled_by(lambda: fns["run_heads"](x), head_mean, maybe_scheduled) == [100, 100]
    # near misses
    jax.clear_caches()
    assert compiled_by(lambda: fns["short_literal_loop"](x), poly) == [3]
    assert compiled_by(lambda: fns["traced_index"](x, 5), total) == [2]  # x's shape, then the scalar sum's: not per `i`
    assert compiled_by(lambda: fns["fixed_windows"](jnp.ones((20, 3)), 4), total) == [2]  # two shapes, not per `i`
    assert compiled_by(lambda: fns["loop_over_values"](x, [2, 2, 2]), poly) == [0]  # degree 2 compiled above
    assert compiled_by(lambda: fns["inside_jit"](x), schedule) == [0]  # inlined
    assert compiled_by(lambda: fns["few_while_steps"](x), schedule) == [3]
    assert compiled_by(lambda: fns["converging"](x, 0.5), schedule) == [1]
    print("ok")
