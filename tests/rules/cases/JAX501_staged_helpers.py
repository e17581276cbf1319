"""Jitted code runs its helpers in the trace even when it passes them no tracer: every `jax.numpy`
result there is a tracer, constants included (omnistaging). A bare `vmap` stages only what
depends on its inputs."""

import jax
import jax.numpy as jnp


def make_mask():
    m = jnp.arange(3) > 1
    if m.any():  # error: JAX501 (a tracer under jit, though made from constants)
        return m
    return ~m


def size_of(n):
    total = jnp.sum(jnp.arange(n))
    return int(total)  # error: JAX503


@jax.jit
def step(x):
    return x * make_mask() + size_of(3)


def batch_mask():
    m = jnp.arange(3) > 1
    if m.any():  # ok: under a bare vmap, constants stay concrete
        return m
    return ~m


def per_example(x):
    return x * batch_mask()


batched = jax.vmap(per_example)


def eager_mask():
    m = jnp.arange(3) > 1
    if m.any():  # ok: only called eagerly
        return m
    return ~m


def evaluate(x):
    return x * eager_mask()


if __name__ == "__main__":
    try:
        step(jnp.ones(3))
    except jax.errors.TracerBoolConversionError:
        pass
    else:
        raise AssertionError("step did not raise TracerBoolConversionError")
    assert batched(jnp.ones((2, 3))).tolist() == [[0.0, 0.0, 1.0]] * 2
    assert evaluate(jnp.ones(3)).tolist() == [0.0, 0.0, 1.0]
    assert size_of(3) == 3  # eagerly, a concrete value
    # `step` stops at `make_mask`; with a staged mask in its place it reaches `size_of`
    globals()["make_mask"] = lambda: jnp.arange(3) > 1
    try:
        step(jnp.zeros(3))
    except jax.errors.ConcretizationTypeError:
        pass
    else:
        raise AssertionError("size_of did not raise ConcretizationTypeError under jit")
    print("ok")
