"""Compare gradients: eager ``jax.grad`` of the reference against the compiled gradient.

The scalar differentiated is a fixed weighted sum of every floating-point output leaf; the
gradient is taken with respect to every floating-point array input. A rewrite such as
``jnp.where(x > 0, jnp.sqrt(x), 0.0)`` keeps the values but turns gradients into NaN: this is
where it shows.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from jaxlint_runtime.checks import Checks, block, captured_stdout
from jaxlint_runtime.comparison import compare_leaf
from jaxlint_runtime.execution import Device, Target, fresh_copies, place
from jaxlint_runtime.report import WARNING, Finding, LeafMismatch
from jaxlint_runtime.rulemap import describe_error, error_finding


@dataclass
class GradientResult:
    status: str
    mismatches: list[LeafMismatch] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


@dataclass
class Sides:
    """The functions and devices of the two sides: reference (eager) and actual (compiled)."""

    reference: Target
    actual: Target
    reference_device: Device
    device: Device


@dataclass
class _Split:
    """Inputs flattened and split into differentiable leaves, other traced leaves and static ones."""

    leaves: list[Any]
    treedef: Any
    labels: list[str]
    differentiable: list[int]
    other: list[int]

    def rebuild(self, differentiable: list[Any], other: list[Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        leaves = list(self.leaves)
        for index, value in zip(self.differentiable, differentiable):
            leaves[index] = value
        for index, value in zip(self.other, other):
            leaves[index] = value
        args, kwargs = jax.tree_util.tree_unflatten(self.treedef, leaves)
        return tuple(args), kwargs


def compare_gradients(
    sides: Sides,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    outputs: Any,
    checks: Checks,
    tolerance: dict[str, Any],
) -> GradientResult:
    """Gradients of both sides, compared leaf by leaf, or why they were not compared."""
    if not _floating_leaves(outputs):
        return GradientResult("skipped: no floating-point outputs")
    split = _split_inputs(sides.actual, args, kwargs)
    if not split.differentiable:
        return GradientResult("skipped: no floating-point array inputs")
    reference = _eager_gradient(sides, split, checks)
    if isinstance(reference, Exception):
        return GradientResult(f"skipped: the eager gradient raised {describe_error(reference)}")
    actual = _compiled_gradient(sides, split, checks)
    if isinstance(actual, Exception):
        finding = error_finding(actual, "gradient", sides.actual.span)
        return GradientResult("failed: the compiled gradient raised", findings=[finding])
    return _judge(split, reference, actual, outputs, tolerance)


def _judge(
    split: _Split, reference: list[Any], actual: list[Any], outputs: Any, tolerance: dict[str, Any]
) -> GradientResult:
    mismatches = []
    for index, expected, got in zip(split.differentiable, reference, actual):
        where = f"gradient wrt {split.labels[index]}"
        found = compare_leaf(where, expected, got, values=True, **tolerance)
        if found is not None:
            mismatches.append(found)
    count = len(split.differentiable)
    noun = f"{count} input{'s' * (count != 1)}"
    result = GradientResult(f"{'mismatched' if mismatches else 'matched'} ({noun})", mismatches)
    nonfinite = [split.labels[i] for i, g in zip(split.differentiable, actual) if not _finite(g)]
    if nonfinite and all(_finite(leaf) for leaf in _floating_leaves(outputs)):
        result.findings.append(_nan_gradient(nonfinite))
    return result


def _nan_gradient(labels: list[str]) -> Finding:
    return Finding(
        kind="nan-gradient",
        severity=WARNING,
        stage="gradient",
        message=(
            f"the gradient wrt {', '.join(labels)} holds NaN or inf although every output is finite: "
            "a `jnp.where` branch that is not selected still poisons reverse-mode gradients "
            "(make the unselected branch safe: the double-where trick)"
        ),
    )


def _eager_gradient(sides: Sides, split: _Split, checks: Checks) -> list[Any] | Exception:
    loss = _loss(sides.reference.function, split)
    differentiable, other = _parts(split, sides.reference_device)
    try:
        with (
            captured_stdout(),
            checks.enabled(eager=True),
            jax.default_device(sides.reference_device),
            jax.disable_jit(),
        ):
            return list(block(jax.grad(loss)(differentiable, other)))  # pyright: ignore[reportArgumentType]
    except Exception as error:
        return error


def _compiled_gradient(sides: Sides, split: _Split, checks: Checks) -> list[Any] | Exception:
    gradient = jax.jit(jax.grad(_loss(sides.actual.function, split)))
    differentiable, other = _parts(split, sides.device)
    try:
        with captured_stdout(), checks.enabled():
            return list(block(gradient(differentiable, other)))  # pyright: ignore[reportArgumentType]
    except Exception as error:
        return error


def _parts(split: _Split, device: Device) -> tuple[list[Any], list[Any]]:
    differentiable = [split.leaves[i] for i in split.differentiable]
    other = [split.leaves[i] for i in split.other]
    return fresh_copies(place(differentiable, device)), fresh_copies(place(other, device))


def _loss(function: Callable[..., Any], split: _Split) -> Callable[[list[Any], list[Any]], Any]:
    def loss(differentiable: list[Any], other: list[Any]) -> Any:
        args, kwargs = split.rebuild(differentiable, other)
        leaves = _floating_leaves(function(*args, **kwargs))
        total = jnp.float32(0.0)
        for index, leaf in enumerate(leaves):
            weights = np.random.default_rng(index).uniform(0.5, 1.5, np.shape(leaf))
            wide = jnp.promote_types(jnp.result_type(leaf), jnp.float32)
            total = total + jnp.sum(jnp.real(jnp.asarray(leaf, wide)) * weights.astype(wide))
        return total

    return loss


def _split_inputs(target: Target, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _Split:
    with_paths, treedef = jax.tree_util.tree_flatten_with_path((list(args), dict(kwargs)))
    names = _parameter_names(target.function)
    split = _Split([leaf for _, leaf in with_paths], treedef, [], [], [])
    for index, (path, leaf) in enumerate(with_paths):
        position, name = _top_level(path)
        split.labels.append(_label(path, position, name, names))
        if target.is_static(position, name):
            continue
        (split.differentiable if _differentiable(leaf) else split.other).append(index)
    return split


def _top_level(path: tuple[Any, ...]) -> tuple[int | None, str | None]:
    container, key = path[0], path[1]
    if getattr(container, "idx", None) == 0:
        return getattr(key, "idx", None), None
    return None, getattr(key, "key", None)


def _label(path: tuple[Any, ...], position: int | None, name: str | None, names: list[str]) -> str:
    if position is not None:
        name = names[position] if position < len(names) else f"args[{position}]"
    return f"{name}{jax.tree_util.keystr(tuple(path[2:]))}"


def _parameter_names(function: Callable[..., Any]) -> list[str]:
    try:
        return list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return []


def _differentiable(leaf: Any) -> bool:
    if not isinstance(leaf, jax.Array | np.ndarray):
        return False
    return jnp.issubdtype(leaf.dtype, jnp.floating)


def _floating_leaves(tree: Any) -> list[Any]:
    return [
        leaf
        for leaf in jax.tree_util.tree_leaves(tree)
        if (hasattr(leaf, "dtype") and jnp.issubdtype(leaf.dtype, jnp.floating)) or isinstance(leaf, float)
    ]


def _finite(leaf: Any) -> bool:
    return bool(np.all(np.isfinite(np.asarray(leaf, dtype=np.float64))))
