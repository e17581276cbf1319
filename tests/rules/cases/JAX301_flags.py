# A helper that draws only under a flag consumes its key only where the call lets the flag run
# the draw; an instance of a class with `__call__` consumes what its `__call__` consumes.
import jax
import jax.numpy as jnp


def noise(key, x, add=True):
    if add:
        return x + jax.random.normal(key, x.shape)
    return x


def maybe_noise(key, x, deterministic=False):
    if deterministic:
        return x
    return x + jax.random.normal(key, x.shape)


class Dropout:
    def __call__(self, key, x, train=True):
        if not train:
            return x
        keep = jax.random.bernoulli(key, 0.9, x.shape)
        return jnp.where(keep, x / 0.9, 0.0)


def first_call_does_not_draw(key, x):
    y = noise(key, x, add=False)
    return y + noise(key, x)


def second_call_does_not_draw(key, x):
    y = maybe_noise(key, x)
    return y + maybe_noise(key, x, True)


def flag_from_the_caller(key, x, train):
    y = noise(key, x, add=train)
    return y + noise(key, x)  # error: JAX301


def both_draw(key, x):
    y = maybe_noise(key, x)
    return y + maybe_noise(key, x, deterministic=False)  # error: JAX301


def eval_then_train(key, x):
    drop = Dropout()
    y = drop(key, x, train=False)
    return drop(key, y)


def train_twice(key, x):
    drop = Dropout()
    y = drop(key, x)
    return drop(key, y)  # error: JAX301
