"""``verify``: eager against compiled, JAX errors mapped to rules, JAX's checks, run-time probes."""

from __future__ import annotations

import types
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxlint_runtime import verify
from jaxlint_runtime.inputs import Inputs
from jaxlint_runtime.report import Report, render_json, render_text
from jaxlint_runtime.rulemap import attribute, rules_for_error
from jaxlint_runtime.verification import Options, verify_inputs

pytestmark = pytest.mark.slow  # runs JAX

UserModule = Callable[[str], types.ModuleType]


def kinds(report: Report) -> list[str]:
    return [finding.kind for finding in report.findings]


def line_of(module: types.ModuleType, text: str) -> int:
    with open(module.__file__ or "", encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def test_matching_function(user_module: UserModule) -> None:
    module = user_module(
        """
        import jax.numpy as jnp

        def layer(w, x):
            return jnp.tanh(x @ w)
        """
    )
    report = verify(module.layer, jnp.ones((3, 2)) * 0.1, jnp.arange(12.0).reshape(4, 3))
    assert report.ok and report.matched is True
    assert report.findings == [] and report.mismatches == []
    assert report.trace_count == 1
    timings = report.timings
    assert timings.trace_s and timings.lower_s and timings.compile_s and timings.eager_s
    backend = jax.default_backend()  # the GPU where there is one: eager and compiled both run there
    assert report.backend == backend and report.device == report.reference_device
    assert report.device.startswith(f"{backend}:0")
    assert report.gradient == "matched (2 inputs)"
    assert report.inputs == ["w: float32[3,2]", "x: float32[4,3]"]
    assert any("key reuse" in check for check in report.checks)
    assert any("tracer leaks" in check for check in report.checks)
    assert render_text(report).startswith("layer: MATCH")
    assert '"ok": true' in render_json(report)


def test_static_arguments_of_a_jitted_function_are_kept(user_module: UserModule) -> None:
    module = user_module(
        """
        from functools import partial
        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnames=("training",))
        def forward(x, training):
            if training:
                x = x * 0.5
            return jnp.tanh(x)
        """
    )
    assert verify(module.forward, jnp.ones(2), training=True).ok


def test_frozen_global_diverges_after_the_global_changes(user_module: UserModule) -> None:
    module = user_module(
        """
        import jax

        scale = 1.0

        def set_scale(value):
            global scale
            scale = value

        @jax.jit
        def apply_scale(x):
            return x * scale
        """
    )
    report = verify(module.apply_scale, jnp.arange(3.0))
    assert not report.ok and report.matched is False
    (finding,) = report.findings
    assert (finding.kind, finding.rule, finding.predicted) == ("stale-global", "JAX103", True)
    assert finding.line == line_of(module, "return x * scale")
    (mismatch,) = report.mismatches
    assert mismatch.path == "output (with scale = 3.0)"
    assert mismatch.max_abs_error == pytest.approx(4.0)
    assert module.scale == 1.0  # the probe restores the global


def test_a_global_that_never_changes_is_not_a_finding(user_module: UserModule) -> None:
    module = user_module(
        """
        import jax

        scale = 2.0

        @jax.jit
        def apply_scale(x):
            return x * scale
        """
    )
    assert verify(module.apply_scale, jnp.arange(3.0)).ok


def test_print_runs_only_while_tracing(user_module: UserModule) -> None:
    module = user_module(
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def normalize(x):
            norm = jnp.linalg.norm(x)
            print("norm:", norm)
            return x / norm

        @jax.jit
        def normalize_debug(x):
            norm = jnp.linalg.norm(x)
            jax.debug.print("norm: {}", norm)
            return x / norm
        """
    )
    report = verify(module.normalize, jnp.array([3.0, 4.0]))
    assert report.matched is True and not report.ok
    (finding,) = report.findings
    assert (finding.kind, finding.rule) == ("trace-time-side-effect", "JAX101")
    assert finding.line == line_of(module, 'print("norm:"')
    assert "norm: 5.0" in finding.message
    assert verify(module.normalize_debug, jnp.array([3.0, 4.0])).ok


def test_global_write_runs_only_while_tracing(user_module: UserModule) -> None:
    module = user_module(
        """
        import jax

        num_updates = 0

        @jax.jit
        def sgd_update(w, g):
            global num_updates
            num_updates += 1
            return w - 0.1 * g
        """
    )
    report = verify(module.sgd_update, jnp.ones(3), jnp.ones(3))
    (finding,) = report.findings
    assert (finding.kind, finding.rule) == ("trace-time-side-effect", "JAX104")
    assert "`num_updates`" in finding.message


def test_typed_key_reuse_raises_under_the_key_reuse_checker(user_module: UserModule) -> None:
    module = user_module(
        """
        import jax

        def init(key):
            w = jax.random.normal(key, (3, 2))
            b = jax.random.normal(key, (2,))
            return w, b
        """
    )
    report = verify(module.init, jax.random.key(0))
    assert not report.ok
    errors = [f for f in report.findings if f.kind == "error"]
    assert errors and "KeyReuseError" in errors[0].message
    assert all(f.rule == "JAX301" and f.line == line_of(module, "b = jax") for f in report.findings)


def test_legacy_keys_with_equal_values_are_found_by_value(user_module: UserModule) -> None:
    module = user_module(
        """
        import jax
        import jax.numpy as jnp

        def trajectories(x0):
            paths = []
            for _ in range(3):
                key = jax.random.PRNGKey(0)
                paths.append(x0 + jax.random.normal(key, x0.shape))
            return jnp.stack(paths)
        """
    )
    report = verify(module.trajectories, jnp.zeros(4))
    (finding,) = report.findings
    assert finding.kind == "key-reuse"
    assert (finding.rule, finding.line) == ("JAX303", line_of(module, "PRNGKey(0)"))
    assert report.matched is True  # the values agree: only the key tracking sees the hazard


def test_tracer_leak_is_caught_and_mapped(user_module: UserModule) -> None:
    module = user_module(
        """
        import jax

        history = []

        @jax.jit
        def step(w):
            history.append(w)
            return w * 2
        """
    )
    report = verify(module.step, jnp.ones(2))
    finding = report.findings[0]
    assert "Leaked trace" in finding.message and finding.stage == "trace"
    assert (finding.rule, finding.line) == ("JAX104", line_of(module, "history.append"))


TRACING_ERRORS = {
    "branch": ("if x.sum() > 0:\n        return x\n    return -x", "if x.sum()", "JAX501", "TracerBool"),
    "range": ("for _ in range(n):\n        x = x * 2\n    return x", "for _ in", "JAX502", "TracerInteger"),
    "int": ("i = int(jnp.argmax(x))\n    return x[i]", "i = int", "JAX503", "Concretization"),
    "mask": ("return x[x > 0].sum()", "return x[x", "JAX401", "NonConcreteBooleanIndex"),
    "setitem": ("x[0] = 1.0\n    return x", "x[0] = 1.0", "JAX201", "immutable"),
    "nonzero": ("return jnp.nonzero(x > 0)[0]", "nonzero", "JAX402", "Concretization"),
    "shape": ("return jnp.zeros(n)", "zeros(n)", "JAX403", "Shapes must be"),
}


@pytest.mark.parametrize("case", sorted(TRACING_ERRORS))
def test_tracing_errors_are_mapped_to_the_rule_and_line(user_module: UserModule, case: str) -> None:
    body, marker, code, error = TRACING_ERRORS[case]
    module = user_module(f"import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef f(x, n):\n    {body}\n")
    report = verify(module.f, jnp.array([1.0, -2.0, 3.0]), 3)
    assert report.matched is None and not report.ok
    finding = report.findings[-1]
    assert finding.stage == "trace" and error in finding.message
    assert (finding.rule, finding.predicted) == (code, True)
    assert (finding.path, finding.line) == (module.__file__, line_of(module, marker))


def test_an_error_jaxlint_does_not_predict_falls_back_to_the_table(tmp_path: pytest.TempPathFactory) -> None:
    try:
        jax.jit(lambda x: bool(x))(1.0)
    except Exception as error:  # a real TracerBoolConversionError
        rules = rules_for_error(error)
    assert rules[0] == "JAX501"
    attribution = attribute(rules, (__file__, 1), None)
    assert (attribution.rule, attribution.predicted, attribution.line) == ("JAX501", False, 1)
    assert rules_for_error(TypeError("JAX arrays are immutable and do not support ...")) == (
        "JAX201",
        "JAX202",
    )
    assert rules_for_error(Exception("Leaked trace DynamicJaxprTrace")) == ("JAX104",)
    assert rules_for_error(ValueError("something else")) == ()


def test_user_errors_unrelated_to_jax_are_reported_without_a_rule(user_module: UserModule) -> None:
    module = user_module(
        """
        def f(x):
            raise ValueError("bad input")
        """
    )
    report = verify(module.f, jnp.ones(2))
    (finding,) = report.findings
    assert finding.rule is None and "ValueError: bad input" in finding.message
    assert finding.line == line_of(module, "raise ValueError")


def test_python_state_read_at_trace_time_shows_as_a_value_mismatch(user_module: UserModule) -> None:
    module = user_module(
        """
        import jax
        import numpy as np

        @jax.jit
        def add_noise(x):
            return x + np.random.normal(size=x.shape).astype(np.float32)

        def add_noise_unjitted(x):
            return x + np.random.normal(size=x.shape).astype(np.float32)
        """
    )
    report = verify(module.add_noise, jnp.zeros(4))
    assert report.matched is False
    assert report.mismatches[0].path == "output"
    (finding,) = report.findings
    assert (finding.kind, finding.rule, finding.line) == ("mismatch", "JAX105", line_of(module, "return x +"))
    assert "repeats on every call" in finding.message
    unexplained = verify(module.add_noise_unjitted, jnp.zeros(4))
    assert unexplained.matched is False and unexplained.findings == []


def test_nan_checks_on_request(user_module: UserModule) -> None:
    module = user_module(
        """
        import jax.numpy as jnp

        def log(x):
            return jnp.log(x)
        """
    )
    assert verify(module.log, jnp.array([-1.0, 2.0])).ok  # NaN in both: they agree
    report = verify(module.log, jnp.array([-1.0, 2.0]), check_nans=True)
    assert not report.ok
    assert any("FloatingPointError" in finding.message for finding in report.findings)
    assert any("NaNs" in check for check in report.checks)


def test_a_static_argument_that_compares_by_identity_retraces(user_module: UserModule) -> None:
    module = user_module(
        """
        from dataclasses import dataclass

        class Config:
            factor = 2.0

        @dataclass(frozen=True)
        class FrozenConfig:
            factor: float = 2.0

        def scaled(x, config):
            return x * config.factor
        """
    )
    report = verify(module.scaled, jnp.ones(2), module.Config(), static_argnums=1)
    assert not report.ok and kinds(report) == ["retrace"]
    assert report.trace_count == 2
    assert "static argument 1 compares by identity" in report.findings[0].message
    frozen = verify(module.scaled, jnp.ones(2), config=module.FrozenConfig(), static_argnames="config")
    assert frozen.ok and frozen.findings == [] and frozen.trace_count == 1


def test_jit_created_on_every_call_is_a_warning(user_module: UserModule) -> None:
    module = user_module(
        """
        import jax

        def train(w, xs):
            for x in xs:
                step = jax.jit(lambda p: p - 0.1 * x * p)
                w = step(w)
            return w
        """
    )
    report = verify(module.train, jnp.ones(3), [jnp.ones(3), 2 * jnp.ones(3)])
    assert report.ok  # a warning does not fail the verification
    (finding,) = report.findings
    assert (finding.kind, finding.severity) == ("recompilation", "warning")
    assert "2 compilations" in finding.message


def test_unrolled_loop_is_a_warning() -> None:
    def decay(x):
        for _ in range(30):
            x = x * 0.9 + 0.1
        return x

    report = verify_inputs(decay, Inputs((jnp.ones(3),)), Options(max_equations=50))
    assert report.ok and kinds(report) == ["large-program"]
    assert "60 operations" in report.findings[0].message


def test_nan_gradient_of_a_where_rewrite_is_a_warning(user_module: UserModule) -> None:
    module = user_module(
        """
        import jax.numpy as jnp

        def safe_sqrt(x):
            return jnp.where(x > 0, jnp.sqrt(x), 0.0)
        """
    )
    report = verify(module.safe_sqrt, jnp.array([-1.0, 4.0]))
    assert report.ok and kinds(report) == ["nan-gradient"]


def test_gradients_are_skipped_without_floating_inputs(user_module: UserModule) -> None:
    module = user_module(
        """
        def count(x):
            return (x > 1).sum()
        """
    )
    report = verify(module.count, jnp.array([1, 2, 3]))
    assert report.ok and report.gradient.startswith("skipped")


def test_the_reference_can_be_pinned_to_the_cpu(user_module: UserModule) -> None:
    module = user_module("def f(x):\n    return x * 2\n")
    report = verify(module.f, np.ones(3, np.float32), reference_device="cpu")
    assert report.ok and report.reference_device == "cpu:0"
