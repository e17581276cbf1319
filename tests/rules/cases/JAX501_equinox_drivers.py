# A driver function that makes arrays and hands them to equinox's filter_jit or filter_vmap:
# each array leaf is a tracer there, in a dict or a list too; Python values stay static.
import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(x):
    if x > 0:  # error: JAX501
        return x
    return -x


@eqx.filter_jit
def step_dict(batch, n):
    if n > 2:  # a Python int: kept static
        return batch["w"] * n
    return float(batch["w"])  # error: JAX503


def per_example(xs):
    return float(xs[0])  # error: JAX503


@eqx.filter_jit
def from_numbers(xs):
    if xs[0] > 0:  # a list of Python floats: kept static
        return xs[1]
    return xs[0]


@eqx.filter_jit
def overwritten(xs):
    if xs[0] > 0:  # the array was replaced by a Python float before the call
        return 1.0
    return 0.0


@eqx.filter_jit
def scaled_by(x, n):
    if n > 2:  # error: JAX501
        return x * 2
    return x


@eqx.filter_jit
def over_steps(x, ts):
    for t in ts:
        if t > 1:  # error: JAX501
            x = x * t
    return x


def train(raw):
    x = jnp.asarray(raw)
    step(x)
    step_dict({"w": jnp.ones(()), "b": jnp.zeros(())}, 3)
    eqx.filter_vmap(per_example)([jnp.ones(3), jnp.zeros(3)])
    from_numbers([1.0, 2.0])
    xs = [jnp.ones(())]
    xs[0] = 1.0
    overwritten(xs)
    args = [3]
    args[0] = jnp.array(3)  # an item stored as an array: traced when handed over
    scaled_by(jnp.ones(2), *args)
    ts = [2]
    ts.append(jnp.array(3.0))
    over_steps(jnp.ones(2), ts)


if __name__ == "__main__":
    import jax

    named = globals()  # the functions by name: what the calls pass stays out of the analysis above
    try:
        named["train"](1.0)
    except jax.errors.TracerBoolConversionError:
        pass
    else:
        raise AssertionError("train did not raise TracerBoolConversionError")
    ts = [2]
    ts.append(jnp.array(3.0))
    for hazard, error in [
        (lambda: named["step"](jnp.asarray(1.0)), jax.errors.TracerBoolConversionError),
        (lambda: named["step_dict"]({"w": jnp.ones(()), "b": jnp.zeros(())}, 1), jax.errors.ConcretizationTypeError),
        (lambda: eqx.filter_vmap(named["per_example"])([jnp.ones(3), jnp.zeros(3)]), jax.errors.ConcretizationTypeError),
        (lambda: named["scaled_by"](jnp.ones(2), jnp.array(3)), jax.errors.TracerBoolConversionError),
        (lambda: named["over_steps"](jnp.ones(2), ts), jax.errors.TracerBoolConversionError),
    ]:
        try:
            hazard()
        except error:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise {error.__name__}")
    assert named["step_dict"]({"w": jnp.ones(()), "b": jnp.zeros(())}, 3) == 3.0
    assert named["from_numbers"]([1.0, 2.0]) == 2.0
    assert named["overwritten"]([1.0]) == 1.0
    assert named["scaled_by"](jnp.ones(2), 3).tolist() == [2.0, 2.0]
    assert named["over_steps"](jnp.ones(2), [2, 3.0]).tolist() == [6.0, 6.0]
    print("ok")
