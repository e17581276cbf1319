"""A method that `__init__` jits bound and keeps under another name (`self.step_fn =
jax.jit(self.step)`) is traced once per object with `self` a constant: an attribute changed
later is not seen by the calls through the holder (measured with JAX 0.10.2: the step keeps the
first learning rate). Calling the method itself runs it eagerly, with the new value."""

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, lr):
        self.lr = lr
        self.step_fn = jax.jit(self.step)

    def step(self, w, g):
        return w - self.lr * g  # error: JAX103


class Scaler:
    def __init__(self, scale):
        self.scale = scale
        self.apply_fn = jax.jit(self.apply)

    def apply(self, x):
        return x * self.scale  # ok: only called eagerly after the change below


trainer = Trainer(lr=1.0)
w = trainer.step_fn(jnp.ones(2), jnp.ones(2))
trainer.lr = 0.5
w2 = trainer.step_fn(jnp.ones(2), jnp.ones(2))
assert float(w2[0]) == 0.0  # the stale rate: 1 - 1.0 * 1

scaler = Scaler(2.0)
y = scaler.apply_fn(jnp.ones(2))
scaler.scale = 3.0
y2 = scaler.apply(jnp.ones(2))
assert float(y2[0]) == 3.0


if __name__ == "__main__":
    assert float(w[0]) == 0.0 and float(w2[0]) == 0.0  # lr 0.5 would give 0.5
    assert float(trainer.step(jnp.ones(2), jnp.ones(2))[0]) == 0.5  # the method itself reads the new rate
    assert float(y[0]) == 2.0 and float(y2[0]) == 3.0
    print("ok")
