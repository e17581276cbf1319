"""The ``jaxlint`` command line.

Exit codes: 0 no findings, 1 findings, 2 usage or input error (a one-line message, never a
traceback).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from jaxlint import __version__
from jaxlint.engine.diagnostics import Diagnostic
from jaxlint.engine.linter import split_lines
from jaxlint.engine.registry import all_rules, rule_by_code, rule_codes
from jaxlint.hosts.reporters import FORMATS
from jaxlint.hosts.reporters.text import render_statistics, render_text, summary
from jaxlint.project.cache import DEFAULT_DIRECTORY
from jaxlint.project.config import ConfigError, Settings, find_config, is_known_selector, load_settings
from jaxlint.project.files import read_source
from jaxlint.project.runner import Mode, build_ruleset, check_paths, default_jobs

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class UsageError(Exception):
    """A problem with how jaxlint was invoked; reported in one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # pyright: ignore[reportIncompatibleMethodOverride]
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="jaxlint", description="Find JAX tracing hazards before they run.")
    parser.add_argument("--version", action="version", version=f"jaxlint {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    check = commands.add_parser("check", help="check files and directories")
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH")
    check.add_argument("--select", type=_selectors, help="rule codes or prefixes to enable (replaces config)")
    check.add_argument("--extend-select", type=_selectors, help="rule codes or prefixes to add")
    check.add_argument("--ignore", type=_selectors, help="rule codes or prefixes to disable")
    check.add_argument("--output-format", choices=sorted(FORMATS), default="text")
    check.add_argument("--statistics", action="store_true", help="count diagnostics per rule")
    check.add_argument("-q", "--quiet", action="store_true", help="print diagnostics only")
    check.add_argument("--show-source", action="store_true", help="show the source line and a caret")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    check.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    check.add_argument(
        "--unsafe-fixes", action="store_true", help="with --fix or --diff, apply unsafe fixes too"
    )
    check.add_argument("--diff", action="store_true", help="print the fixes as a diff; write nothing")
    check.add_argument(
        "--verify",
        action="store_true",
        help="with --fix or --diff, run each function a fix changed, eagerly and compiled on synthesised "
        "inputs, and take back fixes that change results (executes your code; needs jax)",
    )
    check.add_argument("--config", type=Path, help="pyproject.toml to read [tool.jaxlint] from")
    check.add_argument("-j", "--jobs", type=_positive, help="worker processes (default: all cores)")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    check.add_argument("--cache-dir", type=Path, help=f"cache directory (default: {DEFAULT_DIRECTORY})")
    check.add_argument("--isolated", action="store_true", help="ignore configuration files")
    check.add_argument(
        "--force-exclude", action="store_true", help="apply `exclude` to files named on the command line too"
    )

    rule = commands.add_parser("rule", help="explain a rule")
    rule.add_argument("code", nargs="?", help="e.g. JAX501")
    rule.add_argument("--all", action="store_true", help="explain every rule")
    rule.add_argument("--output-format", choices=("text", "json"), default="text")

    commands.add_parser("server", help="run the language server over stdio (needs the `lsp` extra)")
    # `jaxlint verify ...` is parsed by jaxlint_runtime.cli (see _main); listed here for --help.
    commands.add_parser("verify", help="run a function eagerly and compiled and compare (executes it)")
    return parser


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _selectors(text: str) -> tuple[str, ...]:
    return tuple(part.strip().upper() for part in text.split(",") if part.strip())


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant_output()
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    except UsageError as error:
        print(f"jaxlint: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    except ConfigError as error:
        print(f"jaxlint: error: {error}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("jaxlint: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR


def _tolerant_output() -> None:
    """A path or message the terminal's encoding cannot show (``PYTHONIOENCODING=ascii``, a file
    name that is not UTF-8) is written escaped, never a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


COMMANDS = ("check", "rule", "server", "verify")


def _main(argv: list[str]) -> int:
    if argv[:1] == ["verify"]:
        return run_verify(argv[1:])
    parser = build_parser()
    if argv and argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version"):
        argv = ["check", *argv]  # `jaxlint --fix` is `jaxlint check --fix .`
    args = parser.parse_args(argv)
    if args.command == "check":
        return run_check(args)
    if args.command == "rule":
        return run_rule(args)
    if args.command == "server":
        from jaxlint.hosts.lsp import run_server

        return run_server()
    parser.print_help()
    return EXIT_CLEAN if not argv else EXIT_ERROR


def resolve_settings(args: argparse.Namespace) -> Settings:
    codes = rule_codes()
    if args.isolated:
        settings = Settings()
    else:
        config = args.config
        if config is not None and not config.is_file():
            raise UsageError(f"config file not found: {config}")
        if config is None:
            config = find_config(Path(args.paths[0]) if args.paths else Path.cwd())
        settings = load_settings(config, codes)
    for option in ("select", "extend_select", "ignore"):
        for selector in getattr(args, option) or ():
            if not is_known_selector(selector, codes):
                raise UsageError(f"unknown rule selector `{selector}` in --{option.replace('_', '-')}")
    return settings.with_overrides(
        select=args.select,
        extend_select=args.extend_select,
        ignore=(*settings.ignore, *args.ignore) if args.ignore else None,
    )


def run_check(args: argparse.Namespace) -> int:
    missing = [path for path in args.paths if not os.path.exists(path)]
    if missing:
        raise UsageError(f"no such file or directory: {missing[0]}")
    settings = resolve_settings(args)
    ruleset = build_ruleset(settings)
    cache_dir = None if args.no_cache else (args.cache_dir or settings.root / DEFAULT_DIRECTORY)
    if args.verify:
        _require_verification(args)
    mode = Mode(
        verify=args.verify,
        fix=args.fix,
        unsafe=args.unsafe_fixes,
        diff=args.diff,
        with_fixes=True,
        jobs=args.jobs or default_jobs(),
        cache_dir=cache_dir,
    )
    paths = args.paths
    if args.force_exclude:  # pre-commit and editors name files one by one
        paths = [path for path in paths if os.path.isdir(path) or not settings.is_excluded_path(path)]
    result = check_paths(paths, settings, ruleset, mode)
    for problem in result.problems:
        print(f"jaxlint: warning: {problem}", file=sys.stderr)
    if args.diff:
        sys.stdout.write("".join(result.diffs))
        if not args.quiet:
            print(f"Would fix {sum(1 for _ in result.diffs)} file(s).", file=sys.stderr)
        return EXIT_FINDINGS if result.diffs and not args.exit_zero else EXIT_CLEAN
    diagnostics = result.diagnostics
    lines = source_lines(diagnostics) if args.show_source else {}
    if args.output_format == "text":
        output = render_text(diagnostics, lines, show_source=args.show_source)
        if args.statistics:
            output = render_statistics(diagnostics)
        if not args.quiet:
            output += summary(diagnostics, result.files, result.fixed if args.fix else None)
    else:
        output = FORMATS[args.output_format](diagnostics, lines)
    sys.stdout.write(output)
    sys.stdout.flush()
    if diagnostics and not args.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _require_verification(args: argparse.Namespace) -> None:
    from jaxlint.fixing.verify_fixes import VerifyUnavailable, require_runtime

    if not (args.fix or args.diff):
        raise UsageError("--verify checks fixes: use it with --fix or --diff")
    try:
        require_runtime()
    except VerifyUnavailable as error:
        raise UsageError(str(error)) from None


def source_lines(diagnostics: list[Diagnostic]) -> dict[str, list[str]]:
    """The lines of the files that have findings (for --show-source)."""
    lines: dict[str, list[str]] = {}
    for path in {d.filename for d in diagnostics}:
        text = read_source(path).text
        lines[path] = split_lines(text) if text is not None else []
    return lines


def run_rule(args: argparse.Namespace) -> int:
    from jaxlint.hosts.docs import rule_as_json, rule_as_text

    if args.all:
        rules = list(all_rules())
    elif args.code:
        found = rule_by_code(args.code)
        if found is None:
            raise UsageError(f"unknown rule `{args.code}` (see `jaxlint rule --all`)")
        rules = [found]
    else:
        raise UsageError("name a rule code (e.g. `jaxlint rule JAX501`) or pass --all")
    if args.output_format == "json":
        sys.stdout.write(json.dumps([rule_as_json(r) for r in rules], indent=2) + "\n")
    else:
        sys.stdout.write("\n\n".join(rule_as_text(r) for r in rules))
    return EXIT_CLEAN


def run_verify(argv: list[str]) -> int:
    """Hand over to the runtime companion, imported only now (it runs user code under jax)."""
    from jaxlint_runtime.cli import main as verify_main

    return verify_main(argv)


if __name__ == "__main__":
    sys.exit(main())
