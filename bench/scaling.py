"""How check and --fix grow with the size of one file full of findings.

Usage: python bench/scaling.py [--sizes 250 1000 3000]

Writes a file of N jitted functions, each with three fixable findings (a print, a discarded
`.at[]` update and its use), and times `jaxlint check` and `jaxlint check --fix` on it with the
real CLI, in a temporary folder. Prints lines, findings, seconds, and the growth of time per line
from the smallest size: about 1.0x means linear, growing ratios mean the work grows faster than the
file (it should not: issue 16).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FUNCTION = (
    "\n\n@jax.jit\ndef f{i}(x):\n    print(x)\n    y = x.at[0].set(1.0)\n    x.at[1].set(2.0)\n    return y\n"
)


def source(functions: int) -> str:
    return "import jax\nimport jax.numpy as jnp\n" + "".join(FUNCTION.format(i=i) for i in range(functions))


def timed(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "jaxlint", "check", "--isolated", "--no-cache", *args], capture_output=True
    )
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="How check and --fix grow with the size of one file.")
    parser.add_argument("--sizes", type=int, nargs="+", default=[250, 1000, 3000])
    args = parser.parse_args(argv)
    print(f"{'functions':>9} {'lines':>7} {'check s':>8} {'fix s':>7} {'check/line':>10} {'fix/line':>9}")
    base: tuple[float, float] | None = None
    with tempfile.TemporaryDirectory() as folder:
        for functions in args.sizes:
            path = Path(folder) / f"many_{functions}.py"
            text = source(functions)
            path.write_text(text)
            lines = text.count("\n")
            check = timed(str(path))
            fix = timed("--fix", str(path))
            per_line = (check / lines, fix / lines)
            base = base or per_line
            print(
                f"{functions:>9} {lines:>7} {check:>8.2f} {fix:>7.2f} "
                f"{per_line[0] / base[0]:>9.2f}x {per_line[1] / base[1]:>8.2f}x"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
