# fix: unsafe
import jax


def two_noises(key):
    keys = [key] * 2
    a = jax.random.normal(keys[0], (3,))
    b = jax.random.normal(keys[1], (3,))
    return a + b


def listed(key):
    keys = [key, key]
    a = jax.random.uniform(keys[0], (3,))
    b = jax.random.uniform(keys[1], (3,))
    return a - b


if __name__ == "__main__":
    assert float(abs(listed(jax.random.key(0))).sum()) > 0.0  # distinct draws once fixed
    print(two_noises(jax.random.key(1)))
