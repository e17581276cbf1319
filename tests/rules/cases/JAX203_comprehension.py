# A comprehension of `.at[]` updates thrown away as a statement keeps none of them: the array is
# unchanged (measured with JAX 0.10.2). A comprehension whose result is kept is fine.
import jax
import jax.numpy as jnp


@jax.jit
def drop_tokens(keep_mask, drop_idx):
    [keep_mask.at[i].set(False) for i in drop_idx]  # error: JAX203
    return keep_mask


def zero_rows(x, rows):
    [x.at[r].set(0.0) for r in rows]  # error: JAX203
    return x


# near misses


@jax.jit
def one_hot_rows(x):
    return jnp.stack([x.at[i].set(1.0) for i in range(3)])


@jax.jit
def drop_all(keep_mask, drop_idx):
    return keep_mask.at[drop_idx].set(False)


if __name__ == "__main__":
    mask = jnp.ones(6, dtype=bool)
    assert bool(drop_tokens(mask, jnp.array([1, 4])).all())  # nothing dropped
    assert int(drop_all(mask, jnp.array([1, 4])).sum()) == 4
    print(one_hot_rows(jnp.zeros(3)).shape, zero_rows(jnp.ones(2), [0]))
