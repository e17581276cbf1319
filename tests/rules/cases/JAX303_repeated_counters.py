# A helper that seeds its keys from its own loop counter (`PRNGKey(i)` for `i in range(depth)`)
# or from a constant, called again for each element of a comprehension: every call makes the
# same keys in the same order, so every block gets identical weights (measured with JAX 0.10.2).
# A counter offset by a parameter, a helper called once, or a key passed in is fine.
import jax
import jax.numpy as jnp


def init_block(depth, width):
    layers = []
    for i in range(depth):
        key = jax.random.PRNGKey(i)  # error: JAX303
        layers.append(jax.random.normal(key, (width, width)) / jnp.sqrt(width))
    return layers


def init_bias(width):
    key = jax.random.PRNGKey(0)  # error: JAX303
    return jax.random.normal(key, (width,))


blocks = [init_block(depth=2, width=4) for _ in range(3)]
biases = [init_bias(4) for _ in range(3)]


# near misses


def init_offset_block(block, depth, width):
    layers = []
    for i in range(depth):
        key = jax.random.PRNGKey(block * depth + i)  # the block index enters the seed
        layers.append(jax.random.normal(key, (width, width)))
    return layers


def init_keyed_block(key, depth, width):
    return [jax.random.normal(k, (width, width)) for k in jax.random.split(key, depth)]


def init_once(depth, width):
    return [jax.random.normal(jax.random.PRNGKey(i), (width,)) for i in range(depth)]


offset_blocks = [init_offset_block(b, 2, 4) for b in range(3)]
keyed_blocks = [init_keyed_block(k, 2, 4) for k in jax.random.split(jax.random.PRNGKey(7), 3)]
single = init_once(2, 4)


def identical(groups):
    return all(jnp.array_equal(groups[0][j], groups[b][j]) for b in range(3) for j in range(2))


if __name__ == "__main__":
    assert identical(blocks) and all(jnp.array_equal(biases[0], b) for b in biases)
    assert not identical(offset_blocks) and not identical(keyed_blocks)
    assert not jnp.array_equal(single[0], single[1])
    print("ok")
