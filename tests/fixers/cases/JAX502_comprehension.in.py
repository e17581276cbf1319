# fix: unsafe
import jax
import jax.numpy as jnp


@jax.jit
def powers(x, n):
    return jnp.stack([x**k for k in range(n)])


if __name__ == "__main__":
    assert powers(jnp.float32(2.0), 3).tolist() == [1.0, 2.0, 4.0]
