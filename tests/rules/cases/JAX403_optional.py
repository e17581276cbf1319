# `jnp.delete` needs its indices concrete under jit (ConcretizationTypeError), unless the call
# passes `assume_unique_indices=True`, which lets JAX take them traced (measured with JAX 0.10.2
# by tools/measure_jax_api.py: the parameter's `unless`). `jnp.repeat`'s `repeats`, which
# `total_repeat_length` makes optional, is JAX402's. `jnp.roots` strips the leading zeros of its
# coefficients by value unless given `strip_zeros=False` (measured with a vector: a scalar
# traces either way).
import jax
import jax.numpy as jnp


@jax.jit
def drop_worst(losses):
    worst = jnp.argmax(losses)
    return jnp.delete(losses, worst).mean()  # error: JAX403


@jax.jit
def drop_first_of(x, i):
    return jnp.delete(x, i, 0)  # error: JAX403


@jax.jit
def polynomial_roots(coefficients):
    return jnp.roots(coefficients)  # error: JAX403


# near misses


@jax.jit
def polynomial_roots_kept(coefficients):
    return jnp.roots(coefficients, strip_zeros=False)


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
    print(polynomial_roots_kept(jnp.array([1.0, -3.0, 2.0])))
    failing_calls = (
        lambda: drop_worst(losses),
        lambda: drop_first_of(losses, 1),
        lambda: polynomial_roots(jnp.array([1.0, -3.0, 2.0])),
    )
    for failing in failing_calls:
        try:
            failing()
        except jax.errors.ConcretizationTypeError:
            print("ConcretizationTypeError")
        else:
            raise AssertionError("expected ConcretizationTypeError")
