# A Python sequence repeated a traced number of times (measured with JAX 0.10.2: a list or tuple
# raises TypeError, a string TracerIntegerConversionError, under jit and vmap).
import jax
import jax.numpy as jnp

COUNT = jnp.int32(2)


@jax.jit
def pad_to(seq, n_pad):
    padding = [0.0] * n_pad  # error: JAX503
    return jnp.concatenate([seq, jnp.array(padding)])


def ones_row(n):
    return jnp.array(n * (1.0,))  # error: JAX503


@jax.jit
def banner(width):
    return len("=" * width)  # error: JAX503


@jax.jit
def counted(x):
    return jnp.array([1.0] * COUNT) * x  # error: JAX503 (any JAX array, concrete too)


# near misses


@jax.jit
def pad_static(seq):
    padding = [0.0] * (4 - seq.shape[0])  # a shape: a Python int
    return jnp.concatenate([seq, jnp.array(padding)])


@jax.jit
def scaled(x, scale):
    return jnp.array([1.0, 2.0]) * scale  # an array, not a list


@jax.jit
def masked_pad(seq, n_pad):
    return jnp.where(jnp.arange(4) < n_pad, 0.0, 1.0) * seq.sum()


if __name__ == "__main__":
    for call, error in (
        (lambda: pad_to(jnp.ones(3), 2), TypeError),
        (lambda: jax.vmap(ones_row)(jnp.array([2, 2])), TypeError),
        (lambda: banner(3), jax.errors.TracerIntegerConversionError),
        (lambda: counted(1.0), TypeError),
    ):
        try:
            call()
        except error:
            pass
        else:
            raise AssertionError(f"expected {error.__name__}")
    assert pad_static(jnp.ones(3)).shape == (4,)
    assert scaled(jnp.ones(2), 2.0).tolist() == [2.0, 4.0]
    assert masked_pad(jnp.ones(4), 2).shape == (4,)
    print("ok")
