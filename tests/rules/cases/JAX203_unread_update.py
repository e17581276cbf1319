# An `.at[]` update bound to a name the function never reads is made and dropped: the array it
# updates is unchanged (measured with JAX 0.10.2, under `vmap` and eagerly).
import jax
import jax.numpy as jnp


def replace_spike(row, idx):
    patched = row.at[idx].set(jnp.median(row))  # error: JAX203
    return row


# near misses


def replace_spike_used(row, idx):
    patched = row.at[idx].set(jnp.median(row))
    return patched


def dropped_on_purpose(row, idx):
    _ = row.at[idx].set(0.0)
    return row


def read_later(row, idx):
    patched = row.at[idx].set(0.0)
    total = jnp.sum(row)
    return total + jnp.sum(patched)


if __name__ == "__main__":
    batch = jnp.array([[1.0, 50.0, 2.0, 3.0], [4.0, 5.0, 6.0, 90.0]])
    spikes = jnp.argmax(batch, axis=1)
    assert bool(jnp.array_equal(jax.vmap(replace_spike)(batch, spikes), batch))  # unchanged
    assert not bool(jnp.array_equal(jax.vmap(replace_spike_used)(batch, spikes), batch))
    dropped_on_purpose(batch[0], 1)
    read_later(batch[0], 1)
    print("ok")
