# Two streams of one `nnx.Rngs` seeded alike hand out the same keys, one for one (measured with
# flax 0.12.8: the first `params` key equals the first `dropout` key, and so on). Different
# seeds, one stream for all, or two `Rngs` objects compared on purpose are fine.
import jax
import jax.numpy as jnp
from flax import nnx

SEED = 42


def equal(a, b):
    return bool(jnp.array_equal(jax.random.key_data(a), jax.random.key_data(b)))


def same_name():
    rngs = nnx.Rngs(params=SEED, dropout=SEED)  # error: JAX307
    return equal(rngs.params(), rngs.dropout())


def default_and_stream():
    rngs = nnx.Rngs(0, dropout=0)  # error: JAX307
    return equal(rngs.default(), rngs.dropout())


def same_key():
    rngs = nnx.Rngs(params=jax.random.key(SEED), noise=jax.random.key(SEED))  # error: JAX307
    return equal(rngs.params(), rngs.noise())


# near misses


def own_seeds():
    rngs = nnx.Rngs(params=SEED, dropout=SEED + 1)
    return equal(rngs.params(), rngs.dropout())


def one_stream():
    rngs = nnx.Rngs(SEED)
    return equal(rngs.params(), rngs.dropout())


def two_objects():
    first, second = nnx.Rngs(SEED), nnx.Rngs(SEED)  # the same seed twice, compared on purpose
    return equal(first.params(), second.params())


def computed_seeds(seeds):
    rngs = nnx.Rngs(params=seeds[0], dropout=seeds[1])
    return equal(rngs.params(), rngs.dropout())


def main():
    alike = same_name(), default_and_stream(), same_key()
    apart = own_seeds(), one_stream(), computed_seeds([1, 2])
    return alike, apart, two_objects()


if __name__ == "__main__":
    alike, apart, compared = main()
    assert alike == (True, True, True) and apart == (False, False, False) and compared
    print("ok")
