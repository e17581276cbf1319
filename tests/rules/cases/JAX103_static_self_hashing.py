# A method jitted with `self` static: JAX's cache keeps the object itself as the key of the
# compiled program. Changing an attribute the method reads changes the key in place, so later
# calls find the old program, whatever the class's own `__hash__` and `__eq__` cover (measured
# with JAX 0.10.2: every marked method still uses k = 2.0 after `s.k = 3.0`). A new object per
# value compiles again. `obj(x)` runs `__call__`.
import functools

import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, k):
        self.k = k

    def __hash__(self):
        return 0

    def __eq__(self, other):
        return isinstance(other, Scaler)

    @functools.partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return x * self.k  # error: JAX103, JAX665


class Shifter:
    def __init__(self, k):
        self.k = k

    @functools.partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return x + self.k  # error: JAX103


class Keyed:
    def __init__(self, k):
        self.k = k

    def __hash__(self):
        return hash(self.k)

    def __eq__(self, other):
        return isinstance(other, Keyed) and self.k == other.k

    @functools.partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return x * self.k  # error: JAX103


class ByFields:
    def __init__(self, k):
        self.k = k

    def __hash__(self):
        return hash(tuple(sorted(vars(self).items())))

    def __eq__(self, other):
        return vars(self) == vars(other)

    @functools.partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return x * self.k  # error: JAX103


def scaled():
    s = Scaler(2.0)
    s(jnp.ones(1))
    s.k = 3.0
    return float(s(jnp.ones(1))[0])


def shifted():
    s = Shifter(2.0)
    s(jnp.ones(1))
    s.k = 3.0
    return float(s(jnp.ones(1))[0])


def keyed():
    s = Keyed(2.0)
    s.apply(jnp.ones(1))
    s.k = 3.0
    return float(s.apply(jnp.ones(1))[0])


def by_fields():
    s = ByFields(2.0)
    s.apply(jnp.ones(1))
    s.k = 3.0
    return float(s.apply(jnp.ones(1))[0])


# near misses


class Factor:
    def __init__(self, k):
        self.k = k

    def __hash__(self):
        return hash(self.k)

    def __eq__(self, other):
        return isinstance(other, Factor) and self.k == other.k

    @functools.partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return x * self.k  # each value gets its own object: compiled again


def new_objects():
    first = Factor(2.0).apply(jnp.ones(1))
    second = Factor(3.0).apply(jnp.ones(1))
    return float(first[0]), float(second[0])


if __name__ == "__main__":
    print(scaled())
    print(shifted())
    print(keyed())
    print(by_fields())
    print(new_objects())
