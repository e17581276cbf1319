# fix: unsafe
import jax
import jax.numpy as jnp


def nll(logits, label):
    logp = jnp.log(jax.nn.softmax(logits, axis=-1))
    return -logp[label]
