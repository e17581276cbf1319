# Keyword arguments renamed: `jnp.clip`'s `a_min`/`a_max` were deprecated in JAX 0.4.27 and
# removed in 0.10.0 (measured with JAX 0.10.2: `TypeError: clip() got an unexpected keyword
# argument 'a_min'`); `min`/`max` are the same parameters.
import jax
import jax.numpy as jnp


@jax.jit
def clipped(g):
    return jax.tree.map(lambda t: jnp.clip(t, a_min=-1.0, a_max=1.0), g)  # error: JAX609


def floor_only(x):
    return jnp.clip(x, a_min=0.0)  # error: JAX609


# near misses


def current(x):
    return jnp.clip(x, min=0.0, max=1.0)


def positional(x):
    return jnp.clip(x, 0.0, 1.0)


def numpy_style(x):
    import numpy as np

    return np.clip(x, a_min=0.0, a_max=1.0)


if __name__ == "__main__":
    try:
        clipped({"w": jnp.ones(3)})
    except TypeError as error:
        assert "unexpected keyword argument" in str(error)
    else:
        raise AssertionError("expected TypeError")
    print(current(jnp.ones(2)), positional(jnp.ones(2)), numpy_style(jnp.ones(2)))
    print("ok")
