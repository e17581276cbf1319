# A flax module draws its dropout masks (and any noise) from the keys of `rngs={...}`: the same
# key on every step gives the same masks (measured with flax beside JAX 0.10.2). A key split
# per step gives new ones.
import flax.linen as nn
import jax
import jax.numpy as jnp


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.Dense(16)(x)
        return nn.Dropout(0.5, deterministic=not train)(x)


model = MLP()
x = jnp.ones((2, 4))
params_key, dropout_key = jax.random.split(jax.random.key(0))
variables = model.init(params_key, x, train=False)


@jax.jit
def forward(variables, x, rng):
    return model.apply(variables, x, train=True, rngs={"dropout": rng})


def same_masks(steps):
    masks = []
    for _ in range(steps):
        masks.append(forward(variables, x, dropout_key) == 0)  # error: JAX302
    return masks


def applied_twice(rng):
    a = model.apply(variables, x, train=True, rngs={"dropout": rng})
    b = model.apply(variables, x, train=True, rngs={"dropout": rng})  # error: JAX301
    return a, b


# near misses


def new_masks(steps, key):
    masks = []
    for _ in range(steps):
        key, step_key = jax.random.split(key)
        masks.append(forward(variables, x, step_key) == 0)
    return masks


if __name__ == "__main__":
    same = same_masks(2)
    assert bool(jnp.array_equal(same[0], same[1]))
    new = new_masks(2, jax.random.key(5))
    assert not bool(jnp.array_equal(new[0], new[1]))
    a, b = applied_twice(jax.random.key(6))
    assert bool(jnp.array_equal(a, b))
