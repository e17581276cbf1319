# `log(sum(exp(x)))` overflows float32 to `inf` once an element exceeds about 88.7
# (measured with JAX 0.10.2: logits near 100 give `inf`); `jax.nn.logsumexp` is exact there.
import jax
import jax.numpy as jnp


@jax.jit
def log_partition(logits):
    return jnp.log(jnp.sum(jnp.exp(logits)))  # error: JAX643


def row_log_partition(scores):
    return jnp.log(jnp.exp(scores).sum(axis=-1))  # error: JAX643


# near misses


def stable(logits):
    return jax.nn.logsumexp(logits)


def log_mean_exp(x):
    return jnp.log(jnp.mean(jnp.exp(x)))  # a mean: another quantity


def shifted(logits):
    m = jnp.max(logits)
    return m + jnp.log(jnp.sum(jnp.exp(logits - m)))  # shifted: stable


if __name__ == "__main__":
    big = jnp.array([100.0, 95.0, 90.0])
    assert bool(jnp.isinf(log_partition(big)))
    assert bool(jnp.isinf(row_log_partition(big[None])[0]))
    assert bool(jnp.isfinite(stable(big)))
    assert bool(jnp.isfinite(shifted(big)))
