# The log of a softmax is -inf for classes whose probability rounds to 0 (a logit about 104 below
# the largest, in float32), with NaN gradients (measured with JAX 0.10.2); `jax.nn.log_softmax`
# stays finite. An epsilon inside the log, or a log of something else, is left alone.
import flax.linen as nn
import jax
import jax.numpy as jnp


def nll(logits, label):
    logp = jnp.log(jax.nn.softmax(logits))  # error: JAX648
    return -logp[label]


def nll_axis(logits, labels):
    logp = jnp.log(nn.softmax(logits, axis=-1))  # error: JAX648
    return -jnp.take_along_axis(logp, labels[:, None], axis=-1).mean()


def picked(logits, label):
    probs = jax.nn.softmax(logits)
    return -jnp.log(probs[label])  # error: JAX648


# near misses


def stable(logits, label):
    return -jax.nn.log_softmax(logits)[label]


def smoothed(logits, label):
    probs = jax.nn.softmax(logits)
    return -jnp.log(probs[label] + 1e-9)


def entropy_of_sigmoid(x):
    p = jax.nn.sigmoid(x)
    return -p * jnp.log(p)


if __name__ == "__main__":
    logits = jnp.array([120.0, 0.0, -10.0])
    assert bool(jnp.isinf(nll(logits, 2)))
    assert bool(jnp.isinf(nll_axis(logits[None], jnp.array([2]))))
    assert bool(jnp.isinf(picked(logits, 2)))
    assert bool(jnp.all(jnp.isnan(jax.grad(nll)(logits, 2))))
    assert bool(jnp.isfinite(stable(logits, 2)))
    print(smoothed(logits, 2), entropy_of_sigmoid(jnp.float32(0.5)))
    print("ok")
