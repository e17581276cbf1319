# A key reshaped, squeezed, copied or given a new axis is the same key: drawing from both draws
# the same bits (under jit JAX's key-reuse checker says so too; eagerly it sees only some of these
# views). Views of distinct keys stay distinct.
import jax
import jax.numpy as jnp


def reshaped(key):
    column = key.reshape((1,))
    return jax.random.bits(key) + jax.random.bits(column.squeeze())  # error: JAX301


def new_axis(key):
    return jax.random.bits(key) + jax.random.bits(key[None][0])  # error: JAX301


def through_jnp(key):
    row = jnp.reshape(key, (1,))
    return jax.random.normal(key) + jax.random.normal(row[0])  # error: JAX301


def views_of_two_keys(key):
    k1, k2 = jax.random.split(key)
    column = k1.reshape((1,))
    return jax.random.normal(column[0]) + jax.random.normal(k2)


def rows_of_a_key_grid(key):
    grid = jax.random.split(key, 4).reshape((2, 2))
    return jax.random.normal(grid[0, 0]) + jax.random.normal(grid[1, 1])


@jax.jit
def copied_params(params, key):
    noisy = params.copy()  # a dict: its copy takes new entries
    noisy["w"] = params["w"] + jax.random.normal(key, params["w"].shape)
    return noisy


def reshaped_reference(out_ref, key):
    view = out_ref.reshape((2, 2))  # a mutable reference (a Pallas ref): it takes item stores
    view[0] = jax.random.normal(key, (2,))


if __name__ == "__main__":
    bits = jax.random.bits(jax.random.key(0))
    normal = jax.random.normal(jax.random.key(0))
    assert reshaped(jax.random.key(0)) == bits + bits  # the same bits twice
    assert new_axis(jax.random.key(0)) == bits + bits
    assert jnp.allclose(through_jnp(jax.random.key(0)), 2 * normal)
    jax.config.update("jax_debug_key_reuse", True)
    checked = (jax.jit(reshaped), jax.jit(new_axis), jax.jit(through_jnp))
    for hazard in checked:
        try:
            hazard(jax.random.key(0))
        except jax.errors.KeyReuseError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise KeyReuseError")
    views_of_two_keys(jax.random.key(1))
    rows_of_a_key_grid(jax.random.key(2))
    noisy = copied_params({"w": jnp.ones(2)}, jax.random.key(3))
    assert set(noisy) == {"w"} and not jnp.array_equal(noisy["w"], jnp.ones(2))
    print("ok")
