# `jax.random.categorical` and optax's cross entropies take logits and normalize them: given
# probabilities they normalize twice (measured with JAX 0.10.2 and optax 0.2.8: with
# `softmax([0, 5])` the second class comes out about 73% of the time instead of 99%, and the
# loss of a confident right prediction is far from zero).
import jax
import jax.numpy as jnp
import optax


def sample(key, logits):
    probs = jax.nn.softmax(logits)
    return jax.random.categorical(key, probs)  # error: JAX640


def sample_inline(key, logits):
    return jax.random.categorical(key, jax.nn.softmax(logits, axis=-1))  # error: JAX640


def sample_from_log_probs(key, log_probs):
    return jax.random.categorical(key, logits=jnp.exp(log_probs))  # error: JAX640


def double_softmax_loss(logits, labels):
    probs = jax.nn.softmax(logits)
    return optax.softmax_cross_entropy_with_integer_labels(probs, labels).mean()  # error: JAX640


def double_sigmoid_loss(logits, labels):
    return optax.sigmoid_binary_cross_entropy(jax.nn.sigmoid(logits), labels).mean()  # error: JAX640


def classifier(w, x):
    return jax.nn.sigmoid(x @ w)


def helper_loss(w, x, labels):
    probs = classifier(w, x)
    return optax.sigmoid_binary_cross_entropy(probs, labels).mean()  # error: JAX640


# near misses


def scores(w, x):
    return x @ w


def helper_logits_loss(w, x, labels):
    return optax.sigmoid_binary_cross_entropy(scores(w, x), labels).mean()


def softmax_loss(logits, labels):
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


def sigmoid_loss(logits, labels):
    return optax.sigmoid_binary_cross_entropy(logits, labels).mean()


def sample_logits(key, logits):
    return jax.random.categorical(key, logits)


def sample_log_softmax(key, logits):
    return jax.random.categorical(key, jax.nn.log_softmax(logits))


def sample_log_probs(key, logits):
    probs = jax.nn.softmax(logits)
    return jax.random.categorical(key, jnp.log(probs))  # error: JAX648


def rate(draw, logits):
    keys = jax.random.split(jax.random.key(0), 4000)
    return jax.vmap(lambda k: draw(k, logits))(keys).mean()


if __name__ == "__main__":
    logits = jnp.array([0.0, 5.0])
    assert rate(sample, logits) < 0.8
    assert rate(sample_inline, logits) < 0.8
    assert rate(sample_from_log_probs, jax.nn.log_softmax(logits)) < 0.8
    for good in (sample_logits, sample_log_softmax, sample_log_probs):
        assert rate(good, logits) > 0.98
    confident = jnp.array([[0.0, 12.0]])
    assert float(double_softmax_loss(confident, jnp.array([1]))) > 0.3
    assert float(softmax_loss(confident, jnp.array([1]))) < 1e-3
    assert float(double_sigmoid_loss(jnp.array([12.0]), jnp.array([1.0]))) > 0.3
    assert float(sigmoid_loss(jnp.array([12.0]), jnp.array([1.0]))) < 1e-3
    w, xs = jnp.array([8.0, 8.0]), jnp.array([[1.0, 1.0], [-1.0, -1.0]])
    assert float(helper_loss(w, xs, jnp.array([1.0, 0.0]))) > 0.3
    assert float(helper_logits_loss(w, xs, jnp.array([1.0, 0.0]))) < 1e-3
