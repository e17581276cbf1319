# A method that puts a traced value into a container its object keeps (`self.losses.append`),
# called from traced code on an object made before the trace: the container keeps a tracer
# after the trace (measured with JAX 0.10.2: using it raises `UnexpectedTracerError`).
from functools import partial

import jax
import jax.numpy as jnp


class Logger:
    def __init__(self):
        self.losses = []
        self.events = []

    def log(self, loss):
        self.losses.append(loss)  # error: JAX104

    def note(self, name):
        self.events.append(name)  # a string: nothing traced is kept


logger = Logger()


@jax.jit
def train_step(w):
    loss = jnp.sum(w**2)
    logger.log(loss)
    logger.note("step")
    return w * 0.5


class Tracker:
    def __init__(self):
        self.seen = []

    @partial(jax.jit, static_argnums=0)
    def update(self, x):
        self.seen.append(x)  # error: JAX104
        return x + 1


class Scratch:
    def __init__(self):
        self.parts = []

    def add(self, x):
        self.parts.append(x)  # made inside the trace: it dies with it
        return self


@jax.jit
def collected(x):
    return jnp.stack(Scratch().add(x).add(x * 2).parts)


class Optimizer:
    def update(self, grads):
        return grads * 0.1


class Trainer:
    def __init__(self):
        self.tx = Optimizer()

    @partial(jax.jit, static_argnums=0)
    def step(self, grads):
        return self.tx.update(grads)  # an object's own `update`, not a dict's


def evaluate(w):
    eager = Logger()
    eager.log(jnp.sum(w))  # called eagerly: a value, not a tracer
    return eager.losses


def main():
    w = jnp.ones(2)
    w = train_step(w)
    Tracker().update(w)
    return collected(w), evaluate(w), Trainer().step(w)


if __name__ == "__main__":
    named = globals()  # the functions by name: what the calls pass stays out of the analysis above
    stacked, losses, stepped = named["main"]()
    tracker = Tracker()
    tracker.update(jnp.ones(2))
    for kept in (logger.losses[0], tracker.seen[0]):
        assert isinstance(kept, jax.core.Tracer)  # a tracer, kept after the trace
        try:
            kept + 1
        except jax.errors.UnexpectedTracerError:
            pass
        else:
            raise AssertionError("using the kept tracer did not raise UnexpectedTracerError")
    assert logger.events == ["step"]
    assert stacked.tolist() == [[0.5, 0.5], [1.0, 1.0]]
    assert len(losses) == 1 and float(losses[0]) == 1.0 and not isinstance(losses[0], jax.core.Tracer)
    assert jnp.allclose(stepped, 0.05)
    print("ok")
