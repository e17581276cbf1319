# `jnp.delete` needs its indices concrete under jit (ConcretizationTypeError), unless the call
# passes `assume_unique_indices=True`, which lets JAX take them traced (measured with JAX 0.10.2
# by tools/measure_jax_api.py: the parameter's `unless`). `jnp.repeat`'s `repeats`, which
# `total_repeat_length` makes optional, is JAX402's.
import jax
import jax.numpy as jnp


@jax.jit
def drop_worst(losses):
    worst = jnp.argmax(losses)
    return jnp.delete(losses, worst).mean()  # error: JAX403


@jax.jit
def drop_first_of(x, i):
    return jnp.delete(x, i, 0)  # error: JAX403


# near misses


@jax.jit
def drop_worst_unique(losses):
    worst = jnp.argmax(losses)
    return jnp.delete(losses, worst, assume_unique_indices=True).mean()


@jax.jit
def drop_static(x):
    return jnp.delete(x, 0)


@jax.jit
def repeated(x, n):
    return jnp.repeat(x, n, total_repeat_length=6)


if __name__ == "__main__":
    losses = jnp.array([0.1, 3.0, 0.2, 0.3])
    print(drop_worst_unique(losses), drop_static(losses), repeated(jnp.ones(3), 2))
    for failing in (lambda: drop_worst(losses), lambda: drop_first_of(losses, 1)):
        try:
            failing()
        except jax.errors.ConcretizationTypeError:
            print("ConcretizationTypeError")
        else:
            raise AssertionError("expected ConcretizationTypeError")
