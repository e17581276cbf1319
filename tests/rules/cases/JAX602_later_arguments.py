# A NumPy function that calls its first argument's method (`np.searchsorted(a, v)` is
# `a.searchsorted(v)`) takes a tracer there, but given a NumPy array first it converts a traced
# later argument and raises `TracerArrayConversionError` (measured with JAX 0.10.2, also under a
# bare `grad`). `jnp.searchsorted` takes both.
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

BOUNDS = np.array([0.0, 0.5, 1.0, 2.0])
BIN_WEIGHTS = jnp.array([1.0, 2.0, 4.0, 8.0])


@jax.jit
def binned(pred):
    return BIN_WEIGHTS[jnp.clip(np.searchsorted(BOUNDS, pred), 0, 3)]  # error: JAX602


def weighted_loss(model, x, y):
    pred = jax.vmap(model)(x)[:, 0]
    bins = np.searchsorted(BOUNDS, pred)  # error: JAX602
    return jnp.mean((pred - y) ** 2 * BIN_WEIGHTS[jnp.clip(bins, 0, 3)])


# near misses


@jax.jit
def binned_jnp(pred):
    return BIN_WEIGHTS[jnp.clip(jnp.searchsorted(BOUNDS, pred), 0, 3)]


@jax.jit
def positions(sorted_pred):
    return np.searchsorted(sorted_pred, 0.5)  # a tracer first: its own method runs


def main():
    pred = jnp.array([0.2, 0.7, 1.5])
    return binned_jnp(pred), positions(jnp.sort(pred))


def failing():
    model = eqx.nn.Linear(3, 1, key=jax.random.key(0))
    x = jax.random.normal(jax.random.key(1), (8, 3))
    y = jnp.abs(jax.random.normal(jax.random.key(2), (8,)))
    return (lambda: binned(jnp.array([0.2, 0.7])), lambda: eqx.filter_grad(weighted_loss)(model, x, y))


if __name__ == "__main__":
    import sys

    weights, position = main()
    assert weights.tolist() == [2.0, 4.0, 8.0] and int(position) == 1
    for call in failing():
        try:
            call()
        except jax.errors.TracerArrayConversionError:
            pass
        else:
            sys.exit("np.searchsorted took a traced later argument")
    print("ok")
