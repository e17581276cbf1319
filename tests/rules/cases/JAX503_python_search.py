# Python searches that compare a traced value with each item of a list or tuple: `in`, `.index`,
# `.count` and `bisect` ask the truth of each `==` or `<`, which raises on a tracer (measured with
# JAX 0.10.2). A set would hash the tracer instead: not reported here.
import bisect

import jax
import jax.numpy as jnp

CLASS_IDS = [3, 7, 11, 19]
BOUNDARIES = (100, 200)


def to_slot(label):
    return CLASS_IDS.index(label)  # error: JAX503


@jax.jit
def known(label):
    return label in CLASS_IDS  # error: JAX503


@jax.jit
def step_size(count):
    return bisect.bisect(BOUNDARIES, count)  # error: JAX503


@jax.jit
def seen(label):
    return CLASS_IDS.count(label)  # error: JAX503


# near misses


@jax.jit
def slot_in_array(label):
    return jnp.argmax(jnp.array(CLASS_IDS) == label)


@jax.jit
def known_array(label):
    return jnp.isin(label, jnp.array(CLASS_IDS))


@jax.jit
def static_search(x):
    return x * CLASS_IDS.index(x.shape[0] + 3)


if __name__ == "__main__":
    print(slot_in_array(jnp.int32(7)), known_array(jnp.int32(7)))
    print(static_search(jnp.ones(4)))
    failing = (lambda: jax.vmap(to_slot)(jnp.array([7])), lambda: known(jnp.int32(7)))
    for fn in (*failing, lambda: step_size(jnp.int32(150)), lambda: seen(jnp.int32(7))):
        try:
            fn()
        except jax.errors.TracerBoolConversionError:
            print("TracerBoolConversionError")
        else:
            raise AssertionError("expected TracerBoolConversionError")
