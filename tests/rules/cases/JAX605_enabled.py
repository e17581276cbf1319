import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)


def accumulator(n):
    return jnp.zeros(n, dtype=jnp.float64)


# --- near misses ---
# x64 is enabled at the top of this module: float64 is real here.


if __name__ == "__main__":
    x = accumulator(3)
    assert x.dtype == jnp.float64 and x.shape == (3,)
    print("ok")
