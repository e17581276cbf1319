# fix: unsafe
import jax.numpy as jnp


def row_log_partition(scores):
    return jnp.log(jnp.sum(jnp.exp(scores), axis=-1))  # per row


if __name__ == "__main__":
    out = row_log_partition(jnp.array([[100.0, 95.0], [0.0, 0.0]]))
    assert bool(jnp.all(jnp.isfinite(out)))
