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


if __name__ == "__main__":
    import jax.numpy as jnp

    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    x = jnp.ones(3)
    xs = [jnp.ones(2), jnp.zeros(2)]
    first, second = fns["called_twice"](jax.random.key(0), x), 2 * fns["noise"](jax.random.key(0), x)
    assert jnp.allclose(first, second)  # the same noise twice
    draws = fns["each_loop_step"](jax.random.key(0), [x, x])
    assert jnp.array_equal(draws[0], draws[1])
    jax.config.update("jax_debug_key_reuse", True)
    for hazard in (
        lambda: fns["called_twice"](jax.random.key(1), x),
        lambda: fns["bound_by_keyword"](jax.random.key(2), xs),
        lambda: fns["then_drawn_directly"](jax.random.key(3), x),
        lambda: fns["each_loop_step"](jax.random.key(4), xs),
        lambda: fns["nested_default_twice"](x),
        lambda: fns["local_default_twice"](jax.random.key(5), x),
        lambda: fns["one_method_twice"](x),
        lambda: fns["lambda_default_twice"](jax.random.key(6), x),
        lambda: fns["lambda_default_in_a_loop"](jax.random.key(7), xs),
        lambda: fns["tree_partial_twice"](jax.random.key(8), x),
        lambda: fns["sampler_bound_twice"](jax.random.key(9), x),
        lambda: fns["sampler_bound_by_keyword"](jax.random.key(10), xs),
    ):
        try:
            hazard()
        except jax.errors.KeyReuseError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise KeyReuseError")
    # the near misses draw from each key once: the checker lets them through
    fns["a_key_per_partial"](jax.random.key(11), x)
    fns["only_the_scale_bound"](jax.random.key(12), x)
    fns["called_once"](jax.random.key(13), x)
    fns["default_overridden"](jax.random.key(14), x)
    fns["default_passed_by_keyword"](jax.random.key(15), x)
    fns["lambda_default_overridden"](jax.random.key(16), x)
    fns["lambda_default_unused"](jax.random.key(17), x)
    fns["sampler_bound_once"](jax.random.key(18), x)
    fns["sampler_shape_bound"](jax.random.key(19), x)
    assert fns["splitter_bound"](jax.random.key(20)).shape == (3,)
    print("ok")
