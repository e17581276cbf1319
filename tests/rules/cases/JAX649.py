# `lax.scan` with no `xs` needs `length=` (measured with JAX 0.10.2: `ValueError: scan got no
# values to scan over and length not provided`, eagerly and under jit).
import jax
import jax.numpy as jnp
from jax import lax


def decay(h, _):
    return h * 0.9, h


@jax.jit
def generate(h0):
    _, hs = lax.scan(decay, h0, None)  # error: JAX649
    return hs


def rollout(h0):
    return jax.lax.scan(decay, h0, xs=None)  # error: JAX649


def implicit(h0):
    return lax.scan(decay, h0)  # error: JAX649


# near misses


def with_length(h0):
    return lax.scan(decay, h0, None, length=5)


def positional_length(h0):
    return lax.scan(decay, h0, None, 5)


def over_xs(h0, xs):
    return lax.scan(decay, h0, xs)


def forwarded(h0, **kwargs):
    return lax.scan(decay, h0, None, **kwargs)


if __name__ == "__main__":
    for raising in (generate, rollout, implicit):
        try:
            raising(jnp.float32(1.0))
        except ValueError as error:
            assert "length" in str(error)
        else:
            raise AssertionError("expected ValueError")
    print(with_length(1.0)[1].shape, positional_length(1.0)[1].shape, over_xs(1.0, jnp.ones(3))[1].shape)
    print(forwarded(1.0, length=2)[1].shape)
    print("ok")
