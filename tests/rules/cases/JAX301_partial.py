# `functools.partial(f, key)` binds the key: every call of the partial function hands it to `f`
# again, so a second call (or a call per iteration) reuses it where `f` draws from it.
import functools
from functools import partial

import jax


def noise(key, x, scale=1.0):
    return x + scale * jax.random.normal(key, x.shape)


def called_twice(key, x):
    add = functools.partial(noise, key)
    return add(x) + add(x)  # error: JAX301


def bound_by_keyword(key, xs):
    add = partial(noise, key=key)
    return [add(x=x) for x in xs]  # error: JAX302


def then_drawn_directly(key, x):
    add = partial(noise, key)
    y = add(x)
    return y + noise(key, x)  # error: JAX301


def each_loop_step(key, xs):
    add = partial(noise, key)
    out = []
    for x in xs:
        out.append(add(x))  # error: JAX302
    return out


def a_key_per_partial(key, x):
    k1, k2 = jax.random.split(key)
    return partial(noise, k1)(x) + partial(noise, k2)(x)


def only_the_scale_bound(key, x):
    add = partial(noise, scale=2.0)
    k1, k2 = jax.random.split(key)
    return add(k1, x) + add(k2, x)


def called_once(key, x):
    add = partial(noise, key)
    return add(x) * 2.0


KEY = jax.random.key(0)


def nested_default_twice(x):
    def inner(y, key=KEY):
        return y + jax.random.normal(key, y.shape)

    return inner(x) + inner(x)  # error: JAX301


def local_default_twice(key, x):
    def inner(y, k=key):
        return y + jax.random.normal(k, y.shape)

    return inner(x) * inner(x)  # error: JAX301


def default_overridden(key, x):
    k1, k2 = jax.random.split(key)

    def inner(y, k=k1):
        return y + jax.random.normal(k, y.shape)

    return inner(x) + inner(x, k2)


def default_passed_by_keyword(key, x):
    k1, k2 = jax.random.split(key)

    def inner(y, k=k1):
        return y + jax.random.normal(k, y.shape)

    return inner(x, k=k2) + inner(x)


class Sampler:
    def __init__(self):
        self.key = jax.random.key(1)

    def draw(self, x):
        return x + jax.random.normal(self.key, x.shape)  # error: JAX302


def one_method_twice(x):
    s = Sampler()
    return s.draw(x) * s.draw(x)  # error: JAX301


def lambda_default_twice(key, x):
    noisy = lambda y, k=key: y + jax.random.normal(k, y.shape)  # noqa: E731
    return noisy(x) + noisy(x * 2.0)  # error: JAX301


def lambda_default_in_a_loop(key, xs):
    noisy = lambda y, k=key: y + jax.random.normal(k, y.shape)  # noqa: E731
    return [noisy(x) for x in xs]  # error: JAX302


def lambda_default_overridden(key, x):
    k1, k2 = jax.random.split(key)
    noisy = lambda y, k=k1: y + jax.random.normal(k, y.shape)  # noqa: E731
    return noisy(x) + noisy(x, k2)


def lambda_default_unused(key, x):
    scaled = lambda y, k=key: y * 2.0  # noqa: E731
    return scaled(x) + scaled(x)


def tree_partial_twice(key, x):
    add = jax.tree_util.Partial(noise, key)
    return add(x) + add(x)  # error: JAX301


def sampler_bound_twice(key, x):
    normal = partial(jax.random.normal, key)
    return x + normal(x.shape) + normal(x.shape)  # error: JAX301


def sampler_bound_by_keyword(key, xs):
    uniform = partial(jax.random.uniform, key=key)
    return [uniform(shape=x.shape) for x in xs]  # error: JAX302


def sampler_bound_once(key, x):
    normal = partial(jax.random.normal, key)
    return x + normal(x.shape)


def sampler_shape_bound(key, x):
    normal = partial(jax.random.normal, shape=x.shape)
    k1, k2 = jax.random.split(key)
    return normal(k1) + normal(k2)


def splitter_bound(key):
    split = partial(jax.random.split, num=3)
    return split(key)
