"""``jaxlint verify`` as users run it: a subprocess, user code in a worker, exit codes 0/1/2."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs JAX

MODEL = """\
from __future__ import annotations

import os
import signal

import jax
import jax.numpy as jnp
import numpy as np
from jaxtyping import Array, Float

scale = 1.0


def set_scale(value):
    global scale
    scale = value


def layer(w: Float[Array, "n m"], x: Float[Array, "b n"]):
    return jnp.tanh(x @ w)


@jax.jit
def apply_scale(x: Float[Array, "n"]):
    return x * scale


@jax.jit
def relu_or_leak(x: Float[Array, "n"]):
    if x.sum() > 0:
        return x
    return 0.01 * x


def relu_fixed(x: Float[Array, "n"]):
    return jnp.where(x.sum() > 0, x, 0.01 * x)


def untyped(x):
    return x


def hang(x: float):
    while True:
        pass


def exhaust_memory(x: float):
    return np.ones((10**7, 10**7))


def grow_memory(x: float):
    hoard = []
    while True:
        hoard.append(b"x" * 50 * 2**20)


def get_killed(x: float):
    os.kill(os.getpid(), signal.SIGKILL)


def start_a_daemon(x: float):
    import subprocess, sys
    code = "import time; time.sleep(120)"
    subprocess.Popen([sys.executable, "-c", code], start_new_session=True)  # holds inherited stderr
    return x


def hang_with_a_daemon(x: float):
    start_a_daemon(x)
    while True:
        pass


def inputs(seed):
    return (jnp.ones((3, 2)) * seed, jnp.ones((5, 3)))


def relu_bad(x: Float[Array, "n"]):
    return jnp.maximum(x, 0.0)
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "model.py").write_text(MODEL, encoding="utf-8")
    (tmp_path / "factories.py").write_text("def broken():\n    return {'x': 1}\n", encoding="utf-8")
    return tmp_path


def verify(
    project: Path, jaxlint_cmd: list[str], *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*jaxlint_cmd, "verify", *args],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env=env,
    )


def test_matching_function_exits_zero(project: Path, jaxlint_cmd: list[str]) -> None:
    result = verify(project, jaxlint_cmd, "model.py::layer")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("layer: MATCH")
    assert "inputs:    w: float32[3,4], x: float32[5,3]" in result.stdout
    assert "compile:   trace " in result.stdout and "traced once" in result.stdout


def test_frozen_global_exits_one(project: Path, jaxlint_cmd: list[str]) -> None:
    result = verify(project, jaxlint_cmd, "model.py::apply_scale")
    assert result.returncode == 1
    assert result.stdout.startswith("apply_scale: MISMATCH")
    assert "model.py:25: JAX103 (stale-global-in-traced-function, flagged by jaxlint)" in result.stdout


def test_json_output_maps_the_tracing_error_to_its_rule(project: Path, jaxlint_cmd: list[str]) -> None:
    result = verify(project, jaxlint_cmd, "model.py::relu_or_leak", "--output-format", "json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False and report["matched"] is None
    (finding,) = report["findings"]
    assert (finding["rule"], finding["line"], finding["stage"]) == ("JAX501", 30, "trace")
    assert finding["path"].endswith("model.py") and finding["predicted"] is True
    from jax import default_backend

    backend = default_backend()  # the worker runs on the GPU where there is one
    assert report["backend"] == backend and report["device"].startswith(f"{backend}:0")


def test_inputs_from_a_factory(project: Path, jaxlint_cmd: list[str]) -> None:
    by_module = verify(project, jaxlint_cmd, "model.py::layer", "--inputs", "model:inputs", "--seed", "2")
    assert by_module.returncode == 0, by_module.stderr
    assert "w: float32[3,2], x: float32[5,3]" in by_module.stdout
    by_path = verify(project, jaxlint_cmd, "model.py::layer", "--inputs", "model.py:inputs")
    assert by_path.returncode == 0, by_path.stderr


def test_compare_a_fixed_function(project: Path, jaxlint_cmd: list[str]) -> None:
    good = verify(project, jaxlint_cmd, "model.py::relu_or_leak", "--fixed", "model.py::relu_fixed")
    assert good.returncode == 0, good.stdout
    assert good.stdout.startswith("relu_fixed: MATCH")
    bad = verify(
        project, jaxlint_cmd, "model.py::relu_or_leak", "--fixed", "model.py::relu_bad", "--seed", "4"
    )
    assert bad.returncode == 1
    assert bad.stdout.startswith("relu_bad: MISMATCH")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.py::f"], "no such file: missing.py"),
        (["model.py"], "must look like path/to/file.py::function"),
        (["model.py::nowhere"], "model.py has no `nowhere`"),
        (["model.py::untyped"], "parameter `x` of `untyped`: it has no type annotation"),
        (["model.py::layer", "--inputs", "model:absent"], "model has no `absent`"),
        (["model.py::layer", "--inputs", "nomodule:f"], "no module named `nomodule`"),
        (["model.py::layer", "--inputs", "factories:broken"], "must return a tuple"),
        (["model.py::layer", "--dim", "n"], "--dim expects NAME=SIZE"),
        (["model.py::layer", "--static-argnums", "x"], "expected comma-separated integers"),
        (["model.py::layer", "--reference-device", "abacus"], "invalid choice"),
        (["model.py::layer", "--reference-device", "tpu"], "no tpu device is available"),
        (["model.py::layer", "--timeout", "0"], "--timeout must be positive"),
        (["model.py::layer", "--memory-limit", "0"], "--memory-limit must be a positive number of MiB"),
    ],
)
def test_usage_errors_are_one_line_and_exit_two(
    project: Path, jaxlint_cmd: list[str], args: list[str], message: str
) -> None:
    result = verify(project, jaxlint_cmd, *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("jaxlint: error: ")
    assert message in result.stderr


def test_a_module_inside_a_package_keeps_its_relative_imports(project: Path, jaxlint_cmd: list[str]) -> None:
    package = project / "src" / "mypkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "helpers.py").write_text("def twice(x):\n    return 2 * x\n")
    (package / "model.py").write_text(
        "from jaxtyping import Array, Float\n\nfrom .helpers import twice\n\n\n"
        'def f(x: Float[Array, "n"]):\n    return twice(x)\n'
    )
    result = verify(project, jaxlint_cmd, "src/mypkg/model.py::f")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("f: MATCH")


def test_user_code_that_raises_on_import_gives_a_report(project: Path, jaxlint_cmd: list[str]) -> None:
    (project / "broken.py").write_text("import jax\n\nx = 1 / 0\n\n\ndef f(y: float):\n    return y\n")
    result = verify(project, jaxlint_cmd, "broken.py::f")
    assert result.returncode == 1
    assert "raised while importing the module: ZeroDivisionError" in result.stdout
    assert "broken.py:3" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_a_hang_times_out_into_a_report(project: Path, jaxlint_cmd: list[str]) -> None:
    result = verify(project, jaxlint_cmd, "model.py::hang", "--timeout", "4")
    assert result.returncode == 1
    assert "did not finish within 4 s" in result.stdout


def test_a_background_process_neither_holds_the_verification_nor_leaves_files(
    project: Path, jaxlint_cmd: list[str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A function that starts a detached process (which keeps the worker's stderr open): the
    verification ends when the function does, the timeout still holds, the temp folder goes."""
    scratch = tmp_path_factory.mktemp("tmp")
    env = {**os.environ, "TMPDIR": str(scratch)}
    started = time.monotonic()
    done = verify(project, jaxlint_cmd, "model.py::start_a_daemon", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    hung = verify(project, jaxlint_cmd, "model.py::hang_with_a_daemon", "--timeout", "4", env=env)
    assert "did not finish within 4 s" in hung.stdout
    assert time.monotonic() - started < 90  # not the daemons' 120 s
    assert not list(scratch.glob("jaxlint-verify-*"))


def test_running_out_of_memory_gives_a_report(project: Path, jaxlint_cmd: list[str]) -> None:
    result = verify(project, jaxlint_cmd, "model.py::exhaust_memory", "--output-format", "json")
    assert result.returncode == 1
    kinds = {finding["kind"] for finding in json.loads(result.stdout)["findings"]}
    assert kinds == {"out-of-memory"}


def test_a_memory_limit_stops_the_run_with_a_report(project: Path, jaxlint_cmd: list[str]) -> None:
    result = verify(
        project, jaxlint_cmd, "model.py::grow_memory", "--memory-limit", "1500", "--timeout", "120"
    )
    assert result.returncode == 1
    assert "used more than the memory limit (1500 MiB resident) and was stopped" in result.stdout


def test_a_killed_worker_gives_a_report(project: Path, jaxlint_cmd: list[str]) -> None:
    result = verify(project, jaxlint_cmd, "model.py::get_killed")
    assert result.returncode == 1
    assert "killed by signal 9 (SIGKILL, often the out-of-memory killer)" in result.stdout


def test_help_lists_the_options(project: Path, jaxlint_cmd: list[str]) -> None:
    result = verify(project, jaxlint_cmd, "--help")
    assert result.returncode == 0
    assert "--inputs MODULE:FACTORY" in result.stdout and "This executes your code" in result.stdout
    top = subprocess.run([*jaxlint_cmd, "--help"], capture_output=True, text=True, check=False)
    assert "verify" in top.stdout


def test_the_worker_protocol_answers_usage_errors(tmp_path: Path) -> None:
    from jaxlint_runtime.isolation import run_worker

    request = {"mode": "verify", "target": f"{tmp_path}/none.py::f", "options": {}}
    result = run_worker(request, timeout=120)
    assert result.data == {"usage_error": f"no such file: {tmp_path}/none.py"}


def test_text_report_is_stable() -> None:
    from jaxlint_runtime.report import Finding, LeafMismatch, Report, render_text

    report = Report(
        function="f",
        matched=False,
        mismatches=[LeafMismatch("output['w']", "value", "max abs error 1", 1.0, 0.5)],
        findings=[
            Finding(
                "stale-global", "`f`: reads global `s`", rule="JAX103", rule_name="stale", path="m.py", line=3
            )
        ],
        device="gpu:0 (NVIDIA H200)",
        reference_device="cpu:0",
        gradient="matched (1 input)",
    )
    assert render_text(report) == textwrap.dedent(
        """\
        f: MISMATCH (1 difference)
          devices:   eager on cpu:0, compiled on gpu:0 (NVIDIA H200)
          gradients: matched (1 input)
          mismatch output['w']: max abs error 1
          error: m.py:3: JAX103 (stale): `f`: reads global `s`
        """
    )
    assert Report.from_dict(report.to_dict()) == report
