"""The pre-commit hooks, run through the real `pre-commit` against a snapshot of this repository.

pre-commit installs a hook repository from git, so the working tree (tracked files and new files
not yet committed, minus ignored ones) is committed into a throwaway repository first: the hooks
under test are the code under test. Installing takes a few seconds (a virtualenv and
`pip install` of the snapshot; no jax), once per `try-repo` and once per PRE_COMMIT_HOME.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.integrations.hosts import run, write

pytestmark = pytest.mark.slow  # drives a real host as a subprocess

PRE_COMMIT = (sys.executable, "-m", "pre_commit")
FIXABLE = textwrap.dedent(
    """\
    import jax


    @jax.jit
    def step(x):
        print(x)
        return x * 2
    """
)


def git_env(home: Path) -> dict[str, str]:
    """A clean git identity and pre-commit's cache in ``home``; no inherited repository."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    identity = {"NAME": "jaxlint tests", "EMAIL": "tests@jaxlint.invalid"}
    for role in ("AUTHOR", "COMMITTER"):
        for key, value in identity.items():
            env[f"GIT_{role}_{key}"] = value
    env["PRE_COMMIT_HOME"] = str(home)
    return env


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """This repository's working tree committed into a throwaway repository: (path, commit)."""
    snapshot = tmp_path_factory.mktemp("jaxlint-hooks")
    env = git_env(snapshot / ".no-pre-commit-home")
    listed = run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT, env=env)
    assert listed.returncode == 0, listed.stderr
    for name in filter(None, listed.stdout.split("\0")):
        source = ROOT / name
        if source.is_file():
            (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, snapshot / name)
    for command in (("init", "-q"), ("add", "-A"), ("commit", "-q", "--no-verify", "-m", "snapshot")):
        result = run("git", *command, cwd=snapshot, env=env)
        assert result.returncode == 0, result.stderr
    head = run("git", "rev-parse", "HEAD", cwd=snapshot, env=env).stdout.strip()
    return snapshot, head


def user_repo(path: Path, hooks: tuple[Path, str], env: dict[str, str]) -> None:
    """A project with a fixable finding, the same in an excluded folder, and a pre-commit config."""
    repo, rev = hooks
    write(path, "model.py", FIXABLE)
    write(path, "generated/ops.py", FIXABLE)
    write(path, "pyproject.toml", '[tool.jaxlint]\nexclude = ["generated"]\n')
    config = f"repos:\n  - repo: {repo}\n    rev: {rev}\n    hooks:\n      - id: jaxlint-fix\n      - id: jaxlint\n"
    write(path, ".pre-commit-config.yaml", config)
    for command in (("init", "-q"), ("add", "-A")):
        assert run("git", *command, cwd=path, env=env).returncode == 0


def test_manifest_is_valid() -> None:
    result = run(*PRE_COMMIT, "validate-manifest", ".pre-commit-hooks.yaml", cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


def test_force_exclude_applies_exclude_to_named_files(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nexclude = ["generated"]\n')
    write(tmp_path, "generated/ops.py", FIXABLE)
    command = (sys.executable, "-m", "jaxlint", "check", "generated/ops.py")
    named = run(*command, cwd=tmp_path)
    assert named.returncode == 1 and "JAX101" in named.stdout  # named files are checked by default
    forced = run(*command, "--force-exclude", cwd=tmp_path)
    assert forced.returncode == 0, forced.stdout + forced.stderr
    assert "0 files checked" in forced.stdout


def test_check_fails_then_fix_hook_repairs_then_check_passes(
    hook_repo: tuple[Path, str], tmp_path: Path
) -> None:
    home, project = tmp_path / "pre-commit-home", tmp_path / "project"
    env = git_env(home)
    user_repo(project, hook_repo, env)
    repo, rev = hook_repo

    checked = run(
        *PRE_COMMIT,
        "try-repo",
        repo,
        "jaxlint",
        "--ref",
        rev,
        "--all-files",
        cwd=project,
        env=env,
        timeout=600,
    )
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "model.py:6:5: JAX101" in checked.stdout
    assert "ops.py" not in checked.stdout  # excluded in [tool.jaxlint], though pre-commit names it
    assert "print(x)" in (project / "model.py").read_text(encoding="utf-8")  # the check hook changes nothing

    fixed = run(*PRE_COMMIT, "run", "--all-files", cwd=project, env=env, timeout=600)
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr  # files were modified: the commit stops
    assert "files were modified by this hook" in fixed.stdout
    assert "jax.debug.print(" in (project / "model.py").read_text(encoding="utf-8")
    assert (project / "generated/ops.py").read_text(encoding="utf-8") == FIXABLE  # excluded: untouched

    again = run(*PRE_COMMIT, "run", "jaxlint", "--all-files", cwd=project, env=env, timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "Passed" in again.stdout
    assert not list(home.glob("repo*/py_env-*/lib/python*/site-packages/jax")), "jax in the hook environment"
    installed = home.glob("repo*/py_env-*/lib/python*/site-packages/jaxlint")
    (package,) = list(installed)  # a real (non-editable) install, as users get it
    assert (package / "rules" / "control_flow").is_dir() and (
        package / "hosts" / "lsp" / "server.py"
    ).is_file()
