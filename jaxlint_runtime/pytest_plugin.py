"""pytest plugin (entry point ``pytest11``): ``pytest --jaxlint-verify``.

Imports nothing heavy until the option is given: the cross-checking lives in
``jaxlint_runtime.crosscheck``.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("jaxlint", "jaxlint runtime verification")
    group.addoption(
        "--jaxlint-verify",
        action="store_true",
        default=False,
        help="cross-check every call of a jax.jit function against eager execution of the same call",
    )
    group.addoption(
        "--jaxlint-max-traces",
        type=int,
        default=5,
        metavar="N",
        help="with --jaxlint-verify, report functions traced more than N times (default 5)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("jaxlint_verify"):
        return
    from jaxlint_runtime.crosscheck import CrossCheckPlugin

    plugin = CrossCheckPlugin(max_traces=config.getoption("jaxlint_max_traces") or 0)
    plugin.install()
    config.pluginmanager.register(plugin, "jaxlint-crosscheck")
