"""A branch on a parameter that every traced call fixes with a constant runs, under tracing, only
as those calls decide: `helper(x, check=False)` never traces the checks under `if check:`."""

import functools

import jax

DEBUG = False


def checked(x, check=True):
    if check:
        assert x > 0  # ok: every traced call passes check=False
        print(x)  # ok
    return x


@jax.jit
def fast(x):
    return checked(x, check=False)


@jax.jit
def fast_positional(x):
    return checked(x, False) + checked(x, DEBUG)


def by_default(x, check=True):
    if check:
        assert x > 0  # error: JAX504 (the default is true)
    return x


@jax.jit
def uses_default(x):
    return by_default(x)


def either(x, check=True):
    if check:
        assert x > 0  # error: JAX504 (one traced call passes True)
    return x


@jax.jit
def first(x):
    return either(x, check=False)


@jax.jit
def second(x):
    return either(x, check=True)


def quiet_else(x, fast=True):
    if not fast:
        assert x > 0  # ok: fast is always True when traced
    else:
        print(x)  # error: JAX101 (this branch is the one that runs)
    return x


@jax.jit
def calls_quiet(x):
    return quiet_else(x)


def rebinds(x, check=False):
    check = not check
    if check:
        assert x > 0  # error: JAX504 (rebound: no longer the constant passed)
    return x


@jax.jit
def calls_rebinds(x):
    return rebinds(x, check=False)


def also_jitted(x, check=False):
    if check:
        assert x > 0  # error: JAX504 (jax.jit(also_jitted) traces it with any check)
    return x


@jax.jit
def calls_also_jitted(x):
    return also_jitted(x, check=False)


also_jitted_fast = jax.jit(also_jitted, static_argnames="check")


def with_partial(x, check=False):
    if check:
        assert x > 0  # error: JAX504 (the partial passes check=True)
    return x


@jax.jit
def calls_partial(x):
    return functools.partial(with_partial, check=True)(x)


class Layer:
    def check(self, x, validate=True):
        if validate:
            assert x > 0  # ok: the only traced call passes validate=False
        return x

    def forward(self, x):
        return self.check(x, validate=False)


forward = jax.jit(Layer().forward)


if __name__ == "__main__":
    import contextlib
    import io

    import jax.numpy as jnp

    fns = globals()  # the functions by name: what the calls pass stays out of the analysis above
    x = jnp.float32(1.0)
    for hazard in (
        lambda: fns["uses_default"](x),
        lambda: fns["second"](x),
        lambda: fns["calls_rebinds"](x),
        lambda: fns["also_jitted_fast"](x, check=True),
        lambda: fns["calls_partial"](x),
    ):
        try:
            hazard()
        except jax.errors.TracerBoolConversionError:
            pass
        else:
            raise AssertionError(f"{hazard} did not raise TracerBoolConversionError")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fns["calls_quiet"](x)
        fns["calls_quiet"](x)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and "Tracer" in lines[0], lines
    assert float(fns["fast"](x)) == 1.0
    assert float(fns["fast_positional"](x)) == 2.0
    assert float(fns["first"](x)) == 1.0
    assert float(fns["calls_also_jitted"](x)) == 1.0
    assert float(fns["also_jitted_fast"](x)) == 1.0
    assert float(fns["forward"](x)) == 1.0
    print("ok")
