"""pytest plugin (entry point ``pytest11``): ``pytest --jaxlint-verify``.

Imports nothing heavy until the option is given: the cross-checking lives in
``jaxlint_runtime.crosscheck``. It is installed before the first conftest is imported, so
``jax.jit`` functions defined there are checked too.
"""

from __future__ import annotations

from typing import Any

import pytest

PLUGIN_NAME = "jaxlint-crosscheck"


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


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(
    early_config: pytest.Config, parser: pytest.Parser, args: list[str]
) -> None:
    options = early_config.known_args_namespace
    if getattr(options, "jaxlint_verify", False):
        _install(early_config, getattr(options, "jaxlint_max_traces", 5))


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("jaxlint_verify") and not config.pluginmanager.has_plugin(PLUGIN_NAME):
        _install(config, config.getoption("jaxlint_max_traces"))


def _install(config: pytest.Config, max_traces: Any) -> None:
    from jaxlint_runtime.cli import INSTALL_HINT, jax_available

    if not jax_available():  # one line from pytest (exit 4), not a traceback
        raise pytest.UsageError(INSTALL_HINT.replace("`jaxlint verify`", "--jaxlint-verify"))
    from jaxlint_runtime.crosscheck import CrossCheckPlugin

    plugin = CrossCheckPlugin(max_traces=int(max_traces))
    plugin.install()
    config.pluginmanager.register(plugin, PLUGIN_NAME)
