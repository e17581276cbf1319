"""Inputs: synthesised from jaxtyping-style and plain annotations, or made by a factory."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jaxtyping import Array, Bool, Float, Int, Key, PRNGKeyArray

from jaxlint_runtime.checks import is_typed_key
from jaxlint_runtime.inputs import InputError, Inputs, as_inputs, call_factory, describe, synthesise

pytestmark = pytest.mark.slow  # runs JAX


def layer(w: Float[Array, "n m"], x: Float[Array, "b n"], mask: Bool[Array, "b"], key: PRNGKeyArray):
    return w, x, mask, key


def layer_as_strings(w: "Float[Array, 'n m']", x: "Float[jax.Array, 'b n']", ids: "Int[Array, 'b']"):
    return w, x, ids


def test_named_dimensions_are_consistent_across_parameters() -> None:
    inputs = synthesise(layer)
    w, x, mask, key = inputs.args
    assert w.shape == (3, 4) and x.shape == (5, 3) and mask.shape == (5,)
    assert w.dtype == jnp.float32 and mask.dtype == jnp.bool_
    assert is_typed_key(key) and key.shape == ()
    assert inputs.synthesised


def test_string_annotations_work_without_importing_jaxtyping() -> None:
    w, x, ids = synthesise(layer_as_strings).args
    assert (w.shape, x.shape, ids.shape) == ((3, 4), (5, 3), (5,))
    assert ids.dtype == jnp.int32 and int(ids.min()) >= 0 and int(ids.max()) < 3


def test_the_seed_decides_the_values() -> None:
    first, again, other = synthesise(layer, seed=1), synthesise(layer, seed=1), synthesise(layer, seed=2)
    assert np.array_equal(first.args[0], again.args[0])
    assert not np.array_equal(first.args[0], other.args[0])


def test_dimension_sizes_can_be_chosen() -> None:
    w, x, *_ = synthesise(layer, dims={"n": 7}).args
    assert w.shape == (7, 3) and x.shape == (4, 7)


def test_plain_hints_defaults_and_keyword_only_parameters() -> None:
    def f(x: jax.Array, scale: float, steps: int, rng: jax.Array, *, flag: bool, bias: float = 0.5):
        return x

    inputs = synthesise(f)
    x, scale, steps, rng = inputs.args
    assert x.shape == (4,) and x.dtype == jnp.float32
    assert isinstance(scale, float) and steps == 2 and is_typed_key(rng)
    assert inputs.kwargs == {"flag": True}


def test_other_dimension_forms() -> None:
    def f(
        a: Float[Array, "*batch n"],
        b: Float[Array, "n+1 2"],
        c: Float[Array, "#n _"],
        d: Key[Array, "n"],
        e: Float[Array, "n"] | None,
        f: "np.ndarray",
    ):
        return a

    a, b, c, d, e, f_ = synthesise(f).args
    assert a.shape == (3,) and b.shape == (4, 2) and c.shape == (3, 2)
    assert is_typed_key(d) and d.shape == (3,)
    assert e.shape == (3,)
    assert isinstance(f_, np.ndarray)


def test_unannotated_parameter_is_a_one_line_error() -> None:
    def f(x, y: float):
        return x

    with pytest.raises(InputError, match=r"parameter `x` of .*f`: it has no type annotation"):
        synthesise(f)


def test_unsupported_annotation_is_an_error() -> None:
    def f(x: dict):
        return x

    with pytest.raises(InputError, match="cannot synthesise an input for `x`"):
        synthesise(f)


def test_factories_and_their_results() -> None:
    assert call_factory(lambda: (1, 2), seed=0).args == (1, 2)
    assert call_factory(lambda seed: [seed], seed=7).args == (7,)
    made = call_factory(lambda: Inputs((1,), {"k": 2}), seed=0)
    assert (made.args, made.kwargs) == ((1,), {"k": 2})
    with pytest.raises(InputError, match="must return a tuple"):
        as_inputs({"x": 1})


def test_descriptions_for_the_report() -> None:
    def f(x, n, params):
        return x

    inputs = Inputs((jnp.ones((2, 3)), 4), {"params": {"w": jnp.ones(2), "b": jnp.zeros(2)}})
    assert describe(f, inputs) == ["x: float32[2,3]", "n: 4", "params: dict of 2 leaves"]
