# A helper that writes into its argument with NumPy (`np.place`, `np.copyto`, `out=`), where
# every call in sight passes a JAX array: the result of a jitted function bound at module level
# (measured with JAX 0.10.2: `TypeError`, NumPy cannot write into a JAX array).
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def score(w, x):
    return x @ w


def mask_illegal_moves(logits, legal):
    np.place(logits, ~legal, -np.inf)  # error: JAX211
    return logits


def mask_copy(logits, legal):
    np.place(logits, ~legal, -np.inf)  # a NumPy copy is passed: NumPy writes into it
    return logits


def clipped(grads):
    np.clip(grads, -1.0, 1.0, out=grads)  # error: JAX211
    return grads


def clipped_copy(grads):
    np.clip(grads, -1.0, 1.0, out=grads)  # a NumPy copy is passed
    return grads


legal = np.array([[True, False, True, True, False]] * 2)
logits = score(jnp.ones((4, 5)), jnp.ones((2, 4)))
host_logits = np.array(score(jnp.ones((4, 5)), jnp.ones((2, 4))))
gradient = jax.grad(lambda w: jnp.sum(w**3))(jnp.ones(3))
host_gradient = np.asarray(gradient).copy()


def main():
    masked = mask_copy(host_logits, legal)
    kept = clipped_copy(host_gradient)
    return masked, kept


def failing():
    return (lambda: mask_illegal_moves(logits, legal), lambda: clipped(gradient))


if __name__ == "__main__":
    import sys

    masked, kept = main()
    assert np.isinf(masked).sum() == 4 and kept.max() == 1.0
    for call in failing():
        try:
            call()
        except TypeError:
            pass
        else:
            sys.exit("NumPy wrote into a JAX array")
    print("ok")
