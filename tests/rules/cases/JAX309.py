# A jax.random sampler raises when given a dtype of a kind it cannot draw (measured with JAX
# 0.10.2: float samplers reject integer dtypes, `randint`/`poisson` reject float ones).
import jax
import jax.numpy as jnp
import numpy as np


def epsilon_greedy(key, n_actions):
    return jax.random.uniform(key, (), minval=0, maxval=n_actions, dtype=jnp.int32)  # error: JAX309


def integer_noise(key):
    return jax.random.normal(key, (3,), dtype="int32")  # error: JAX309


def float_counts(key):
    return jax.random.randint(key, (3,), 0, 10, dtype=np.float32)  # error: JAX309


# near misses


def action(key, n_actions):
    return jax.random.randint(key, (), 0, n_actions, dtype=jnp.int32)


def half_noise(key):
    return jax.random.normal(key, (3,), dtype=jnp.bfloat16)


def counts(key):
    return jax.random.poisson(key, 3.0, (3,), dtype=int)


def chosen(key, dtype):
    return jax.random.uniform(key, (3,), dtype=dtype)


if __name__ == "__main__":
    raising = (
        lambda: epsilon_greedy(jax.random.key(0), 4),
        lambda: integer_noise(jax.random.key(1)),
        lambda: float_counts(jax.random.key(2)),
    )
    for call in raising:
        try:
            call()
        except (ValueError, TypeError) as error:
            print(type(error).__name__)
        else:
            raise AssertionError("expected an error")
    keys = jax.random.split(jax.random.key(3), 4)
    print(action(keys[0], 4), half_noise(keys[1]), counts(keys[2]), chosen(keys[3], jnp.float32))
    print("ok")
