# fix: unsafe
import jax.numpy as jnp
import optax

logits = jnp.zeros((4, 3))
labels = jnp.array([0, 2, 1, 2])
loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
assert loss.shape == ()
