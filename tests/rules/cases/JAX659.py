# `lax.clamp` takes `(min, x, max)`: an array passed first with a number second raises
# `TypeError` for arrays of one or more dimensions (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp
from jax import lax


def ppo_loss(logp, old_logp, adv, eps=0.2):
    ratio = jnp.exp(logp - old_logp)
    clipped = lax.clamp(ratio, 1.0 - eps, 1.0 + eps)  # error: JAX659
    return -jnp.mean(jnp.minimum(ratio * adv, clipped * adv))


@jax.jit
def unit_interval(x):
    return jax.lax.clamp(x, 0.0, 1.0)  # error: JAX659


# near misses


def correct(x):
    return lax.clamp(0.0, x, 1.0)


@jax.jit
def bounds_arrays(lo, x, hi):
    return lax.clamp(lo, x, hi)


def clipped(x):
    return jnp.clip(x, 0.0, 1.0)


if __name__ == "__main__":
    logp, old, adv = jnp.array([-0.5, -1.0, -0.2]), jnp.array([-0.6, -0.4, -0.9]), jnp.ones(3)
    for raising in (lambda: jax.value_and_grad(ppo_loss)(logp, old, adv), lambda: unit_interval(jnp.ones(3))):
        try:
            raising()
        except TypeError as error:
            assert "clamp requires" in str(error)
        else:
            raise AssertionError("expected TypeError")
    print(correct(jnp.ones(3)), bounds_arrays(jnp.zeros(3), jnp.ones(3), jnp.ones(3)), clipped(jnp.ones(2)))
    print("ok")
