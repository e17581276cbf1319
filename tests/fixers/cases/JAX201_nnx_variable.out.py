# fix: unsafe
import jax.numpy as jnp
from flax import nnx


class Tagger(nnx.Module):
    def __init__(self, vocab, dim, rngs):
        self.embed = nnx.Embed(vocab, dim, rngs=rngs)
        self.scale = nnx.Param(jnp.ones(dim))


def zero_padding_row():
    model = Tagger(10, 4, nnx.Rngs(0))
    model.embed.embedding.value = model.embed.embedding.value.at[0].set(0.0)  # the variable takes the new array in place
    model.scale.value = model.scale.value.at[0].set(2.0)
    return model
