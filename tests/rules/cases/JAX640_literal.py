# A probability vector written out (numbers in [0, 1] summing to 1) passed where `categorical`
# or a softmax cross entropy takes logits: sampled from its softmax, the distribution flattens
# (measured with JAX 0.10.2: [0.7, 0.2, 0.1] is drawn as about [0.46, 0.28, 0.26]). Logits
# written out, and the log of the probabilities, are fine.
import jax
import jax.numpy as jnp
import optax

probs = jnp.array([0.7, 0.2, 0.1])


def draw(keys):
    return jax.vmap(lambda k: jax.random.categorical(k, probs))(keys)  # error: JAX640


def draw_list(key):
    return jax.random.categorical(key, jnp.asarray([0.5, 0.5]), shape=(4,))  # error: JAX640


def target_loss(labels):
    return optax.softmax_cross_entropy(jnp.array([0.25, 0.75]), labels)  # error: JAX640


# near misses

logits = jnp.array([2.0, 0.5, -1.0])
uniform_logits = jnp.array([0.0, 0.0, 0.0])


def draw_logits(key):
    return jax.random.categorical(key, logits)


def draw_log_probs(key):
    return jax.random.categorical(key, jnp.log(probs))


def draw_uniform(key):
    return jax.random.categorical(key, uniform_logits)


def draw_small_logits(key):
    return jax.random.categorical(key, jnp.array([0.2, 0.3]))  # in [0, 1], not summing to 1


def draw_one_hot(key):
    return jax.random.categorical(key, jnp.array([1.0, 0.0]))


if __name__ == "__main__":
    keys = jax.random.split(jax.random.key(0), 20000)
    freq = jnp.bincount(draw(keys), length=3) / keys.shape[0]
    assert float(freq[0]) < 0.5  # asked 0.7
    print(draw_list(jax.random.key(1)), target_loss(jnp.array([0.0, 1.0])))
    ks = jax.random.split(jax.random.key(2), 4)
    print(draw_logits(ks[0]), draw_log_probs(ks[1]), draw_uniform(ks[2]), draw_one_hot(ks[3]))
    print(draw_small_logits(jax.random.key(3)))
    print("ok")
