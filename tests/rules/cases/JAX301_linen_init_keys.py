# A flax linen module's `init` draws its weights from the key it is given: two `init`s of one
# class with one key give the same weights, and an ensemble initialised in a loop with one key
# has identical members (measured with JAX 0.10.2 and flax 0.12.8). Modules of other classes,
# or a draw straight from the key, fold other paths in: not reported.
import flax.linen as nn
import jax
import jax.numpy as jnp


class Tower(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(nn.relu(nn.Dense(8)(x)))


class Head(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)


def two_towers(key, x):
    query = Tower().init(key, x)
    document = Tower().init(key, x)  # error: JAX301
    return query, document


def ensemble(key, x, members):
    return [Tower().init(key, x) for _ in range(members)]  # error: JAX302


def init_tower(key, x):
    return Tower().init(key, x)


def through_a_helper(key, x):
    return init_tower(key, x), init_tower(key, x)  # error: JAX301


# near misses


def split_towers(key, x):
    query_key, document_key = jax.random.split(key)
    return Tower().init(query_key, x), Tower().init(document_key, x)


def tower_and_head(key, x):
    return Tower().init(key, x), Head().init(key, x)


def weights_and_noise(key, x):
    params = Tower().init(key, x)
    return params, jax.random.normal(key, x.shape)


def split_ensemble(key, x, members):
    return [Tower().init(k, x) for k in jax.random.split(key, members)]


def same(a, b):
    return all(jax.tree.leaves(jax.tree.map(jnp.array_equal, a, b)))


if __name__ == "__main__":
    x = jnp.ones((2, 3))
    assert same(*two_towers(jax.random.key(0), x))
    members = ensemble(jax.random.key(1), x, 3)
    assert same(members[0], members[2])
    assert same(*through_a_helper(jax.random.key(2), x))
    assert not same(*split_towers(jax.random.key(3), x))
    tower_and_head(jax.random.key(4), x), weights_and_noise(jax.random.key(5), x)
    members = split_ensemble(jax.random.key(6), x, 2)
    assert not same(members[0], members[1])
    print("ok")
