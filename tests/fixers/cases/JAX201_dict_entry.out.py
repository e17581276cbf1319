# fix: unsafe
import jax


@jax.jit
def zero_bias(params, x):
    params["b"] = params["b"].at[0].set(0.0)  # the first unit starts at zero
    return x @ params["w"] + params["b"]
