# `jnp.piecewise` is jitted with its functions static: it traces each on `x`, eagerly too, so a
# Python `if` on what a piece receives raises (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp


def warmup(t):
    return t / 100.0


def inverse_sqrt(t):
    if t.max() > 1000.0:  # error: JAX501
        return jnp.full_like(t, 0.1)
    return 1.0 / jnp.sqrt(t / 100.0)


def lr_schedule(step):
    t = step.astype(jnp.float32)
    return jnp.piecewise(t, [t < 100.0, t >= 100.0], [warmup, inverse_sqrt])


# near misses


def capped_inverse_sqrt(t):
    return jnp.where(t > 1000.0, 0.1, 1.0 / jnp.sqrt(t / 100.0))


def shaped(t):
    if t.ndim > 1:
        return t.sum(axis=-1)
    return t


@jax.jit
def safe_schedule(step):
    t = step.astype(jnp.float32)
    return jnp.piecewise(t, [t < 100.0, t >= 100.0], [warmup, capped_inverse_sqrt])


def shaped_pieces(x):
    return jnp.piecewise(x, [x < 0.0], [shaped, lambda t: t])


if __name__ == "__main__":
    steps = jnp.arange(0, 2000, 250)
    try:
        lr_schedule(steps)
    except jax.errors.TracerBoolConversionError:
        pass
    else:
        raise AssertionError("expected TracerBoolConversionError")
    assert safe_schedule(steps).shape == (8,)
    assert shaped_pieces(jnp.array([-1.0, 1.0])).shape == (2,)
    print("ok")
