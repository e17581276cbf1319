"""The ``jaxlint`` command line.

Exit codes: 0 no findings, 1 findings, 2 usage or input error (a one-line message, never a
traceback).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from jaxlint import __version__
from jaxlint.engine.diagnostics import Diagnostic
from jaxlint.engine.linter import META_CODES, split_lines
from jaxlint.engine.registry import all_rules, rule_by_code, rule_codes
from jaxlint.hosts.progress import Progress
from jaxlint.hosts.reporters import FIX_CARRYING_FORMATS, FORMATS
from jaxlint.hosts.reporters.text import render_statistics, render_text, statistics, summary
from jaxlint.project.cache import DEFAULT_DIRECTORY
from jaxlint.project.config import ConfigError, Selection, did_you_mean, is_known_selector
from jaxlint.project.files import discover, read_source
from jaxlint.project.runner import Mode, RunResult, check_paths, check_standard_input, default_jobs
from jaxlint.project.settings import SettingsCache

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
    check.add_argument(
        "paths", nargs="*", metavar="PATH", help="files and folders (default: .; - reads stdin)"
    )
    selection = check.add_argument_group(
        "rule selection (repeatable; the command line wins over configuration)"
    )
    for option, what in (
        ("--select", "rule codes or prefixes to enable (instead of the configuration's)"),
        ("--extend-select", "rule codes or prefixes to enable in addition"),
        ("--ignore", "rule codes or prefixes to disable"),
    ):
        selection.add_argument(option, type=_selectors, action="append", metavar="CODES", help=what)
    output = check.add_argument_group("output")
    output.add_argument("--output-format", choices=sorted(FORMATS), default="text")
    output.add_argument("-o", "--output-file", type=Path, help="write the report to this file")
    output.add_argument("--statistics", action="store_true", help="count diagnostics per rule")
    output.add_argument("-q", "--quiet", action="store_true", help="print diagnostics only")
    output.add_argument(
        "-v", "--verbose", action="store_true", help="say what was checked and how long it took"
    )
    output.add_argument("--show-source", action="store_true", help="show the source line and a caret")
    output.add_argument("--show-fixes", action="store_true", help="list the fixes applied, per file")
    output.add_argument(
        "--show-files", action="store_true", help="list the files that would be checked; check none"
    )
    output.add_argument(
        "--show-settings",
        action="store_true",
        help="print the settings that apply to the first path; check none",
    )
    output.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="colour the text output"
    )
    output.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    output.add_argument(
        "--exit-non-zero-on-fix",
        action="store_true",
        help="exit 1 when files were fixed, even if none remain",
    )
    fixing = check.add_argument_group("fixing")
    fixing.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    fixing.add_argument(
        "--unsafe-fixes", action="store_true", help="with --fix or --diff, apply unsafe fixes too"
    )
    fixing.add_argument("--diff", action="store_true", help="print the fixes as a diff; write nothing")
    fixing.add_argument(
        "--verify",
        action="store_true",
        help="with --fix or --diff, run each function a fix changed, eagerly and compiled on synthesised "
        "inputs, and take back fixes that change results (executes your code; needs jax)",
    )
    fixing.add_argument(
        "--add-noqa", action="store_true", help="add `# noqa: CODE` comments to silence every finding"
    )
    files = check.add_argument_group("files and configuration")
    files.add_argument("--config", type=Path, help="the pyproject.toml or jaxlint.toml to use for every file")
    files.add_argument("--isolated", action="store_true", help="ignore configuration files")
    files.add_argument("--stdin-filename", help="the name of the file given on standard input (-)")
    files.add_argument(
        "--force-exclude", action="store_true", help="apply `exclude` to files named on the command line too"
    )
    files.add_argument(
        "--no-respect-gitignore", action="store_true", help="check files that .gitignore ignores too"
    )
    files.add_argument("-j", "--jobs", type=_positive, help="worker processes (default: all cores)")
    files.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    files.add_argument("--cache-dir", type=Path, help=f"cache directory (default: {DEFAULT_DIRECTORY})")

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
        _reject_misspelt_command(argv[0])
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


def _reject_misspelt_command(word: str) -> None:
    """``jaxlint chek``: a word that is neither a path nor an option but close to a command."""
    if word.startswith("-") or os.path.exists(word):
        return
    close = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.6)
    if close:
        raise UsageError(f"unknown command `{word}` (did you mean `{close[0]}`?)")


def build_resolver(args: argparse.Namespace) -> SettingsCache:
    """Per-file settings, with the command line's selection layered over each configuration."""
    codes = rule_codes()
    if args.config is not None and not args.config.is_file():
        raise UsageError(f"config file not found: {args.config}")
    options = {name: _flat(getattr(args, name)) for name in ("select", "extend_select", "ignore")}
    for option, selectors in options.items():
        for selector in selectors or ():
            if not is_known_selector(selector, codes):
                hint = did_you_mean(selector, codes)
                raise UsageError(f"unknown rule selector `{selector}` in --{option.replace('_', '-')}{hint}")
    command_line = Selection(options["select"], options["extend_select"] or (), options["ignore"] or ())
    return SettingsCache(
        command_line=command_line,
        config=None if args.isolated else args.config,
        isolated=args.isolated,
        respect_gitignore=False if args.no_respect_gitignore else None,
    )


def _flat(groups: list[tuple[str, ...]] | None) -> tuple[str, ...] | None:
    return None if groups is None else tuple(code for group in groups for code in group)


def run_check(args: argparse.Namespace) -> int:
    reads_stdin = args.paths == ["-"] or (args.stdin_filename is not None and not args.paths)
    args.paths = args.paths or ["."]
    missing = [path for path in args.paths if not os.path.exists(path)] if not reads_stdin else []
    if missing:
        raise UsageError(f"no such file or directory: {missing[0]}")
    if "-" in args.paths and not reads_stdin:
        raise UsageError("`-` (standard input) cannot be combined with other paths")
    if args.statistics and args.output_format not in ("text", "json"):
        raise UsageError("--statistics works with --output-format text or json")
    resolver = build_resolver(args)
    first = args.stdin_filename if reads_stdin and args.stdin_filename else args.paths[0]
    settings = resolver.settings_in(Path(first) if os.path.isdir(first) else Path(first).parent)
    if args.show_settings:
        sys.stdout.write(settings.describe() + "\n")
        return EXIT_CLEAN
    if args.verify:
        _require_verification(args)
    cache_dir = None if args.no_cache else (args.cache_dir or settings.root / DEFAULT_DIRECTORY)
    mode = Mode(
        verify=args.verify,
        fix=args.fix and not args.add_noqa,
        unsafe=args.unsafe_fixes,
        diff=args.diff,
        with_fixes=args.output_format in FIX_CARRYING_FORMATS,
        jobs=_usable_jobs(args.jobs or default_jobs()),
        cache_dir=cache_dir,
    )
    if reads_stdin:
        return run_standard_input(args, resolver, mode)
    paths = args.paths
    if args.force_exclude:  # pre-commit and editors name files one by one
        paths = [
            path
            for path in paths
            if os.path.isdir(path) or not resolver.settings_for(path).is_excluded_path(path)
        ]
    if args.show_files:  # with --verbose, also what was left out and why
        skipped: list[tuple[str, str]] | None = [] if args.verbose else None
        for path in discover(paths, resolver, skipped=skipped):
            sys.stdout.write(f"{path}\n")
        for path, reason in skipped or ():
            sys.stderr.write(f"jaxlint: skipped {path} ({reason})\n")
        return EXIT_CLEAN
    if args.add_noqa:
        return run_add_noqa(paths, resolver, mode, args)
    with Progress.on_terminal(enabled=not args.quiet and not args.verbose) as progress:
        result = check_paths(paths, resolver, mode, progress)
    for problem in result.problems:
        print(f"jaxlint: warning: {problem}", file=sys.stderr)
    if args.verbose:
        print(verbose_summary(result), file=sys.stderr)
    if args.verify and not args.quiet and (args.fix or args.diff):
        print(f"jaxlint: {result.verification_summary()}", file=sys.stderr)
    if args.diff:
        sys.stdout.write("".join(result.diffs))
        if not args.quiet:
            print(f"Would fix {len(result.diffs)} file(s).", file=sys.stderr)
        return EXIT_FINDINGS if result.diffs and not args.exit_zero else EXIT_CLEAN
    output = report(args, result.diagnostics, result.files, result.fixed if args.fix else None)
    if args.show_fixes and args.fix and not args.quiet:
        output += render_fixes(result.fixed_by_file)
    _emit(output, args.output_file)
    return exit_code(args, bool(result.diagnostics), bool(result.changed_files))


def exit_code(args: argparse.Namespace, findings: bool, fixed: bool) -> int:
    """1 for findings left (or, with ``--exit-non-zero-on-fix``, files fixed), unless ``--exit-zero``."""
    if not args.exit_zero and (findings or (args.exit_non_zero_on_fix and fixed)):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def report(
    args: argparse.Namespace, diagnostics: list[Diagnostic], files: int, fixed: Counter[str] | None
) -> str:
    """The report of the findings in the chosen format."""
    wants_lines = args.show_source or args.output_format == "sarif"  # SARIF fingerprints hash lines
    lines = source_lines(diagnostics) if wants_lines else {}
    if args.output_format == "json" and args.statistics:
        return json.dumps(statistics(diagnostics), indent=2) + "\n"
    if args.output_format != "text":
        return FORMATS[args.output_format](diagnostics, lines)
    colour = _wants_colour(args)
    if args.statistics:
        output = render_statistics(diagnostics)
    else:
        output = render_text(diagnostics, lines, show_source=args.show_source, colour=colour)
    if not args.quiet:
        output += summary(diagnostics, files, fixed)
    return output


def _wants_colour(args: argparse.Namespace) -> bool:
    if args.color != "auto":
        return args.color == "always"
    if args.output_file is not None or os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or sys.stdout.isatty()


def _emit(output: str, output_file: Path | None) -> None:
    if output_file is None:
        sys.stdout.write(output)
        sys.stdout.flush()
        return
    try:
        output_file.write_text(output, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {output_file}: {error.strerror or error}") from None


def _usable_jobs(jobs: int) -> int:
    """At most as many workers as the open-file limit can serve (each needs a few pipes)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return min(jobs, 64)
    limit = soft // 16 if soft > 0 else 64
    return max(1, min(jobs, limit, 256))


def run_standard_input(args: argparse.Namespace, resolver: SettingsCache, mode: Mode) -> int:
    """``jaxlint check -``: check (or fix, printing the fixed source) the text on standard input,
    as the file ``--stdin-filename`` names (its configuration and per-file ignores apply)."""
    raw = sys.stdin.buffer.read()
    name = args.stdin_filename or "-"
    settings = resolver.settings_for(name)
    if args.stdin_filename and args.force_exclude and settings.is_excluded_path(name):
        if args.fix:
            sys.stdout.buffer.write(raw)
        return EXIT_CLEAN
    outcome = check_standard_input(raw, name, settings, mode)
    for problem in outcome.problems:
        print(f"jaxlint: warning: {problem}", file=sys.stderr)
    if args.diff:
        sys.stdout.write(outcome.diff or "")
        return EXIT_FINDINGS if outcome.diff and not args.exit_zero else EXIT_CLEAN
    output = report(args, outcome.diagnostics, 1, outcome.fixed if args.fix else None)
    if args.fix:  # the fixed source is the output; the report goes to stderr
        text = outcome.fixed_source
        if text is None:
            sys.stdout.buffer.write(raw)
        else:
            sys.stdout.write(text)
        sys.stdout.flush()
        sys.stderr.write(output)
    else:
        _emit(output, args.output_file)
    return exit_code(args, bool(outcome.diagnostics), bool(outcome.fixed))


def run_add_noqa(paths: list[str], resolver: SettingsCache, mode: Mode, args: argparse.Namespace) -> int:
    from jaxlint.project.noqa_writer import add_noqa_comments

    result = check_paths(paths, resolver, replace(mode, fix=False, diff=False, with_fixes=False))
    added, problems = add_noqa_comments(result.diagnostics)
    for problem in [*result.problems, *problems]:
        print(f"jaxlint: warning: {problem}", file=sys.stderr)
    if not args.quiet:
        print(f"Added {added} noqa directive{'s' if added != 1 else ''}.", file=sys.stderr)
    return EXIT_CLEAN


def verbose_summary(result: RunResult) -> str:
    """What ``--verbose`` says at the end: files, cache, rounds and time per phase."""
    phases = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in result.timings.items())
    total = sum(result.timings.values())
    return (
        f"jaxlint: {result.files} file{'s' if result.files != 1 else ''} checked in {total:.2f} s "
        f"({phases}); {result.cached} from the cache, {result.analysed} analyses in "
        f"{result.rounds} round{'s' if result.rounds != 1 else ''}"
    )


def render_fixes(fixed_by_file: dict[str, Counter[str]]) -> str:
    if not fixed_by_file:
        return ""
    lines = ["", "Fixed:"]
    for path, counts in sorted(fixed_by_file.items()):
        lines.append(f"{path}:")
        lines.extend(f"    {count} x {code}" for code, count in sorted(counts.items()))
    return "\n".join(lines) + "\n"


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
        if found is None and args.code.upper() in META_CODES and args.output_format == "text":
            from jaxlint.hosts.docs import meta_as_text

            sys.stdout.write(meta_as_text(args.code.upper()))
            return EXIT_CLEAN
        if found is None:
            hint = did_you_mean(args.code.upper(), [*rule_codes(), *META_CODES])
            raise UsageError(f"unknown rule `{args.code}`{hint} (see `jaxlint rule --all`)")
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
