# A module object bound to a jitted function with `functools.partial` is read while tracing:
# changed in place between two calls, the compiled program keeps what it held (measured with JAX
# 0.10.2). Rebinding the name changes nothing the partial holds, eagerly or not; a key the
# function never reads is fine.
from functools import partial

import jax
import jax.numpy as jnp


def apply(cfg, x):
    return jnp.tanh(x * cfg["gain"]) * cfg["scale"]  # error: JAX103


cfg = {"gain": 1.0, "scale": 1.0}
forward = jax.jit(partial(apply, cfg))


# near misses


def shift(opts, x):
    return x + opts["offset"]


opts = {"offset": 1.0, "unused": 0.0}
shifted = jax.jit(partial(shift, opts))


def tilt(conf, x):
    return x * conf["slope"]


conf = {"slope": 2.0}
tilted = jax.jit(partial(tilt, conf))

x = jnp.array([0.5, 1.0])
before, s0, t0 = forward(x), shifted(x), tilted(x)
cfg["scale"] = 10.0
opts["unused"] = 5.0
conf = {"slope": 3.0}
after, s1, t1 = forward(x), shifted(x), tilted(x)

if __name__ == "__main__":
    assert jnp.allclose(before, after)  # the new scale is never seen
    assert jnp.allclose(t0, t1) and jnp.allclose(t1, partial(tilt, {"slope": 2.0})(x))  # eager agrees
    print(before, after, s0, s1, t0, t1)
