# A module list grown between two calls that one compiled program serves: arrays written out with
# the same shape and kind of numbers (`jnp.array([0, 1])`, `jnp.array([0, 2])`) hit the same
# trace, which compiled in the old length. Growing the list leaves `xs[0]` alone, and a call
# with another shape traces again (measured with JAX 0.10.2).
import jax
import jax.numpy as jnp

CLASSES = ["cat", "dog"]
NAMES = ["a", "b"]
LABELS = ["x", "y"]


@jax.jit
def encode(label_ids):
    return jax.nn.one_hot(label_ids, len(CLASSES))  # error: JAX103


# near misses


@jax.jit
def first_code(label_ids):
    return label_ids + len(NAMES[0])


@jax.jit
def encode_labels(label_ids):
    return jax.nn.one_hot(label_ids, len(LABELS))


before = encode(jnp.array([0, 1]))
head = first_code(jnp.array([0, 1]))
short = encode_labels(jnp.array([0, 1]))
CLASSES.append("bird")
NAMES.append("c")
LABELS.append("z")
after = encode(jnp.array([0, 2]))
head_after = first_code(jnp.array([0, 2]))
longer = encode_labels(jnp.array([0, 1, 2]))

if __name__ == "__main__":
    assert after.shape == (2, 2)  # stale: three classes now
    assert longer.shape == (3, 3)  # another shape: traced again, with the new length
    assert int(head_after[0]) == 1
    print("stale", after.shape, "fresh", longer.shape)
