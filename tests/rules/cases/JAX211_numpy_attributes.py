# `flat` of a NumPy array is defined on a JAX array only to refuse: it raises
# `NotImplementedError`, eagerly and under `jit` (measured with JAX 0.10.2 by
# tools/measure_jax_api.py). The attributes a JAX array simply lacks (`strides`, `data`...) are
# not reported: other objects often have such names.
import jax
import jax.numpy as jnp
import numpy as np


def mask_diagonal(scores):
    n = scores.shape[0]
    for i in range(n):
        scores.flat[i * (n + 1)] = -1e9  # error: JAX211
    return scores


@jax.jit
def flattened(x):
    return jnp.sum(x.flat)  # error: JAX211


# near misses


def mask_diagonal_functionally(scores):
    return jnp.fill_diagonal(scores, -1e9, inplace=False)


def host_stride(x):
    return np.asarray(x).strides[0]


def numpy_flat(values):
    host = np.zeros(4)
    host.flat[0] = values
    return host


if __name__ == "__main__":
    hazards = (
        (lambda: mask_diagonal(jnp.ones((3, 3))), NotImplementedError),
        (lambda: flattened(jnp.ones((2, 3))), NotImplementedError),
    )
    for hazard, error in hazards:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"expected {error.__name__}")
    assert float(mask_diagonal_functionally(jnp.ones((2, 2)))[0, 0]) == -1e9
    assert host_stride(jnp.ones((2, 3))) == 12
    assert numpy_flat(1.0)[0] == 1.0
    print("ok")
