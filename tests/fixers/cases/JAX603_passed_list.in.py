# fix: safe
# A list that eager code passes to a jitted function, handed to `jnp.sum` there: wrapped in
# `jnp.array` (ran with JAX 0.10.2: the fixed program prints 4.0).
import jax
import jax.numpy as jnp


@jax.jit
def total(xs):
    return jnp.sum(xs)


if __name__ == "__main__":
    a = jnp.ones(2)
    print(total([a, a]))
