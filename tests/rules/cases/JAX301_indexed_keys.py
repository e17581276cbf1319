# An item of an array of keys taken with a name is one key for as long as the name keeps its
# binding: `keys[layer]` drawn from twice in one iteration draws the same bits twice. Rebinding
# the name (the next iteration, `i += 1`, `i = i + 1`), or another name bound to another
# element, picks another key.
import jax
import jax.numpy as jnp


def init_mlp(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    params = []
    for layer, (m, n) in enumerate(zip(sizes[:-1], sizes[1:])):
        w = jax.random.normal(keys[layer], (m, n))
        b = jax.random.normal(keys[layer], (n,))  # error: JAX301
        params.append((w, b))
    return params


def noise_pair(keys, i):
    return jax.random.normal(keys[i], (3,)), jax.random.normal(keys[i], (3,))  # error: JAX301


def through_an_alias(key, n):
    keys = jax.random.split(key, n)
    out = []
    for i in range(n):
        j = i
        out.append(jax.random.normal(keys[j], (3,)) - jax.random.normal(keys[i], (3,)))  # error: JAX301
    return out


def in_a_comprehension(key, n):
    keys = jax.random.split(key, n)
    return [jax.random.normal(keys[i]) - jax.random.normal(keys[i]) for i in range(n)]  # error: JAX301


def fixed_layer_every_step(key, n, layer):
    keys = jax.random.split(key, n)
    return [jax.random.normal(keys[layer], (3,)) for _ in range(n)]  # error: JAX302


# near misses


def one_key_per_iteration(key, n):
    keys = jax.random.split(key, n)
    return [jax.random.normal(keys[i], (3,)) for i in range(n)]


def counted_with_augmented_assignment(key, n):
    keys = jax.random.split(key, n)
    i, out = 0, []
    while i < n:
        out.append(jax.random.normal(keys[i], (3,)))
        i += 1
    return out


def counted_with_walrus(key, n):
    keys = jax.random.split(key, n + 1)
    i, out = 0, []
    while (i := i + 1) <= n:
        out.append(jax.random.normal(keys[i], (3,)))
    return out


def index_moved_on(keys, i):
    first = jax.random.normal(keys[i], (3,))
    i = i + 1
    return first, jax.random.normal(keys[i], (3,))


def in_a_given_order(key, order):
    keys = jax.random.split(key, len(order))
    return [jax.random.normal(keys[i], (3,)) for i in order]


def two_columns_per_row(key, n):
    keys = jax.random.split(key, (n, 2))
    return [jax.random.normal(keys[i, 0]) - jax.random.normal(keys[i, 1]) for i in range(n)]


def fori_loop_step_index(keys, n):
    def body(i, total):
        return total + jax.random.normal(keys[i], (3,))

    return jax.lax.fori_loop(0, n, body, jnp.zeros(3))


if __name__ == "__main__":
    w, b = init_mlp(jax.random.key(0), [3, 5])[0]
    assert jnp.allclose(w[0], b)  # the bias is the first row of the weights
    first, second = noise_pair(jax.random.split(jax.random.key(1), 2), 1)
    assert jnp.array_equal(first, second)
    assert all(jnp.all(d == 0) for d in through_an_alias(jax.random.key(2), 2))
    assert all(d == 0 for d in in_a_comprehension(jax.random.key(3), 2))
    rows = fixed_layer_every_step(jax.random.key(4), 3, 1)
    assert jnp.array_equal(rows[0], rows[2])
    rows = one_key_per_iteration(jax.random.key(5), 2)
    assert not jnp.array_equal(rows[0], rows[1])
    rows = counted_with_augmented_assignment(jax.random.key(6), 2)
    assert not jnp.array_equal(rows[0], rows[1])
    rows = counted_with_walrus(jax.random.key(7), 2)
    assert not jnp.array_equal(rows[0], rows[1])
    first, second = index_moved_on(jax.random.split(jax.random.key(8), 2), 0)
    assert not jnp.array_equal(first, second)
    rows = in_a_given_order(jax.random.key(9), [1, 0])
    assert not jnp.array_equal(rows[0], rows[1])
    assert all(d != 0 for d in two_columns_per_row(jax.random.key(10), 2))
    total = jax.jit(fori_loop_step_index, static_argnums=1)(jax.random.split(jax.random.key(11), 3), 3)
    assert total.shape == (3,)
    print("ok")
