"""Where users meet jaxlint: the command line, the flake8 and pylint plugins, the language
server, the output formats (``reporters``) and the rule documentation (``docs``).

Every host lints through :func:`jaxlint.engine.linter.analyze` with the settings of
:mod:`jaxlint.project.settings`, so all of them report the same findings.
"""
