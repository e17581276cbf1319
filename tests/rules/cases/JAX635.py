# `optax.softmax_cross_entropy` takes a probability per class; integer class ids broadcast
# against the logits: `ValueError` ("Incompatible shapes for broadcasting"), or silently wrong
# losses where the batch size equals the number of classes (measured with optax 0.2.8).
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x, labels):
    logits = x @ params
    return optax.softmax_cross_entropy(logits, labels).mean()  # error: JAX635 (every call passes ids)


def square_batch():
    logits = jnp.zeros((3, 3))
    ids = jnp.array([0, 2, 1])
    return optax.softmax_cross_entropy(logits, labels=ids)  # error: JAX635 (silently wrong)


def cast_ids(logits, scores):
    return optax.losses.softmax_cross_entropy(logits, scores.astype(jnp.int32))  # error: JAX635


# near misses


def one_hot(logits, ids):
    return optax.softmax_cross_entropy(logits, jax.nn.one_hot(ids, logits.shape[-1]))


def integer_loss(logits, ids):
    return optax.softmax_cross_entropy_with_integer_labels(logits, ids)


def soft_targets(logits):
    return optax.softmax_cross_entropy(logits, jnp.full(logits.shape, 1.0 / logits.shape[-1]))


if __name__ == "__main__":
    params = jnp.zeros((5, 3))
    x = jnp.ones((4, 5))
    labels = jnp.array([0, 2, 1, 2])
    one_hot(jnp.zeros((4, 3)), labels), integer_loss(jnp.zeros((4, 3)), labels), soft_targets(jnp.zeros((4, 3)))
    wrong = square_batch()
    right = optax.softmax_cross_entropy_with_integer_labels(jnp.zeros((3, 3)), jnp.array([0, 2, 1]))
    assert not jnp.allclose(wrong, right)
    for failing in (lambda: jax.grad(loss_fn)(params, x, labels), lambda: cast_ids(jnp.zeros((4, 3)), jnp.ones(4))):
        try:
            failing()
        except ValueError as error:
            assert "broadcast" in str(error)
        else:
            raise AssertionError("expected ValueError")
    print("ok")
