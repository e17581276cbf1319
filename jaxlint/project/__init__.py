"""Projects and files: which files to check, how to read them, with which settings, and the
whole-project run (workers, cache, cross-module tracing) that ``jaxlint check`` performs.

- :mod:`~jaxlint.project.files` and :mod:`~jaxlint.project.notebooks`: discovery and reading.
- :mod:`~jaxlint.project.config` and :mod:`~jaxlint.project.settings`: ``[tool.jaxlint]``, and
  the settings and rules that apply to one file.
- :mod:`~jaxlint.project.runner`: checking and fixing many files; :mod:`~jaxlint.project.cache`
  its per-file results; :mod:`~jaxlint.project.workspace` the same model for long-lived hosts.
"""
