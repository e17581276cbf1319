# `x.compress(mask)`, the method form of `jnp.compress(mask, x)`, keeps the rows where a traced
# mask is true: under `jit` its length is data-dependent, so JAX raises unless `size=` is
# given (measured with JAX 0.10.2).
import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def confident_rows(logits, threshold):
    conf = jax.nn.softmax(logits).max(axis=-1)
    return logits.compress(conf > threshold, axis=0)  # error: JAX402


# near misses


@eqx.filter_jit
def padded_rows(logits, threshold):
    conf = jax.nn.softmax(logits).max(axis=-1)
    return logits.compress(conf > threshold, axis=0, size=3)


def eager_rows(logits, threshold):
    conf = jax.nn.softmax(logits).max(axis=-1)
    return logits.compress(conf > threshold, axis=0)


if __name__ == "__main__":
    logits = jnp.array([[4.0, 0.0], [0.1, 0.0], [0.0, 5.0]])
    try:
        confident_rows(logits, 0.9)
    except jax.errors.ConcretizationTypeError:
        pass
    else:
        raise AssertionError("no error")
    assert padded_rows(logits, 0.9).shape == (3, 2)
    assert eager_rows(logits, 0.9).shape == (2, 2)
    print("ok")
