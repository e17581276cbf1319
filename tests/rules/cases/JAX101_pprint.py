# `pprint.pprint` of a traced value in compiled code runs only while JAX traces it, and shows
# tracers (measured with JAX 0.10.2: three steps, one line).
import contextlib
import io
import pprint

import jax
import jax.numpy as jnp


def loss(params, x):
    pred = params["w"] * x + params["b"]
    pprint.pprint({"pred_mean": pred.mean()})  # error: JAX101
    return jnp.mean(pred**2)


@jax.jit
def shaped(x):
    pprint.pp({"shape": x.shape})  # shapes are static: the trace-time debugging idiom
    return x * 2.0


def eager_loss(params, x):
    pprint.pprint({"w": params["w"]})  # eager: real values, on every call
    return jnp.mean(params["w"] * x)


if __name__ == "__main__":
    grad_fn = jax.jit(jax.grad(loss))
    params = {"w": jnp.array(1.0), "b": jnp.array(0.5)}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for _ in range(3):
            grad_fn(params, jnp.arange(4.0))
        shaped(jnp.ones(2))
        eager_loss(params, jnp.arange(4.0))
    assert out.getvalue().count("pred_mean") == 1
    assert "Tracer" in out.getvalue()
    print("ok")
