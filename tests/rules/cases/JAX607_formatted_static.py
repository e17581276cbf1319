# A static argument formatted from the loop index (`tag=f"eval/step_{step}"`) is a new string on
# every iteration: JAX compiles the function again for each (measured with JAX 0.10.2: 100
# steps, 100 compilations).
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("tag",))
def eval_step(w, x, tag):
    return jnp.mean(jnp.tanh(x @ w))


def evaluate(w, x):
    for step in range(100):
        eval_step(w, x, tag=f"eval/step_{step}")  # error: JAX607


# near misses


def evaluate_split(w, x, split="val"):
    for _ in range(100):
        eval_step(w, x, tag=f"eval/{split}")  # the same string every iteration


if __name__ == "__main__":
    w, x = jnp.ones((3, 2)), jnp.ones((4, 3))
    evaluate(w, x)
    assert eval_step._cache_size() == 100
    eval_step.clear_cache()
    evaluate_split(w, x)
    assert eval_step._cache_size() == 1
    print("ok")
