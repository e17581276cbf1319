# `np.put_along_axis` writes into its first argument: given a JAX array, it raises `TypeError`
# (measured with JAX 0.10.2 and NumPy 2.4).
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def scores(x):
    return jnp.tanh(x)


def ban_top1(x):
    logits = scores(x)
    top = np.argmax(np.asarray(logits), axis=1)[:, None]
    np.put_along_axis(logits, top, -1e9, axis=1)  # error: JAX211
    return logits


# near misses


def ban_top1_functional(x):
    logits = scores(x)
    top = jnp.argmax(logits, axis=1, keepdims=True)
    return jnp.put_along_axis(logits, top, -1e9, axis=1, inplace=False)


def ban_top1_copy(x):
    logits = np.array(scores(x))
    top = np.argmax(logits, axis=1)[:, None]
    np.put_along_axis(logits, top, -1e9, axis=1)  # a NumPy copy
    return logits


if __name__ == "__main__":
    x = jnp.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]])
    try:
        ban_top1(x)
    except TypeError:
        pass
    else:
        raise AssertionError("no error")
    assert float(ban_top1_functional(x)[0, 1]) == -1e9
    assert float(ban_top1_copy(x)[0, 1]) == -1e9
    print("ok")
