# equinox's filter_jit traces every array its caller passes, NumPy arrays and NumPy scalars
# included (`eqx.is_array`); Python numbers stay static (measured with equinox 0.13).
import equinox as eqx
import jax.numpy as jnp
import numpy as np


@eqx.filter_jit
def scaled(x, scale):
    if scale > 1:  # error: JAX501
        return x * scale
    return x


@eqx.filter_jit
def shifted(x, offset):
    if offset.sum() > 0:  # error: JAX501
        return x + offset
    return x


@eqx.filter_jit
def repeated(x, n):
    if n > 1:  # a Python int: static
        return x * n
    return x


@eqx.filter_jit
def drawn(x, noise):
    if noise > 0:  # `np.random.normal()` with no size is a Python float: static
        return x + noise
    return x


@eqx.filter_jit
def weighted(x, w):
    return x * w  # traced, and only computed with


def main():
    x = jnp.ones(3)
    return (
        scaled(x, np.float32(2.0)),
        shifted(x, np.zeros(3)),
        repeated(x, 2),
        drawn(x, np.random.normal()),
        weighted(x, np.array(0.5)),
    )


if __name__ == "__main__":
    import jax

    try:
        main()
    except jax.errors.TracerBoolConversionError:
        pass
    else:
        raise AssertionError("main() did not raise TracerBoolConversionError")
    x = jnp.ones(3)
    for hazard in (lambda: scaled(x, np.float32(2.0)), lambda: shifted(x, np.zeros(3))):
        try:
            hazard()
        except jax.errors.TracerBoolConversionError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TracerBoolConversionError")
    assert repeated(x, 2).tolist() == [2.0] * 3
    assert drawn(x, 0.5).tolist() == [1.5] * 3
    assert drawn(x, np.random.normal()).shape == (3,)
    assert weighted(x, np.array(0.5)).tolist() == [0.5] * 3
    print("ok")
