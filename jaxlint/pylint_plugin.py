"""The name pylint users put in ``load-plugins``: ``jaxlint.pylint_plugin``.

pylint loads a plugin by module name and calls its ``register``; the plugin itself lives with the
other hosts, in :mod:`jaxlint.hosts.pylint`. This module keeps the documented name stable.
"""

from jaxlint.hosts.pylint import register

__all__ = ["register"]
