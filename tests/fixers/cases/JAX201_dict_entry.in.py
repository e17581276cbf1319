# fix: unsafe
import jax


@jax.jit
def zero_bias(params, x):
    params["b"][0] = 0.0  # the first unit starts at zero
    return x @ params["w"] + params["b"]
