# A CSV writer's rows written in traced code: written once, while JAX traces, with tracers for
# values (measured with JAX 0.10.2: one row for two calls of a five-step scan).
import csv
import io

import jax
import jax.numpy as jnp
from jax import lax

log_file = io.StringIO()
writer = csv.writer(log_file)
fields = csv.DictWriter(io.StringIO(), fieldnames=["loss"])


def body(h, x):
    h = jnp.tanh(0.5 * h + x)
    writer.writerow(["hidden", h])  # error: JAX102
    return h, h


@jax.jit
def run(xs):
    return lax.scan(body, 0.0, xs)


@jax.jit
def step(w):
    fields.writerow({"loss": jnp.sum(w)})  # error: JAX102
    return w


# near misses


def host_log(xs):
    _, hs = run(xs)
    for h in hs.tolist():
        writer.writerow(["hidden", h])  # eager: one row per step
    return hs


if __name__ == "__main__":
    for _ in range(2):
        run(jnp.linspace(-1.0, 1.0, 5))
    assert len(log_file.getvalue().splitlines()) == 1  # one row, at trace time
    step(jnp.ones(2))
    host_log(jnp.linspace(-1.0, 1.0, 5))
    assert len(log_file.getvalue().splitlines()) == 6
    print("ok")
