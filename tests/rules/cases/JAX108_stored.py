# A traced value formatted into a string stored into an item or attribute: the description of
# the tracer is stored, once per trace (measured with JAX 0.10.2: the environment holds
# "JitTracer(float32[])" after the call).
import os

import jax
import jax.numpy as jnp

LAST = {}


@jax.jit
def eval_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    os.environ["LAST_EVAL_LOSS"] = str(loss)  # error: JAX108
    LAST["loss"] = f"{loss}"  # error: JAX104, JAX108
    return loss


# near misses


class Box:
    pass


@jax.jit
def shaped(x):
    box = Box()
    box.label = str(x.shape)  # a shape: a Python value, on an object of this trace
    return x * len(box.label)


def eager_export(loss):
    os.environ["LAST_EVAL_LOSS"] = str(loss)


if __name__ == "__main__":
    eval_step(jnp.ones(3), jnp.ones((4, 3)))
    assert "Tracer" in os.environ["LAST_EVAL_LOSS"] and "Tracer" in LAST["loss"]
    assert shaped(jnp.ones(2)).tolist() == [4.0, 4.0]
    eager_export(jnp.float32(1.5))
    assert os.environ["LAST_EVAL_LOSS"] == "1.5"
    print("ok")
