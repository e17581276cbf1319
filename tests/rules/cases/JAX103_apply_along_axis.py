# `jnp.apply_along_axis(f, axis, x)` maps `f` over the other axes with `vmap`: `f` is traced once,
# each row a tracer. Under `jit` it is part of the compiled program, so a global it reads is
# frozen; called eagerly it is traced again on every call and reads the new value (measured
# with JAX 0.10.2).
import jax
import jax.numpy as jnp

ALPHA = 0.1
BETA = 0.1


def leaky_row(r):
    return jnp.where(r > 0, r, ALPHA * r)  # error: JAX103


def clipped_row(r):
    if r.sum() > 0:  # error: JAX501
        return r
    return -r


@jax.jit
def activate(x):
    return jnp.apply_along_axis(leaky_row, 1, x)


# near misses


def softened_row(r):
    return jnp.where(r > 0, r, BETA * r)  # applied eagerly: traced again on every call


SOFTENED = []
for BETA in (0.2, 0.5):
    SOFTENED.append(jnp.apply_along_axis(softened_row, 1, -jnp.ones((2, 3))))


def raises(thunk):
    try:
        thunk()
    except jax.errors.TracerBoolConversionError:
        return True
    return False


if __name__ == "__main__":
    x = -jnp.ones((2, 3))
    before = activate(x)
    ALPHA = 0.5
    assert bool(jnp.allclose(activate(x), before))  # the new ALPHA is ignored
    assert not bool(jnp.allclose(SOFTENED[0], SOFTENED[1]))
    assert raises(lambda: jnp.apply_along_axis(clipped_row, 1, x))
    print("ok")
