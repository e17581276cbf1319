# An equinox `Dropout` is in training mode unless told otherwise, and then needs the key of
# the call: without one, equinox raises `RuntimeError` ("Dropout requires a key when running
# in non-deterministic mode"). A rate of zero, `inference=True`, or a key are fine (measured
# with equinox beside JAX 0.10.2).
import equinox as eqx
import jax
import jax.numpy as jnp

x = jnp.ones(4)


class Head(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.linear = eqx.nn.Linear(4, 2, key=key)
        self.dropout = eqx.nn.Dropout(0.1)

    def __call__(self, x, key=None):
        return self.linear(self.dropout(x))  # error: JAX632


def inline():
    return eqx.nn.Dropout(p=0.3)(x)  # error: JAX632


def named():
    drop = eqx.nn.Dropout()
    return drop(x)  # error: JAX632


# near misses


class Keyed(eqx.Module):
    dropout: eqx.nn.Dropout

    def __init__(self):
        self.dropout = eqx.nn.Dropout(0.1)

    def __call__(self, x, key):
        return self.dropout(x, key=key)


def evaluating():
    return eqx.nn.Dropout(0.1, inference=True)(x), eqx.nn.Dropout(0.1)(x, inference=True)


def no_rate():
    return eqx.nn.Dropout(0.0)(x)


def unknown_rate(rate):
    return eqx.nn.Dropout(rate)(x)


class Dropout:
    """Not equinox's."""

    def __call__(self, x):
        return x


def own():
    return Dropout()(x)


if __name__ == "__main__":
    key = jax.random.key(0)
    Keyed()(x, key), evaluating(), no_rate(), unknown_rate(0.0), own()
    for failing in (lambda: Head(key)(x), inline, named):
        try:
            failing()
        except RuntimeError as error:
            assert "requires a key" in str(error), error
        else:
            raise AssertionError("expected RuntimeError")
    print("as labelled")
