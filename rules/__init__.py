"""jaxlint's rules (installed as ``jaxlint.rules``), one per module, grouped by family:

``purity`` (JAX1xx), ``mutation`` (JAX2xx), ``prng`` (JAX3xx), ``shapes`` (JAX4xx),
``control_flow`` (JAX5xx), ``compile`` (JAX6xx). A family folder holds its rules
(``jaxNNN_<name>.py``) and the helpers only that family uses; ``support`` holds the helpers
several families share. Rules are discovered by :mod:`jaxlint.engine.registry`, never listed.
Inside this package, modules import each other relatively (``from ..support.explain import
snippet``): the editable install maps ``jaxlint.rules`` to this folder, which type checkers
follow only through relative imports.
"""
