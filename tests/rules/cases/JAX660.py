# `lax.scan` over a Python list slices each array in it: the body gets a list of slices, and
# arithmetic on it raises `TypeError` (measured with JAX 0.10.2). A stacked array, or a body that
# reads the list's parts, is fine.
import jax.numpy as jnp
from jax import lax

frames = [jnp.full((3,), float(t)) for t in range(5)]


def smooth(acc, frame):
    acc = 0.9 * acc + frame
    return acc, acc


def run():
    return lax.scan(smooth, jnp.zeros(3), frames)  # error: JAX660


def run_display():
    return lax.scan(lambda c, x: (c + x, c), 0.0, [jnp.ones(4), jnp.zeros(4)])  # error: JAX660


# near misses


def run_stacked():
    return lax.scan(smooth, jnp.zeros(3), jnp.stack(frames))


def pair_body(acc, pair):
    signal, noise = pair
    return acc + signal - noise, acc


def run_pairs():
    return lax.scan(pair_body, jnp.zeros(()), [jnp.ones(4), jnp.zeros(4)])


if __name__ == "__main__":
    for raising in (run, run_display):
        try:
            raising()
        except TypeError as error:
            assert "list" in str(error)
        else:
            raise AssertionError("expected TypeError")
    print(run_stacked()[0], run_pairs()[0])
    print("ok")
