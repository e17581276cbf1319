"""JAX103 on a static `self`: JAX finds the program compiled for a method by the hash of its
static arguments; a plain object hashes by identity, so a changed attribute is not seen. Claimed
where the object is run, changed, and run again (or changed in a loop that runs it).

Near misses: an object changed before its first call or after its last, a new object in each
iteration, a class that defines its own hashing, a helper that only builds the object, a method
that traces `self`, an attribute the method does not read.
"""

from functools import partial

import jax


class Scaler:
    def __init__(self, factor):
        self.factor = factor
        self.bias = 0.0
        self._build()

    def _build(self):
        self.offset = 1.0  # ok: only called by the constructor

    def set_factor(self, factor):
        self.factor = factor

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        y = x * self.factor  # error: JAX103
        return y + self.offset


class Counter:
    def __init__(self):
        self.step = 1

    @partial(jax.jit, static_argnames="self")
    def advance(self, x):
        return x + self.step  # error: JAX103

    @partial(jax.jit, static_argnums=0)
    def unchanged(self, x):
        return x  # ok: reads nothing that changes


class Hashed:
    def __init__(self, factor):
        self.factor = factor

    def __hash__(self):
        return hash(self.factor)

    def __eq__(self, other):
        return isinstance(other, Hashed) and other.factor == self.factor

    def set_factor(self, factor):
        self.factor = factor

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        return x * self.factor  # ok: not claimed, the class decides its own hashing


def run_counter(x):
    counter = Counter()
    first = counter.advance(x)
    counter.step = 2
    return first, counter.advance(x)


def fresh_objects(x):
    counter = Counter()
    counter.step = 3  # set before the first call: traced with 3
    return counter.advance(x)


def schedule(x, steps):
    counter = Counter()
    for step in steps:
        x = counter.advance(x)
        counter.step = step
    return x


class Config:
    def __init__(self, scale):
        self.scale = scale


@partial(jax.jit, static_argnames="config")
def scaled(x, config):
    return x * config.scale  # error: JAX103


def shifted(x, config):
    return x + config.scale


shift = jax.jit(shifted, static_argnums=1)


def tune(x):
    config = Config(1.0)
    first = scaled(x, config)
    config.scale = 2.0
    return first, scaled(x, config)


def tune_fresh(x):
    config = Config(1.0)
    config.scale = 2.0  # before any call: traced with 2.0
    return shift(x, config)


def shifted_back(x, config):
    return x - config.scale  # error: JAX103


shift_back = jax.jit(shifted_back, static_argnums=1)


def tune_in_loop(x):
    config = Config(1.0)
    for scale in (2.0, 3.0):
        x = shift_back(x, config)
        config.scale = scale
    return x


def rescale(x):
    scaler = Scaler(2.0)
    first = scaler.apply(x)
    scaler.set_factor(3.0)
    return first, scaler.apply(x)


def configure_first(x):
    scaler = Scaler(2.0)
    scaler.set_factor(3.0)  # before the first call: traced with 3.0
    return scaler.apply(x)


def changed_after_the_last_call(x):
    counter = Counter()
    out = counter.advance(x)
    counter.step = 5  # no call follows
    return out


def a_new_object_each_time(x, steps):
    for step in steps:
        counter = Counter()
        counter.step = step
        x = counter.advance(x)
    return x


class Sampler:
    def __init__(self, temperature):
        self.temperature = temperature
        self._table = None

    def warmer(self, inplace=False):
        if inplace:
            self.temperature = self.temperature * 2  # only when asked
        return self

    def table(self):
        if self._table is None:
            self._table = (1.0, 2.0)  # a lazy cache: stored once
        return self._table

    @partial(jax.jit, static_argnums=0)
    def step(self, x):
        return x / self.temperature + self._table[0]  # ok: see the near misses below


def anneal(x, temperatures):
    sampler = Sampler(1.0)
    sampler.table()
    for temperature in temperatures:
        x = sampler.step(x)
        sampler.temperature = temperature
        break  # the changed sampler never runs again
    sampler.warmer()
    sampler.table()
    return sampler.step(x)


def early_exit(x, config, retune):
    out = scaled(x, config)
    if retune:
        config.scale = 3.0
        return out  # no run sees the change
    return scaled(out, config)


class Objective:
    def __init__(self, c):
        self.c = c
        self.compute = jax.jit(self.compute)

    def compute(self, x):
        return self.c * x  # error: JAX103 (the jitted bound method keeps the first `self.c`)


class Rebuilt:
    def __init__(self, c):
        self.c = c
        self.compute = jax.jit(self.compute)

    def compute(self, x):
        return self.c * x  # ok: each change makes a new object, with its own jitted function


def objective_changes(x):
    objective = Objective(2.0)
    first = objective.compute(x)
    objective.c = 3.0
    return first, objective.compute(x)


def rebuilt_objects(x):
    first = Rebuilt(2.0).compute(x)
    return first, Rebuilt(3.0).compute(x)


if __name__ == "__main__":
    import jax.numpy as jnp

    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    x = jnp.ones(2)

    def values(*arrays):
        return [float(a[0]) for a in arrays]

    # run, changed, run again: the second run keeps the first value
    assert values(*fns["rescale"](x)) == [3.0, 3.0]  # not [3, 4]
    assert values(*fns["run_counter"](x)) == [2.0, 2.0]  # not [2, 3]
    assert values(fns["schedule"](x, [5, 7])) == [3.0]  # not 1 + 1 + 5
    assert values(*fns["tune"](x)) == [1.0, 1.0]  # not [1, 2]
    assert values(fns["tune_in_loop"](x)) == [-1.0]  # not 1 - 1 - 2
    assert values(*fns["objective_changes"](x)) == [2.0, 2.0]  # not [2, 3]
    # near misses
    assert values(fns["fresh_objects"](x)) == [4.0]
    assert values(fns["tune_fresh"](x)) == [3.0]
    assert values(fns["configure_first"](x)) == [4.0]
    assert values(fns["changed_after_the_last_call"](x)) == [2.0]
    assert values(fns["a_new_object_each_time"](x, [2, 3])) == [6.0]
    assert values(Hashed(2.0).apply(x), Hashed(3.0).apply(x)) == [2.0, 3.0]
    assert values(Counter().unchanged(x)) == [1.0]
    assert values(fns["early_exit"](x, Config(2.0), True)) == [2.0]
    assert values(fns["early_exit"](x, Config(2.0), False)) == [4.0]
    assert values(*fns["rebuilt_objects"](x)) == [2.0, 3.0]
    assert values(fns["anneal"](x, [])) == [2.0]  # the loop does not run: see the report for `[4.0]`
    print("ok")
