# A function that makes its key from a fixed seed, called on every iteration of a loop: each
# call makes the same key, so every iteration draws identical random numbers (measured with
# JAX 0.10.2: the three draws are equal). A seed from a parameter, a loop whose iterations
# differ (one seed per config, on purpose), or a key passed in is fine.
import jax
import jax.numpy as jnp


def noisy_step(x):
    key = jax.random.PRNGKey(0)  # error: JAX303
    return x + jax.random.normal(key, x.shape)


def init_member(shape):
    key = jax.random.PRNGKey(42)  # error: JAX303
    return jax.random.normal(key, shape)


def seeded_step(x, seed):
    key = jax.random.PRNGKey(seed)
    return x + jax.random.normal(key, x.shape)


def init_for(config):
    key = jax.random.PRNGKey(0)  # the same seed for every config: a controlled comparison
    return jax.random.normal(key, (config,))


def keyed_step(x, key):
    return x + jax.random.normal(key, x.shape)


@jax.jit
def augment(batch):
    key = jax.random.PRNGKey(0)  # error: JAX303
    flip = jax.random.bernoulli(key, 0.5, (batch.shape[0],))
    return jnp.where(flip[:, None], batch[:, ::-1], batch)


def two_batches(b):
    return augment(b), augment(b + 100.0)


def reference_run(scale):
    key = jax.random.PRNGKey(3)  # a plain function run twice: a reproducibility check
    return scale * jax.random.normal(key, (2,))


def compare_runs():
    return reference_run(1.0), reference_run(2.0)


def run(x, num_steps):
    draws = []
    for _ in range(num_steps):
        draws.append(noisy_step(x))
    return draws


def ensemble(n):
    members = []
    for _ in range(n):
        members.append(init_member((2,)))
    return members


def run_seeded(x, num_steps):
    return [seeded_step(x, step) for step in range(num_steps)]


def sweep(configs):
    results = []
    for config in configs:
        results.append(init_for(config))
    return results


def run_keyed(x, num_steps):
    key = jax.random.PRNGKey(1)
    draws = []
    for _ in range(num_steps):
        key, subkey = jax.random.split(key)
        draws.append(keyed_step(x, subkey))
    return draws


if __name__ == "__main__":
    x = jnp.zeros(2)
    print(run(x, 3))
    print(ensemble(3))
    print(run_seeded(x, 3))
    print(sweep([2, 3]))
    print(run_keyed(x, 3))
    batch = jnp.arange(16.0).reshape(8, 2)
    first, second = two_batches(batch)
    assert jnp.array_equal(first != batch, second != batch + 100.0)
    print(compare_runs())
