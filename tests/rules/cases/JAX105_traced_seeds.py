# Python's and NumPy's generators take a Python number as their seed: given a tracer they raise
# (`TypeError` from `default_rng`, `SeedSequence` and `random.seed`, `TracerArrayConversionError`
# from `RandomState` and `np.random.seed`), under `jit` and under `grad` alike (measured with
# JAX 0.10.2 and NumPy 2).
import random
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


@jax.jit
def jitter(img, seed):
    rng = np.random.default_rng(seed)  # error: JAX105
    return jnp.roll(img, int(rng.integers(-2, 3)), axis=1)


def seeded_loss(w, seed):
    np.random.seed(seed)  # error: JAX105
    return w * 2.0


def per_example(seed):
    return random.Random(seed).random()  # error: JAX105


def body(carry, seed):
    state = np.random.RandomState(seed)  # error: JAX105
    return carry + state.rand(), seed


@jax.jit
def scanned(seeds):
    return lax.scan(body, 0.0, seeds)


# near misses


@partial(jax.jit, static_argnames=("seed",))
def static_seed(img, seed):
    rng = np.random.default_rng(seed)  # a Python int: made while tracing
    return jnp.roll(img, int(rng.integers(-2, 3)), axis=1)


@jax.jit
def jax_key(img, seed):
    shift = jax.random.randint(jax.random.key(seed), (), -2, 3)
    return jnp.roll(img, shift, axis=1)


@jax.jit
def shape_seed(img):
    return img * np.random.default_rng(img.shape[0]).random()  # a shape is static


def raises(thunk):
    try:
        thunk()
    except (TypeError, jax.errors.TracerArrayConversionError):
        return True
    return False


if __name__ == "__main__":
    img = jnp.arange(16.0).reshape(4, 4)
    assert raises(lambda: jitter(img, 1))
    assert raises(lambda: jax.jit(seeded_loss)(1.0, 3))
    seeded_loss(1.0, 3)  # eagerly, a Python int seeds it
    assert raises(lambda: jax.vmap(per_example)(jnp.arange(3)))
    assert raises(lambda: scanned(jnp.arange(3)))
    static_seed(img, seed=1)
    jax_key(img, 1)
    shape_seed(img)
    print("ok")
