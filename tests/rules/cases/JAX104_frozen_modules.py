# An equinox module and a flax struct are frozen dataclasses: assigning an attribute of `self`
# outside `__init__` and `__post_init__` raises `dataclasses.FrozenInstanceError` (measured with
# JAX 0.10.2, under `jit` and `filter_jit`). Initialisers may assign; a method of the class that
# shares a container method's name is not a container mutation.
import equinox as eqx
import jax
import jax.numpy as jnp
from flax import struct


class RunningMean(eqx.Module):
    total: jax.Array

    def __call__(self, x):
        self.total = self.total + x.sum()  # error: JAX104
        return self.total


class Shifted(eqx.Module):
    shift: jax.Array

    def __post_init__(self):
        self.shift = jnp.asarray(self.shift)  # an initialiser: allowed

    def __call__(self, x):
        return x + self.shift


class Recorder(eqx.Module):
    last: jax.Array

    @eqx.filter_jit
    def record(self, x):
        self.last = x * 2.0  # error: JAX104
        return x


class Updated(eqx.Module):
    w: jax.Array

    def __call__(self, x):
        return eqx.tree_at(lambda m: m.w, self, self.w + x.sum())  # a new module: the fix


@struct.dataclass
class Buffer:
    data: jax.Array

    def clear(self):
        self.data = self.data.at[0].set(0.0)  # error: JAX104
        return self.data.sum()

    def cleared(self):
        return self.replace(data=self.data.at[0].set(0.0))


@jax.jit
def clear_buffer(buffer: Buffer):
    return buffer.clear()


@struct.dataclass
class Ring:
    data: jax.Array

    def append(self, value):
        return self.replace(data=jnp.roll(self.data, 1).at[0].set(value))


@jax.jit
def cleared_buffer(buffer: Buffer):
    return buffer.cleared()


@jax.jit
def push(ring, value):
    pushed = ring.append(value)  # its own method, which returns a new ring
    return pushed.data


if __name__ == "__main__":
    import dataclasses

    x = jnp.ones(3)
    hazards = [
        (lambda: eqx.filter_jit(RunningMean(jnp.zeros(())))(x), dataclasses.FrozenInstanceError),
        (lambda: Recorder(jnp.zeros(3)).record(x), dataclasses.FrozenInstanceError),
        (lambda: clear_buffer(Buffer(x)), dataclasses.FrozenInstanceError),
    ]
    for hazard, error in hazards:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error.__name__}")
    assert jnp.allclose(eqx.filter_jit(Shifted(1.0))(x), 2.0)
    assert float(cleared_buffer(Buffer(x)).data.sum()) == 2.0
    assert jnp.array_equal(push(Ring(jnp.arange(3.0)), 5.0), jnp.array([5.0, 0.0, 1.0]))
    assert jnp.allclose(jax.vmap(Updated(jnp.zeros(())))(jnp.ones((2, 3))).w, 3.0)
    print("ok")
