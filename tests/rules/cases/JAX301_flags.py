# A helper that draws only under a flag consumes its key only where the call lets the flag run
# the draw; an instance of a class with `__call__` consumes what its `__call__` consumes.
import functools

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


def dropout(x, rng, rate, deterministic=False):
    if (rate == 0.0) or deterministic:
        return x
    keep = jax.random.bernoulli(rng, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def jitter(x, key, mode="train"):
    if mode == "eval":
        return x
    return x + jax.random.normal(key, x.shape)


def guard_by_value(x, rng):
    x = dropout(x, rng, 0.5, deterministic=True)
    x = dropout(x, rng, 0.0)
    x = jitter(x, rng, "eval")
    return x + jax.random.normal(rng, x.shape)


def guard_lets_it_draw(x, rng):
    x = dropout(x, rng, 0.5)
    return jitter(x, rng, mode="train")  # error: JAX301


def through_partial(x, key):
    drop = functools.partial(dropout, x, key, 0.5)
    return drop(True) + drop(True)


def through_a_default(x, key):
    def perturb(y, train, k=key):
        if not train:
            return y
        return y + jax.random.normal(k, y.shape)

    return perturb(x, False) + perturb(x, True)


if __name__ == "__main__":
    named = globals()  # the functions by name: what the calls pass stays out of the analysis above
    x = jnp.ones(3)
    noise_draw = jax.random.normal(jax.random.key(0), (3,))
    # the marked calls draw the same numbers twice
    assert jnp.allclose(named["flag_from_the_caller"](jax.random.key(0), x, True), 2 * (x + noise_draw))
    assert jnp.allclose(named["both_draw"](jax.random.key(0), x), 2 * (x + noise_draw))
    keep = jax.random.bernoulli(jax.random.key(0), 0.9, (3,))
    assert jnp.allclose(named["train_twice"](jax.random.key(0), x), jnp.where(keep, x / 0.81, 0.0))
    jax.config.update("jax_debug_key_reuse", True)
    for hazard in (
        lambda: named["flag_from_the_caller"](jax.random.key(1), x, True),
        lambda: named["both_draw"](jax.random.key(2), x),
        lambda: named["train_twice"](jax.random.key(3), x),
        lambda: named["guard_lets_it_draw"](x, jax.random.key(4)),
    ):
        try:
            hazard()
        except jax.errors.KeyReuseError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise KeyReuseError")
    # the near misses draw from each key once: the checker lets them through
    named["flag_from_the_caller"](jax.random.key(5), x, False)
    named["first_call_does_not_draw"](jax.random.key(6), x)
    named["second_call_does_not_draw"](jax.random.key(7), x)
    named["eval_then_train"](jax.random.key(8), x)
    named["guard_by_value"](x, jax.random.key(9))
    assert jnp.array_equal(named["through_partial"](x, jax.random.key(10)), 2 * x)
    named["through_a_default"](x, jax.random.key(11))
    print("ok")
