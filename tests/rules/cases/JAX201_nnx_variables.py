# The `.value` of a flax nnx variable is a JAX array: item assignment on it raises `TypeError`
# (measured with flax 0.12.8), where the variable itself takes an item assignment
# (`embedding[0] = ...`) or a new value (`embedding.value = ...`) in place.
import jax.numpy as jnp
from flax import nnx


class Tagger(nnx.Module):
    def __init__(self, vocab, dim, rngs):
        self.embed = nnx.Embed(vocab, dim, rngs=rngs)
        self.scale = nnx.Param(jnp.ones(dim))
        self.out = nnx.Linear(dim, 3, rngs=rngs)

    def __call__(self, ids):
        return self.out(self.embed(ids) * self.scale.value)


PAD_ID = 0


def zero_padding_row():
    model = Tagger(10, 4, nnx.Rngs(0))
    model.embed.embedding.value[PAD_ID] = 0.0  # error: JAX201
    return model


def zero_first_scale():
    model = Tagger(10, 4, nnx.Rngs(0))
    model.scale.value[0] = 0.0  # error: JAX201
    return model


# near misses


def zero_padding_in_place():
    model = Tagger(10, 4, nnx.Rngs(0))
    model.embed.embedding[PAD_ID] = 0.0  # the variable itself takes item assignment
    return model


def zero_padding_rebound():
    model = Tagger(10, 4, nnx.Rngs(0))
    model.embed.embedding.value = model.embed.embedding.value.at[PAD_ID].set(0.0)
    return model


def main():
    in_place, rebound = zero_padding_in_place(), zero_padding_rebound()
    return in_place.embed.embedding.value[PAD_ID], rebound.embed.embedding.value[PAD_ID]


if __name__ == "__main__":
    import sys

    first, second = main()
    assert float(abs(first).sum()) == 0.0 and float(abs(second).sum()) == 0.0
    for call in (zero_padding_row, zero_first_scale):
        try:
            call()
        except TypeError:
            pass
        else:
            sys.exit("item assignment on a variable's value did not raise")
    print("ok")
