# A configuration function that the entry point calls before it runs anything that may trace
# sets the value before the first trace: no stale value. Called again after a traced call, or
# in a loop, it changes a value a compiled program keeps.
import argparse

import jax
import jax.numpy as jnp
import numpy as np

EPS = 1e-6
SCALE = 1.0
TEMPERATURE = 1.0
GAIN = 1.0


def configure(half_precision):
    global EPS
    EPS = 1e-3 if half_precision else 1e-6


def set_scale(value):
    global SCALE
    SCALE = value  # the read in `scaled` is reported


@jax.jit
def normalise(x):
    return x / jnp.sqrt(jnp.sum(x * x) + EPS)


@jax.jit
def scaled(x):
    return x * SCALE  # error: JAX103


def set_gain(value):
    global GAIN
    GAIN = value  # set after `normalise` ran, which does not read it, before `amplified` runs


@jax.jit
def amplified(x):
    return x * GAIN


@jax.jit
def sample(key, logits):
    return jax.random.categorical(key, logits / TEMPERATURE)


def parse(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--temperature", type=float, default=1.0)
    return parser.parse_args(argv)


def run(argv=()):
    global TEMPERATURE
    configure(half_precision=True)
    args = parse(list(argv))  # parsing flags runs nothing traced
    TEMPERATURE = args.temperature
    x = jnp.ones(3)
    print(normalise(x), sample(jax.random.key(0), x))
    set_gain(float(normalise(x)[0]) * 4)
    print(amplified(x), amplified(x))
    print(scaled(x))
    set_scale(2.0)  # after `scaled` ran: its compiled program keeps 1.0
    print(scaled(x))


TABLE = None
WIDTH = 1.0


def setup(vocab=16, dim=4):
    global TABLE, WIDTH
    TABLE = np.ones((vocab, dim), dtype=np.float32)  # at import, and lazily: not only while tracing
    WIDTH = 1.0 / np.sqrt(dim)


def get_table():
    if TABLE is None:
        setup()  # a lazy initialisation: it sets the table once, before its first use
    return TABLE


setup(vocab=8)


@jax.jit
def embed(tokens):
    return jnp.asarray(TABLE)[tokens] * WIDTH


@jax.jit
def embed_lazily(tokens):
    return jnp.asarray(get_table())[tokens]


if __name__ == "__main__":
    run()
    print(embed(jnp.arange(3)), embed_lazily(jnp.arange(3)))
