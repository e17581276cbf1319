# fix: safe
import jax.numpy as jnp


def zero_diagonal(m):
    return jnp.fill_diagonal(m, 0.0)


def unit_diagonal(m):
    return jnp.fill_diagonal(m, 1.0,)


def overwrite(x, idx):
    out = jnp.put(x, idx, 0.0, mode="clip")
    return out


if __name__ == "__main__":
    assert float(zero_diagonal(jnp.ones((2, 2)))[0, 0]) == 0.0
    assert float(unit_diagonal(jnp.zeros((2, 2)))[1, 1]) == 1.0
    assert float(overwrite(jnp.ones(3), jnp.array([0]))[0]) == 0.0
    print("ok")
