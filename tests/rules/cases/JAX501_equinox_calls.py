# equinox's filter_jit and filter_vmap trace the arrays they are given and keep other values
# static: an unannotated parameter is a tracer where a call in sight passes it an array.
import equinox as eqx
import jax.numpy as jnp
import numpy as np


def clip_one(x):
    if x > 1.0:  # error: JAX501
        return jnp.ones_like(x)
    return x


@eqx.filter_jit
def to_numpy_sum(x):
    return np.array(x).sum()  # error: JAX503


@eqx.filter_jit
def scaled(x, factor):
    if factor > 1.0:  # a Python float: kept static
        return x * factor
    return x


if __name__ == "__main__":
    clip = lambda: eqx.filter_vmap(clip_one)(jnp.array([0.5, 2.0]))  # noqa: E731
    import jax

    for hazard, error in [(clip, jax.errors.TracerBoolConversionError),
                          (lambda: to_numpy_sum(jnp.ones(3)), jax.errors.TracerArrayConversionError)]:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error.__name__}")
    assert jnp.array_equal(scaled(jnp.ones(3), 2.0), jnp.full(3, 2.0))
    print("ok")
