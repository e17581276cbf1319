"""Never lose a user's edit, never hang: ``--fix`` writes only over the file it read (same place,
same bytes), and a FIFO, socket or device named ``*.py`` is skipped, not opened."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import jaxlint.fixing.applier as applier
from jaxlint.hosts.cli import main

BUGGY = "import jax\n\n\n@jax.jit\ndef step(x):\n    print(x)\n    return x\n"
USER_EDIT = "# a line the user saved while jaxlint was fixing\n"


def edit_during_fix(monkeypatch: pytest.MonkeyPatch, meddle) -> None:
    """Run ``meddle()`` after the fix is computed and before it is written."""
    real = applier.fix_source

    def fix_then_meddle(*args, **kwargs):
        result = real(*args, **kwargs)
        meddle()
        return result

    monkeypatch.setattr("jaxlint.fixing.applier.fix_source", fix_then_meddle)


def test_an_edit_made_while_fixing_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "model.py"
    path.write_text(BUGGY)
    edit_during_fix(monkeypatch, lambda: path.write_text(BUGGY + USER_EDIT))
    main(["check", "--no-cache", "--fix", str(path)])
    assert path.read_text() == BUGGY + USER_EDIT  # the user's line is there, and not overwritten
    assert "changed while jaxlint was fixing it" in capsys.readouterr().err


def test_a_symlink_swapped_in_while_fixing_is_not_written_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "model.py"
    victim = tmp_path / "victim.txt"
    path.write_text(BUGGY)
    victim.write_text("precious\n")

    def swap() -> None:
        path.unlink()
        path.symlink_to(victim)

    edit_during_fix(monkeypatch, swap)
    main(["check", "--no-cache", "--fix", str(path)])
    assert victim.read_text() == "precious\n"
    assert path.is_symlink()
    assert "no longer the file that was read" in capsys.readouterr().err


def test_an_unchanged_file_is_still_fixed(tmp_path: Path) -> None:
    path = tmp_path / "model.py"
    path.write_text(BUGGY)
    os.chmod(path, 0o640)
    main(["check", "--no-cache", "--fix", str(path)])
    assert "jax.debug.print" in path.read_text()
    assert oct(os.stat(path).st_mode & 0o777) == oct(0o640)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("named", [False, True])
def test_a_fifo_named_like_python_is_skipped_not_opened(tmp_path: Path, named: bool) -> None:
    (tmp_path / "ok.py").write_text(BUGGY)
    os.mkfifo(tmp_path / "a.py")
    target = str(tmp_path / "a.py") if named else str(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "jaxlint", "check", "--fix", target],  # the cache keys files too
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,  # before the fix, this hung forever
    )
    assert "not a regular file" in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file systems refuse names that are not UTF-8")
def test_a_file_name_that_is_not_utf8_is_reported_in_sarif(tmp_path: Path) -> None:
    name = os.fsdecode(b"n\xffame.py")
    (tmp_path / name).write_text(BUGGY)
    result = subprocess.run(
        [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--output-format", "sarif", "."],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert '"uri": "n%FFame.py"' in result.stdout


@pytest.mark.slow
def test_a_terminal_that_cannot_show_a_path_gets_it_escaped(tmp_path: Path) -> None:
    (tmp_path / "dé").mkdir()
    (tmp_path / "dé" / "m.py").write_text(BUGGY)
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    result = subprocess.run(
        [sys.executable, "-m", "jaxlint", "check", "--no-cache", "dé"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        encoding="ascii",
        errors="replace",
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "d\\xe9" in result.stdout and "JAX101" in result.stdout


BUGGY_PRINT = "import jax\n\n\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n"


@pytest.mark.parametrize(
    "spelling",
    [
        '[ tool.jaxlint ]\nignore = ["JAX101"]\n',
        '["tool".jaxlint]\nignore = ["JAX101"]\n',
        '[tool]\njaxlint.ignore = ["JAX101"]\n',
        'tool = { jaxlint = { ignore = ["JAX101"] } }\n',
    ],
)
def test_every_toml_spelling_of_the_table_is_read(
    tmp_path: Path, spelling: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pyproject.toml").write_text(spelling)
    (tmp_path / "m.py").write_text(BUGGY_PRINT)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--no-cache", "m.py"]) == 0, capsys.readouterr().out


def test_a_deep_expression_inside_traced_code_is_analysed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The model and the rules get room to recurse (they gave up on the function in silence)."""
    deep = " + ".join(["x"] * 2992)
    path = tmp_path / "deep.py"
    path.write_text(
        f"import jax\n\n\n@jax.jit\ndef f(x):\n    y = {deep}\n    print(y)\n    if y > 0:\n        return y\n    return x\n"
    )
    main(["check", "--no-cache", "--output-format", "json", str(path)])
    found = [(d["code"], d["location"]["row"]) for d in json.loads(capsys.readouterr().out)]
    assert found == [("JAX101", 7), ("JAX501", 8)]


def test_a_deep_condition_is_fixed_not_an_internal_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """libcst needs more stack than the analysis: the fix is computed with room (it was JAX002)."""
    deep = " + ".join(["x"] * 700)
    path = tmp_path / "deep.py"
    path.write_text(
        f"import jax\n\n\n@jax.jit\ndef f(x):\n    if ({deep}) > 0:\n        return x\n    return -x\n"
    )
    assert main(["check", "--no-cache", "--output-format", "json", str(path)]) == 1
    [finding] = json.loads(capsys.readouterr().out)
    assert finding["code"] == "JAX501" and finding["fix"] is not None
    main(["check", "--no-cache", "--fix", "--unsafe-fixes", str(path)])
    assert f"return jnp.where(({deep}) > 0, x, -x)" in path.read_text()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"# caf\xe9\n[tool.jaxlint]\nignore = []\n", "pyproject.toml:1: not UTF-8"),
        (b'[tool.jaxlint]\nignore = ["JAX101"\n', "pyproject.toml:3: invalid TOML: Unclosed array"),
        (b'[tool]\njaxlint = "strict"\n', "[tool.jaxlint] must be a table"),
        (b"[tool.jaxlint]\nx = " + b"[" * 5000 + b"]" * 5000 + b"\n", "pyproject.toml"),
    ],
)
def test_a_pyproject_that_cannot_be_read_is_one_line_and_exit_2(
    tmp_path: Path,
    content: bytes,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "pyproject.toml").write_bytes(content)
    (tmp_path / "m.py").write_text(BUGGY_PRINT)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--no-cache", "m.py"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err


CLEAN = "import jax\n\n\n@jax.jit\ndef step(x):\n    return x\n"


def test_a_file_changed_during_the_run_is_not_cached_with_the_other_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import jaxlint.project.runner as runner

    path = tmp_path / "model.py"
    path.write_text(CLEAN)
    cache = tmp_path / "cache"
    real_read = runner.read_source

    def changed_before_analysis(name: str):
        path.write_text(BUGGY)  # after the cache key was taken from CLEAN
        return real_read(name)

    monkeypatch.setattr(runner, "read_source", changed_before_analysis)
    main(["check", "--cache-dir", str(cache), "--output-format", "json", str(path)])
    capsys.readouterr()
    monkeypatch.setattr(runner, "read_source", real_read)
    path.write_text(CLEAN)  # back to the version the key was taken from
    main(["check", "--cache-dir", str(cache), "--output-format", "json", str(path)])
    assert capsys.readouterr().out.strip() == "[]"  # not the buggy version's finding


@pytest.mark.parametrize(
    "entry", ['{"diagnostics": 1}', "[" * 100000 + "]" * 100000, '{"diagnostics": [1e400]}']
)
def test_a_corrupt_cache_entry_is_a_miss(
    tmp_path: Path, entry: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "model.py"
    path.write_text(BUGGY)
    cache = tmp_path / "cache"
    main(["check", "--cache-dir", str(cache), "--output-format", "json", str(path)])
    first = capsys.readouterr().out
    for stored in cache.rglob("*.json"):
        stored.write_text(entry)
    assert main(["check", "--cache-dir", str(cache), "--output-format", "json", str(path)]) == 1
    assert capsys.readouterr().out == first


def test_a_writer_killed_mid_write_leaves_no_temporary_file_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The temporary file of a cache writer that was killed (its process is gone, or it is an hour
    old) is removed by the next run that writes; a live writer's is left alone."""
    path = tmp_path / "model.py"
    path.write_text(BUGGY)
    cache = tmp_path / "cache"
    main(["check", "--cache-dir", str(cache), str(path)])
    [shard] = {stored.parent for stored in cache.rglob("*.json")}
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    killed = shard / f".tmp-{int(ended.stdout)}-abc"
    old = shard / f".tmp-{os.getpid()}-old"
    live = shard / f".tmp-{os.getpid()}-live"
    for leftover in (killed, old, live):
        leftover.write_text('{"diagnostics": [')
    os.utime(old, (0, 0))
    path.write_text(BUGGY + "# edited\n")  # a miss: this run writes
    main(["check", "--cache-dir", str(cache), str(path)])
    capsys.readouterr()
    assert not killed.exists() and not old.exists()
    assert live.exists()


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_workers_end_when_the_main_process_is_killed(tmp_path: Path) -> None:
    import signal
    import time

    body = "".join(f"\n\n@jax.jit\ndef f{i}(x):\n    print(x)\n    return x\n" for i in range(400))
    for n in range(40):
        (tmp_path / f"m{n}.py").write_text("import jax\n" + body)
    process = subprocess.Popen(
        [sys.executable, "-m", "jaxlint", "check", "--no-cache", "-j", "2", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: list[int] = []
    deadline = time.monotonic() + 60
    while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
        workers = _children(process.pid)
    assert workers, "the pool never started"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
        time.sleep(0.2)
    alive = [
        w
        for w in workers
        if Path(f"/proc/{w}").exists() and "Z" not in Path(f"/proc/{w}/stat").read_text().split()[2]
    ]
    assert not alive, f"workers left running: {alive}"


def test_a_deep_expression_python_compiles_is_not_a_syntax_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = "import jax\n\ny = " + " + ".join(["1"] * 2992) + "\n"
    # `python deep.py` compiles and runs it: a syntax error would be a false claim
    path = tmp_path / "deep.py"
    path.write_text(source)
    assert main(["check", "--no-cache", "--output-format", "json", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "[]"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"cells": 5}', "`cells` is missing or not a list"),
        ("[1, 2]", "the top level is not a JSON object"),
        ('{"cells": [{"cell_type": "code", "source": 7}]}', "the source of cell 1 is not text"),
        ("{" * 100000, "not a valid notebook"),
    ],
)
def test_a_notebook_of_the_wrong_shape_is_jax001(
    tmp_path: Path, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.ipynb"
    path.write_text(content)
    main(["check", "--no-cache", "--output-format", "json", str(path)])
    [finding] = json.loads(capsys.readouterr().out)
    assert finding["code"] == "JAX001" and message in finding["message"]


def test_a_folder_that_cannot_be_listed_is_said_not_skipped_in_silence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import jaxlint.project.files as files

    (tmp_path / "ok.py").write_text(CLEAN)
    secret = tmp_path / "secret"
    real_walk = os.walk

    def walk_meeting_a_locked_folder(top, *args, onerror=None, **kwargs):
        if onerror is not None:  # what os.walk does for a folder it may not list (root may)
            onerror(PermissionError(13, "Permission denied", str(secret)))
        yield from real_walk(top, *args, onerror=onerror, **kwargs)

    monkeypatch.setattr(files.os, "walk", walk_meeting_a_locked_folder)
    main(["check", "--no-cache", str(tmp_path)])
    assert f"jaxlint: warning: {secret}: folder not checked: Permission denied" in capsys.readouterr().err


def test_many_jobs_with_few_open_files_allowed(tmp_path: Path) -> None:
    """`-j 600` where only 1024 files may be open: as many workers as can be served, no
    traceback, no hang."""
    for number in range(20):
        (tmp_path / f"m{number}.py").write_text(
            "import jax\n\n\n@jax.jit\ndef f(x):\n    print(x)\n    return x\n"
        )

    limited = (
        "import resource, runpy, sys\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))\n"
        "sys.argv = ['jaxlint', *sys.argv[1:]]\n"
        "runpy.run_module('jaxlint', run_name='__main__')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", limited, "check", "--no-cache", "-q", "-j", "600", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stdout.count("JAX101") == 20
