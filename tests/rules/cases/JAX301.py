import functools

import jax
import jax.numpy as jnp
import jax.random as jr
from jax import random
from jax.random import normal as randn


def init_linear(key):
    w = jax.random.normal(key, (3, 2))
    b = jax.random.normal(key, (2,))  # error: JAX301
    return w, b


def parent_after_split(key):
    k1, k2 = jax.random.split(key)
    a = jax.random.uniform(k1, (3,))
    b = jax.random.uniform(key, (3,))  # error: JAX301
    return a, b, k2


def alias(key):
    k = key
    a = jr.normal(k, ())
    return a + jr.normal(key, ())  # error: JAX301


def augment(key, images):
    flip = random.bernoulli(key, 0.5, (images.shape[0],))
    noise = random.normal(key=key, shape=images.shape)  # error: JAX301
    return jnp.where(flip[:, None], images, images + noise)


def sample(key, shape):
    return jax.random.normal(key, shape)


def two_samples(key):
    a = sample(key, (2,))
    b = sample(key, (2,))  # error: JAX301
    return a, b


def split_twice(key):
    keys = jax.random.split(key, 3)
    a = jax.random.normal(keys[0])
    b = jax.random.normal(keys[0])  # error: JAX301
    return a, b


def used_in_if_then_after(key, flag):
    if flag:
        noise = jax.random.normal(key, (2,))
    else:
        noise = jnp.zeros(2)
    return noise + jax.random.normal(key, (2,))  # error: JAX301


def used_in_else_then_after(key, flag):
    if flag:
        noise = jnp.zeros(2)
    else:
        noise = jax.random.normal(key, (2,))
    return noise + jax.random.normal(key, (2,))  # error: JAX301


def used_in_one_branch_of_try(key):
    try:
        noise = jax.random.normal(key, (2,))
    except ValueError:
        noise = jnp.zeros(2)
    return noise + jax.random.normal(key, (2,))  # error: JAX301


def split_index_twice(key):
    keys = jax.random.split(key, 3)
    return jax.random.normal(keys[0]) + jax.random.normal(keys[0])  # error: JAX301


def cond_then_after(key, p):
    a = jax.lax.cond(p, lambda: jax.random.normal(key, ()), lambda: 0.0)
    return a + jax.random.normal(key, ())  # error: JAX301


def jitted_sampler_twice(key):
    sample = jax.jit(jax.random.normal)
    return sample(key), sample(key)  # error: JAX301


def draw(key):
    return jax.random.uniform(key, (2,))


def through_a_jitted_helper(key):
    fast_draw = jax.jit(draw)
    return fast_draw(key) + fast_draw(key)  # error: JAX301


class Sampler:
    def sample(self, key):
        return jax.random.normal(key, (2,))


def through_a_method(key):
    sampler = Sampler()
    return sampler.sample(key) + sampler.sample(key)  # error: JAX301


def closure_called_twice(key):
    def noise():
        return jax.random.normal(key, ())

    return noise() + noise()  # error: JAX301


def use_then_split(key):
    x = jax.random.normal(key, ())
    k1, k2 = jax.random.split(key)  # error: JAX301
    return x, k1, k2


# --- near misses ---


def cond_one_branch_each(key, p):
    return jax.lax.cond(p, lambda: jax.random.normal(key, ()), lambda: jax.random.uniform(key, ()))


def if_else_in_a_loop(key, flags):
    out = []
    for flag in flags:
        kx, ky = jax.random.split(jax.random.key(0))
        if flag:
            out.append(jax.random.normal(ky, ()))
        else:
            out.append(jax.random.uniform(ky, ()))
    return out


def distinct_split_indices(key):
    keys = jax.random.split(key, 3)
    return jax.random.normal(keys[0]) + jax.random.normal(keys[1])


def two_independent_calls(key):
    k1, k2 = jax.random.split(key)
    return draw(k1) + draw(k2)


def split_first(key):
    w_key, b_key = jax.random.split(key)
    return jax.random.normal(w_key, (3,)), jax.random.normal(b_key, (2,))


def branches(key, flag):
    if flag:
        return jax.random.normal(key, ())
    return jax.random.uniform(key, ())


def exclusive_branches(key, flag):
    if flag:
        x = jax.random.normal(key, ())
    else:
        x = jax.random.uniform(key, ())
    return x


def rebind_in_branch(key, flag):
    if flag:
        key, sub = jax.random.split(key)
        x = jax.random.normal(sub, ())
    else:
        x = 0.0
    key, other = jax.random.split(key)
    return x, key, other


def fold_in_is_fine(key):
    a = jax.random.normal(jax.random.fold_in(key, 0), ())
    b = jax.random.normal(jax.random.fold_in(key, 1), ())
    return a, b


def key_data_is_fine(key):
    data = jax.random.key_data(key)
    return data, jax.random.normal(key, ())


def distinct_indices(key):
    keys = jax.random.split(key, 2)
    return jax.random.normal(keys[0]), jax.random.normal(keys[1])


def split_in_a_closure(key):
    def inner():
        a = jax.random.normal(key, (4,))
        b = jax.random.uniform(key, (4,))  # error: JAX301 (fixed with fresh names: inner runs once per call)
        return a + b

    return inner()


def drawn_by_an_imported_alias(key):
    a = randn(key, (4,))
    b = randn(key, (4,))  # error: JAX301
    return a + b


def item_written_back(keys):
    keys[0], sub = jax.random.split(keys[0])
    return jax.random.normal(sub), jax.random.normal(keys[0])  # ok: `keys[0]` is the new key


def item_not_written_back(keys):
    sub = jax.random.split(keys[0])[1]
    return jax.random.normal(sub), jax.random.normal(keys[0])  # error: JAX301


def add_noise(key, x):
    return x + jax.random.normal(key, x.shape)


noisy = jax.jit(add_noise)
partly_noisy = functools.partial(add_noise)
uniform_jitted = jax.jit(jax.random.uniform)
slope_of_noise = jax.grad(lambda x, key: jnp.sum(add_noise(key, x)))


def jitted_twice(key, x):
    return noisy(key, x) + noisy(key, x)  # error: JAX301 (through `noisy = jax.jit(add_noise)`)


def partial_twice(key, x):
    return partly_noisy(key, x) + partly_noisy(key, x)  # error: JAX301


def library_twice(key):
    return uniform_jitted(key) + uniform_jitted(key)  # error: JAX301 (`jax.jit(jax.random.uniform)`)


def grad_twice(key, x):
    return slope_of_noise(x, key) + slope_of_noise(x, key)  # error: JAX301


def jitted_with_split_keys(key, x):
    first, second = jax.random.split(key)
    return noisy(first, x) + noisy(second, x)  # ok: a key for each call


doubled = jax.jit(lambda x: x * 2)


def keyless_wrapper(key, x):
    return doubled(x) + doubled(x) + jax.random.normal(key, x.shape)  # ok: `doubled` draws nothing


class Jittered:
    def __init__(self):
        self.noisy = jax.jit(self.noise)

    def noise(self, key, x):
        return x + jax.random.normal(key, x.shape)

    def twice(self, key, x):
        return self.noisy(key, x) + self.noisy(key, x)  # error: JAX301 (`self.noisy = jax.jit(self.noise)`)

    def split_first(self, key, x):
        first, second = jax.random.split(key)
        return self.noisy(first, x) + self.noisy(second, x)  # ok: a key for each call


def run_jittered(key, x):
    return Jittered().twice(key, x)


DEFAULT_KEY = jax.random.key(7)


def noise_by_default(x, key=DEFAULT_KEY):
    return x + jax.random.normal(key, x.shape)


def default_twice(x):
    return noise_by_default(x) + noise_by_default(x)  # error: JAX301 (both draw from the default key)


def default_and_given(x, key):
    return noise_by_default(x) + noise_by_default(x, key)  # ok: one default, one given


def jitter(x, scale=0.1, key=jax.random.key(0)):
    return x + scale * jax.random.normal(key, x.shape)


def two_views(x):
    first = jitter(x)
    return first, jitter(x)  # error: JAX301 (the key `def jitter` made, drawn again)


def two_given_views(x, key):
    a, b = jax.random.split(key)
    return jitter(x, key=a), jitter(x, 0.2, b)  # ok: each call is given its own key


def shuffle_in_step(key, images, labels):
    images = jax.random.permutation(key, images)
    labels = jax.random.permutation(key, labels)  # error: JAX301 (the same order: no split fix)
    return images, labels


def sampled_by_branch(key, flag):
    r = jax.lax.cond(flag, jax.random.uniform, jax.random.normal, key)
    return r + jax.random.uniform(key)  # error: JAX301 (a branch drew from it)


def sampled_by_one_branch(key, flag):
    k1, k2 = jax.random.split(key)
    r = jax.lax.cond(flag, jax.random.uniform, lambda k: 1.0, k1)
    return r + jax.random.uniform(k2)
