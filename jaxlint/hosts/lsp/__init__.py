"""``jaxlint server``: the Language Server Protocol over stdio, for editors.

pygls is an optional dependency (the ``lsp`` extra); without it the command says how to get it.
"""

from __future__ import annotations

import sys

INSTALL_HINT = (
    "jaxlint: error: `jaxlint server` needs pygls 2: install jaxlint with the `lsp` extra "
    "(`pip install '.[lsp]'` in a checkout) or run `pip install 'pygls>=2'`"
)


def run_server() -> int:
    """Serve until the client exits; 2 with a one-line hint when pygls is missing."""
    try:
        import pygls  # noqa: F401
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    from jaxlint.hosts.lsp.server import serve

    serve()
    return 0
