# The variable of a loop over a JAX array is a JAX array (a row of it): item assignment on it
# raises `TypeError` (measured with JAX 0.10.2), where every call in sight passes a JAX array.
# Rows of a NumPy array take the assignment.
import jax
import jax.numpy as jnp
import numpy as np


def clean_waveforms(batch, floor):
    cleaned = []
    for row in batch:
        row[jnp.abs(row) < floor] = 0.0  # error: JAX201
        cleaned.append(row)
    return jnp.stack(cleaned)


# near misses


def clean_host_waveforms(batch, floor):
    cleaned = []
    for row in batch:
        row[np.abs(row) < floor] = 0.0  # a NumPy row: assigned in place
        cleaned.append(row)
    return np.stack(cleaned)


def clean_functional(batch, floor):
    return jnp.stack([jnp.where(jnp.abs(row) < floor, 0.0, row) for row in batch])


waves = jax.random.normal(jax.random.key(0), (3, 8))
host_waves = np.array(jax.random.normal(jax.random.key(1), (3, 8)))


def main():
    return clean_host_waveforms(host_waves, 0.5), clean_functional(waves, 0.5)


def failing():
    return clean_waveforms(waves, 0.5)


if __name__ == "__main__":
    import sys

    host, functional = main()
    assert float(np.abs(host).min()) == 0.0 and float(jnp.abs(functional).min()) == 0.0
    try:
        failing()
    except TypeError:
        pass
    else:
        sys.exit("item assignment on a row of a JAX array did not raise")
    print("ok")
