# An environment variable read while tracing is compiled in: set again between two calls with
# the same arguments, the jitted function keeps the value it traced with (measured with JAX
# 0.10.2). Another variable set, or one set before the first call, is fine.
import os

import jax
import jax.numpy as jnp


@jax.jit
def scaled_loss(pred, target):
    factor = float(os.environ.get("LOSS_SCALE", "1.0"))  # error: JAX103
    return factor * jnp.mean((pred - target) ** 2)


# near misses


@jax.jit
def clipped(pred):
    bound = float(os.environ.get("CLIP", "1.0"))
    return jnp.clip(pred, -bound, bound)


@jax.jit
def tempered(pred):
    return pred / float(os.environ["TEMPERATURE"])


pred, target = jnp.array([1.0, 3.0]), jnp.zeros(2)
os.environ["TEMPERATURE"] = "2.0"
os.environ["LOSS_SCALE"] = "1.0"
a = scaled_loss(pred, target)
c = clipped(pred)
t = tempered(pred)
os.environ["LOSS_SCALE"] = "1024.0"
b = scaled_loss(pred, target)
d = clipped(pred)

if __name__ == "__main__":
    assert float(a) == float(b) == 5.0  # the new scale is never read
    print(float(a), float(b), c, d, t)
