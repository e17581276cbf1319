# fix: unsafe
import jax
import jax.numpy as jnp


def nll(logits, label):
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -logp[label]
