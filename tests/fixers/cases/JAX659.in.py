# fix: safe
import jax
import jax.numpy as jnp
from jax import lax


def ppo_loss(logp, old_logp, adv, eps=0.2):
    ratio = jnp.exp(logp - old_logp)
    clipped = lax.clamp(ratio, 1.0 - eps, 1.0 + eps)
    return -jnp.mean(jnp.minimum(ratio * adv, clipped * adv))


loss, grads = jax.value_and_grad(ppo_loss)(jnp.zeros(3), jnp.zeros(3), jnp.ones(3))
