# fix: safe
from functools import partial

import jax
import jax.numpy as jnp
import flax.linen as nn


@jax.jit
def clip_positive(x):
    if x.sum() > 0:  # fixed: every run is traced, and every run raised here
        return x
    return -x


def body(carry, x):
    if x > 0:  # fixed: a `lax.scan` body only ever runs traced
        carry = carry + x
    return carry, x


def scan_positive(xs):
    return jax.lax.scan(body, 0.0, xs)


def leaky(x):
    if x > 0:  # no fix (unsafe): it also runs eagerly below, where the `if` worked
        return x
    return 0.1 * x


leaky_jit = jax.jit(leaky)
print(leaky(1.0))


@jax.jit
def forward(x, training):
    if training:  # fixed: every call reaches this `if` and raised
        return x * 0.5
    return x


@jax.jit
def maybe_pad(x, n, pad):
    if x.ndim == 1:
        if pad:  # no fix (unsafe): calls that do not reach it worked with a traced `pad`
            return x + n
    return x * n


@jax.jit
def halve(x):
    while x.sum() > 1.0:  # fixed: jitted, and not differentiated
        x = x / 2
    return x


def halve_differentiated(x):
    while x > 1.0:  # no fix (unsafe): `jax.grad` cannot differentiate a `while_loop`
        x = x / 2
    return x


halve_grad = jax.jit(jax.grad(halve_differentiated))


@partial(jax.jit, static_argnames=("mode",))
def either(x, y, mode):
    both = x > 0 and y > 0  # fixed: comparisons, of which `and` is `logical_and`
    return both, max(x, y)  # fixed: `max` raised on every run


@jax.jit
def first_of(x, y):
    return x or y  # no fix (unsafe): `or` gave an operand, `logical_or` a boolean


def compiled(fn):
    return jax.jit(fn)


@compiled
def sized(x, n):
    return x + jnp.zeros(n)  # no fix: the `jax.jit` in `compiled` serves every function it wraps


def make_step(scale):
    def step(x):
        if x > 0:  # fixed: the factory's every result is jitted
            return x * scale
        return x

    return step


step_fn = jax.jit(make_step(2.0))


def make_rule(scale):
    def rule(x):
        if x > 0:  # no fix (unsafe): one result of the factory runs eagerly
            return x * scale
        return x

    return rule


eager_rule = make_rule(1.0)
jitted_rule = jax.jit(make_rule(2.0))


class Gate:
    def __call__(self, x):
        if x > 0:  # fixed: its one instance is only called from jitted code
            return x
        return -x


gate = Gate()


@jax.jit
def gated_step(x):
    return gate(x) * 2.0


class EagerGate:
    def __call__(self, x):
        if x > 0:  # no fix (unsafe): the instance is also called eagerly
            return x
        return -x


eager_gate = EagerGate()


@jax.jit
def eager_gated_step(x):
    return eager_gate(x)


print(eager_gate(1.0))


class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        if x > 0:  # fixed: its one instance is only applied in jitted code
            return x * 2.0
        return x


block = Block()


@jax.jit
def block_step(variables, x):
    return block.apply(variables, x)


class Probe(nn.Module):
    @nn.compact
    def __call__(self, x):
        if x > 0:  # no fix (unsafe): `init` runs it eagerly
            return x
        return -x


probe = Probe()
probe_variables = probe.init(jax.random.key(0), 1.0)


@jax.jit
def probe_step(variables, x):
    return probe.apply(variables, x)


@jax.custom_vjp
def clipped(x):
    if x > 0:  # fixed: only jitted, and its forward rule runs where it is differentiated
        return x * 2.0
    return x


def clipped_fwd(x):
    return clipped(x), None


def clipped_bwd(residual, g):
    return (g,)


clipped.defvjp(clipped_fwd, clipped_bwd)
clipped_step = jax.jit(clipped)


@jax.custom_jvp
def softened(x):
    if x > 0:  # no fix (unsafe): a bare `grad` runs its rule, which calls it on concrete values
        return x
    return x * 0.1


@softened.defjvp
def softened_jvp(primals, tangents):
    return softened(primals[0]), tangents[0]


softened_step = jax.jit(softened)
softened_slope = jax.grad(softened)(1.0)


class Normalizer:
    def __init__(self, x):
        if x > 0:  # fixed: the class is only constructed in jitted code
            y = x * 2.0
        else:
            y = x - 1.0
        self.out = y


@jax.jit
def normalize(x):
    return Normalizer(x).out


class EagerNormalizer:
    def __init__(self, x):
        if x > 0:  # no fix (unsafe): it is also constructed eagerly below
            y = x * 2.0
        else:
            y = x - 1.0
        self.out = y


normalize_eager = jax.jit(lambda x: EagerNormalizer(x).out)
eager_out = EagerNormalizer(1.0).out


class DerivedNormalizer:
    def __init__(self, x):
        if x > 0:  # no fix (unsafe): a subclass's construction runs it, out of sight
            y = x * 2.0
        else:
            y = x - 1.0
        self.out = y


class Scaled(DerivedNormalizer):
    pass


normalize_derived = jax.jit(lambda x: DerivedNormalizer(x).out)


@jax.tree_util.register_pytree_node_class
class Record:
    def __init__(self, x):
        if x > 0:  # no fix (unsafe): a pytree's `__init__` also runs when JAX unflattens it, out of sight
            y = x * 2.0
        else:
            y = x - 1.0
        self.out = y

    def tree_flatten(self):
        return (self.out,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


record_step = jax.jit(lambda x: Record(x))
