# Functions whose result length depends on the data and that take no `size=` (measured by
# tools/measure_jax_api.py: `jnp.trim_zeros` raises `ConcretizationTypeError` under `jit` on any
# argument, and under `vmap`; under `grad` alone it runs).
import jax
import jax.numpy as jnp
import numpy as np

PADDED = np.array([0, 3, 4, 0])


def seq_length(tokens):
    return jnp.trim_zeros(tokens, trim="b").shape[0]  # error: JAX402


@jax.jit
def trimmed_constant():
    return jnp.trim_zeros(PADDED)  # error: JAX402


@jax.jit
def trimmed(x):
    return jnp.trim_zeros(x)  # error: JAX402


# near misses


def trimmed_sum(x):
    return jnp.trim_zeros(x).sum()


@jax.jit
def host_trimmed():
    return jnp.asarray(np.trim_zeros(PADDED))


def seq_length_masked(tokens):
    return jnp.sum(jnp.cumsum((tokens != 0)[::-1]) > 0)


def eager_length(tokens):
    return jnp.trim_zeros(tokens, trim="b").shape[0]


if __name__ == "__main__":
    batch = jnp.array([[5, 3, 0, 0], [7, 1, 4, 0]])
    for failing in (lambda: jax.vmap(seq_length)(batch), trimmed_constant, lambda: trimmed(batch[0])):
        try:
            failing()
        except jax.errors.ConcretizationTypeError:
            pass
        else:
            raise AssertionError("expected ConcretizationTypeError")
    assert jax.grad(trimmed_sum)(jnp.array([0.0, 1.0, 2.0, 0.0]))[1] == 1.0
    assert host_trimmed().tolist() == [3, 4]
    assert jax.vmap(seq_length_masked)(batch).tolist() == [2, 3]
    assert eager_length(batch[0]) == 2
