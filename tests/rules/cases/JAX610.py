import abc
import dataclasses
from functools import partial
from typing import Generic, TypeVar

import equinox as eqx
import jax
import jax.numpy as jnp


class A1:
    """jax#5595."""

    @jax.jit  # error: JAX610
    def f(self, x):
        return x


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @partial(jax.jit, static_argnames=("n",))  # error: JAX610 (only `n` is static)
    def scale(self, x, n):
        return x * self.factor * n

    # near misses: a static self, no self, pytrees

    @partial(jax.jit, static_argnums=0)  # ok: a static self (hashable, frozen attributes)
    def scale_static(self, x):
        return x * self.factor

    @staticmethod
    @jax.jit
    def helper(x):  # ok: no self
        return x * 2


class Child(Scaler):
    @jax.jit  # error: JAX610 (a plain class of this module as its base)
    def shift(self, x):
        return x + self.factor


@jax.tree_util.register_pytree_node_class
class Registered:
    def __init__(self, w):
        self.w = w

    def tree_flatten(self):
        return (self.w,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)

    @jax.jit
    def apply(self, x):  # ok: a pytree
        return x * self.w


@dataclasses.dataclass
class Config:
    scale: float

    @jax.jit  # error: JAX610 (a plain dataclass is no pytree)
    def apply(self, x):
        return x * self.scale


class Model(eqx.Module):
    w: jnp.ndarray

    @jax.jit
    def __call__(self, x):  # ok: an equinox Module is a pytree
        return x * self.w


class Replicated:
    """Transformations other than jit take `self` as an array too (each measured: TypeError)."""

    @jax.pmap  # error: JAX610
    def per_device(self, x):
        return x * 2

    @jax.vmap  # error: JAX610
    def per_example(self, x):
        return x * 2

    @jax.grad  # error: JAX610
    def slope(self, x):
        return (x**2).sum()

    @jax.checkpoint  # error: JAX610
    def block(self, x):
        return x * 2

    @partial(jax.vmap, in_axes=(None, 0))
    def per_example_unmapped(self, x):  # ok: `self` is not mapped
        return x * 2

    @partial(jax.grad, argnums=1)
    def slope_of_x(self, x):  # ok: differentiated with respect to x only
        return (x**2).sum()

    @partial(jax.pmap, static_broadcasted_argnums=0)
    def per_device_static(self, x):  # ok: `self` is static
        return x * 2

    @partial(jax.checkpoint, static_argnums=(0,))
    def block_static(self, x):  # ok: `self` is static
        return x * 2


class StaticConfig:
    @jax.vmap
    def scale(self, x):  # ok: registered static below, an empty pytree
        return x * 2


jax.tree_util.register_static(StaticConfig)


class Kernels:
    """A namespace of batched kernels, called through the class: no instance is passed."""

    @jax.vmap
    def dot(a, b):
        return a @ b


class AbstractScaler(abc.ABC):  # noqa: B024
    def __init__(self, factor):
        self.factor = factor

    @jax.jit  # error: JAX610
    def scale(self, x):
        return x * self.factor


T = TypeVar("T")


class TypedScaler(Generic[T]):
    def __init__(self, factor):
        self.factor = factor

    @jax.jit  # error: JAX610
    def scale(self, x):
        return x * self.factor


class MetaScaler(metaclass=abc.ABCMeta):  # noqa: B024
    def __init__(self, factor):
        self.factor = factor

    @jax.jit  # error: JAX610
    def scale(self, x):
        return x * self.factor


class OtherMeta(type):
    pass


class CustomMeta(metaclass=OtherMeta):  # a metaclass may make it anything: silent
    def __init__(self, factor):
        self.factor = factor

    @jax.jit
    def scale(self, x):
        return x * self.factor


class Trainer:
    def __init__(self, lr):
        self.lr = lr

    def update(self, w, g):
        return w - self.lr * g

    def decay(self, w):
        return w * (1.0 - self.lr)

    def _draw(self, x):
        return x * self.lr

    draw = jax.jit(_draw)  # error: JAX610


update = jax.jit(Trainer.update)  # error: JAX610
decay = jax.jit(Trainer.decay, static_argnums=0)  # a static object: hashed by identity
bound_update = jax.jit(Trainer(0.1).update)  # bound: the object is not an argument


if __name__ == "__main__":
    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    x = jnp.ones(3)
    mapped = fns["Replicated"]()
    for hazard in (
        lambda: A1().f(x),
        lambda: Scaler(2.0).scale(x, n=2),
        lambda: Child(2.0).shift(x),
        lambda: Config(2.0).apply(x),
        lambda: mapped.per_device(x[None]),
        lambda: mapped.per_example(x),
        lambda: mapped.slope(x),
        lambda: mapped.block(x),
        lambda: AbstractScaler(2.0).scale(x),
        lambda: TypedScaler(2.0).scale(x),
        lambda: MetaScaler(2.0).scale(x),
        lambda: Trainer(0.1).draw(x),
        lambda: fns["update"](Trainer(0.1), x, x),
    ):
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TypeError")
    assert Scaler(2.0).scale_static(x).tolist() == [2.0] * 3
    assert Scaler.helper(x).tolist() == [2.0] * 3
    assert Registered(jnp.float32(3.0)).apply(x).tolist() == [3.0] * 3
    assert Model(jnp.float32(3.0))(x).tolist() == [3.0] * 3
    assert mapped.per_example_unmapped(x).tolist() == [2.0] * 3
    assert mapped.slope_of_x(x).tolist() == [2.0] * 3
    assert mapped.per_device_static(x[None]).tolist() == [[2.0] * 3]
    assert mapped.block_static(x).tolist() == [2.0] * 3
    assert StaticConfig().scale(x).tolist() == [2.0] * 3
    assert Kernels.dot(jnp.ones((2, 3)), jnp.ones((2, 3))).tolist() == [3.0, 3.0]
    assert jnp.allclose(fns["decay"](Trainer(0.1), x), 0.9)
    assert jnp.allclose(fns["bound_update"](x, x), 0.9)
    print("ok")
