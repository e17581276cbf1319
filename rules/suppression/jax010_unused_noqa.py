"""JAX010: a ``# noqa`` comment that names a jaxlint code it does not need, or one that does
not exist."""

from __future__ import annotations

from jaxlint.engine.diagnostics import Diagnostic, Location
from jaxlint.engine.noqa import Suppression
from jaxlint.engine.rule import Rule


class UnusedNoqa(Rule):
    """## What it does
    Finds `# noqa: JAXNNN` comments (and `# jaxlint: noqa: JAXNNN` file comments) that name a
    jaxlint code that does not exist, or an enabled rule that reports nothing on that line.
    Codes of other tools (`E501`, `F401`) and bare `# noqa` comments are left to their tools.

    ## Why is this bad?
    A misspelt code (`# noqa: JAX15`, `# noqa: JAX999`) silences nothing, so the finding the
    author meant to accept still fails the build, or worse, the author believes a hazard was
    reviewed when the comment never applied. A comment left behind after the code was fixed
    hides the next real finding on that line.

    ## Example
    ```python
    import jax

    @jax.jit
    def f(x):
        print(x)  # noqa: JAX011
        return x + 1
    ```

    ## Use instead
    ```python
    import jax

    @jax.jit
    def f(x):
        print(x)  # noqa: JAX101
        return x + 1
    ```

    ## Fix safety
    No automatic fix: remove the code from the comment (or the comment) by hand.

    ## References
    - [ruff: unused-noqa (RUF100)](https://docs.astral.sh/ruff/rules/unused-noqa/)
    """

    code = "JAX010"
    name = "unused-noqa"
    message = "A `# noqa` comment names a jaxlint code it does not need or that does not exist"
    outcome = "the comment silences nothing, or hides the next finding on its line"
    severity = "warning"

    def suppression_findings(
        self, path: str, suppressions: list[Suppression], known: frozenset[str], enabled: frozenset[str]
    ) -> list[Diagnostic]:
        """A finding for each unknown or unused jaxlint code of ``suppressions``."""
        return [
            self._finding(path, suppression, problem)
            for suppression in suppressions
            for code in suppression.codes
            if (problem := _problem(code, suppression, known, enabled)) is not None
        ]

    def _finding(self, path: str, suppression: Suppression, message: str) -> Diagnostic:
        start = Location(suppression.row, suppression.column)
        end = Location(suppression.row, suppression.end_column)
        return Diagnostic(self.code, self.name, message, path, start, end, self.severity, noqa_row=None)


def _problem(
    code: str, suppression: Suppression, known: frozenset[str], enabled: frozenset[str]
) -> str | None:
    """What is wrong with ``code`` in ``suppression``: not a jaxlint code, or a line comment that
    silenced nothing while every rule it names ran; None when it is fine or not jaxlint's."""
    if not code.startswith("JAX"):
        return None  # another tool's code
    if not any(rule.startswith(code) for rule in known):
        return f"`{code}` is not a jaxlint code: this comment silences nothing"
    if suppression.file_wide or code in suppression.used or not _all_enabled(code, known, enabled):
        return None
    return f"unused `# noqa` code `{code}`: nothing on this line reports it"


def _all_enabled(prefix: str, known: frozenset[str], enabled: frozenset[str]) -> bool:
    """Whether every rule the prefix names runs on this file (else the comment may be for a
    configuration where one does)."""
    return all(code in enabled for code in known if code.startswith(prefix))
