import jax
import jax.numpy as jnp


def set_first(x):
    x[0] = 10.0  # error: JAX201
    return x


def relu_inplace(x):
    x[x < 0] = 0.0  # error: JAX201
    return x


def fresh_array(n):
    buf = jnp.zeros(n)
    buf[1:3] = 1.0  # error: JAX201
    return buf


@jax.jit
def place_agent(grid, row, col):
    grid[row, col] = 1.0  # error: JAX201
    return grid


def annotated(x: jax.Array, y):
    x[0] = y  # error: JAX201
    return x


# --- near misses ---


def fill_list(values):
    values[0] = 1.0
    values.append(2.0)
    return values


def fill_dict(params):
    params["w"] = 1.0
    return params


@jax.jit
def decay_weights(params, rate):
    new_params = dict(params)
    new_params["w"] = params["w"] * (1.0 - rate)
    return new_params


def with_default(x=None, table=()):
    table[0] = 1
    return x


@jax.jit
def at_set(x):
    x = x.at[0].set(10.0)
    return x


def local_list():
    items = [0.0, 0.0]
    items[0] = 1.0
    return items


BUFFER = jnp.zeros(3)


@jax.jit
def write_global(x):
    BUFFER[0] = x  # error: JAX201 (fixed into a new local name: `BUFFER = ...` would make the global local)
    return BUFFER


@jax.jit
def zero_bias(params, x):
    params["b"][0] = 0.0  # error: JAX201 (unsafe fix: params["b"] = params["b"].at[0].set(0.0))
    return x @ params["w"] + params["b"]



if __name__ == "__main__":
    named = globals()  # the functions by name: what the calls pass stays out of the analysis above
    for hazard in (
        lambda: named["set_first"](jnp.ones(2)),
        lambda: named["relu_inplace"](jnp.ones(2)),
        lambda: named["fresh_array"](4),
        lambda: named["place_agent"](jnp.zeros((2, 2)), 0, 1),
        lambda: named["annotated"](jnp.ones(2), 1.0),
        lambda: named["write_global"](1.0),
        lambda: named["zero_bias"]({"w": jnp.ones((2, 2)), "b": jnp.ones(2)}, jnp.ones(2)),
    ):
        try:
            hazard()
        except TypeError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TypeError")
    assert named["fill_list"]([0.0]) == [1.0, 2.0]
    assert named["fill_dict"]({}) == {"w": 1.0}
    assert named["decay_weights"]({"w": jnp.ones(2)}, 0.5)["w"].tolist() == [0.5, 0.5]
    assert named["with_default"](1, [0]) == 1
    assert named["at_set"](jnp.ones(2)).tolist() == [10.0, 1.0]
    assert named["local_list"]() == [1.0, 0.0]
    print("ok")
