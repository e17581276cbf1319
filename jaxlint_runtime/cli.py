"""``jaxlint verify``: run a function eagerly and compiled, in a worker process, and report.

Exit codes: 0 the compiled function matches eager execution, 1 a mismatch or an error was found
(user code that raises, hangs or runs out of memory included), 2 usage error (a one-line
message). This module imports neither jax nor user code.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Sequence
from typing import Any

from jaxlint_runtime.isolation import failure_report, run_worker
from jaxlint_runtime.report import Report, render_json, render_text
from jaxlint_runtime.targets import TargetError, parse_target

EXIT_MATCH, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
INSTALL_HINT = (
    "`jaxlint verify` needs JAX, which is not installed here: "
    "pip install jax (or, in a jaxlint checkout, pip install '.[runtime]')"
)


class UsageError(Exception):
    """Bad command-line input; reported in one line with exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="jaxlint verify",
        description=(
            "Run FILE::FUNCTION eagerly and under jax.jit, compare the results (values, gradients) "
            "and report JAX errors with the jaxlint rule that predicts them. This executes your code."
        ),
    )
    parser.add_argument("target", metavar="FILE::FUNCTION")
    parser.add_argument("--inputs", metavar="MODULE:FACTORY", help="a factory returning the arguments")
    parser.add_argument("--seed", type=int, default=0, help="seed for synthesised inputs (default 0)")
    parser.add_argument(
        "--dim", action="append", default=[], metavar="NAME=SIZE", help="size of a named dimension"
    )
    parser.add_argument("--static-argnums", type=_integers, default=(), metavar="N,N")
    parser.add_argument("--static-argnames", type=_names, default=(), metavar="NAME,NAME")
    parser.add_argument("--rtol", type=float, help="relative tolerance (default: by dtype)")
    parser.add_argument("--atol", type=float, help="absolute tolerance (default: by dtype)")
    parser.add_argument("--check-nans", action="store_true", help="switch on jax_debug_nans")
    parser.add_argument(
        "--reference-device", choices=("cpu", "gpu", "tpu"), help="run the eager reference here"
    )
    parser.add_argument(
        "--fixed", metavar="FILE::FUNCTION", help="compare TARGET eager against this compiled"
    )
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds before giving up (default 600)")
    parser.add_argument(
        "--memory-limit",
        type=int,
        metavar="MIB",
        help="stop the run once it (with what it started) holds more resident memory than this",
    )
    parser.add_argument("--output-format", choices=("text", "json"), default="text")
    return parser


def _integers(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got `{text}`") from None


def _names(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    except (UsageError, TargetError) as error:
        print(f"jaxlint: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("jaxlint: interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if not jax_available():
        raise UsageError(INSTALL_HINT)
    request = build_request(args)
    limit = None if args.memory_limit is None else args.memory_limit * 2**20
    result = run_worker(request, args.timeout, memory_limit=limit)
    if result.data is not None and "usage_error" in result.data:
        raise UsageError(result.data["usage_error"])
    if result.data is not None:
        report = Report.from_dict(result.data["report"])
    else:
        report = failure_report(args.target.rpartition("::")[2], result)
    render = render_json if args.output_format == "json" else render_text
    sys.stdout.write(render(report))
    return EXIT_MATCH if report.ok else EXIT_PROBLEMS


def build_request(args: argparse.Namespace) -> dict[str, Any]:
    parse_target(args.target)
    if args.fixed:
        parse_target(args.fixed)
    if args.timeout <= 0:
        raise UsageError("--timeout must be positive")
    if args.memory_limit is not None and args.memory_limit <= 0:
        raise UsageError("--memory-limit must be a positive number of MiB")
    return {
        "mode": "compare" if args.fixed else "verify",
        "target": args.target,
        "fixed": args.fixed,
        "inputs": args.inputs,
        "seed": args.seed,
        "dims": _dims(args.dim),
        "options": {
            "static_argnums": list(args.static_argnums),
            "static_argnames": list(args.static_argnames),
            "rtol": args.rtol,
            "atol": args.atol,
            "check_nans": args.check_nans,
            "reference_device": args.reference_device,
        },
    }


def _dims(pairs: list[str]) -> dict[str, int]:
    dims = {}
    for pair in pairs:
        name, separator, size = pair.partition("=")
        if not separator or not name.strip().isidentifier() or not size.strip().isdigit():
            raise UsageError(f"--dim expects NAME=SIZE, got `{pair}`")
        dims[name.strip()] = int(size)
    return dims


def jax_available() -> bool:
    try:
        return importlib.util.find_spec("jax") is not None
    except (ImportError, ValueError):
        return False


if __name__ == "__main__":
    sys.exit(main())
