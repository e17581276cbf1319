# The branches of `lax.switch` must return the same dtype: an int32 branch among float32 ones
# raises `TypeError` (measured with JAX 0.10.2), also when the list of branches is bound to a
# name first and its first branch's dtype is not known from the source.
import jax
import jax.numpy as jnp
from jax import lax


def activation(kind, x):
    branches = [
        lambda v: jnp.maximum(v, 0.0),
        lambda v: jnp.tanh(v),
        lambda v: (v > 0).astype(jnp.int32),  # error: JAX405
    ]
    return lax.switch(kind, branches, x)


# near misses


def floats(kind, x):
    branches = [lambda v: jnp.maximum(v, 0.0), lambda v: jnp.tanh(v), lambda v: (v > 0).astype(jnp.float32)]
    return lax.switch(kind, branches, x)


def extended(kind, x):
    branches = [lambda v: jnp.tanh(v)]
    branches.append(lambda v: v * 2.0)  # changed in place: not read from the display
    return lax.switch(kind, branches, x)


if __name__ == "__main__":
    x = jnp.array([-1.0, 2.0])
    print(jax.jit(floats)(2, x), jax.jit(extended)(1, x))
    try:
        jax.jit(activation)(2, x)
    except TypeError as error:
        print("TypeError", str(error)[:50])
    else:
        raise AssertionError("expected TypeError")
