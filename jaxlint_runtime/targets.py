"""Find the user's code: ``path/to/file.py::func`` targets, factories, modules from source text.

Imports neither jax nor user code until asked to load something.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import os
import re
import sys
import types
from typing import Any

from jaxlint_runtime.rulemap import register_source

_counter = itertools.count()


class TargetError(Exception):
    """A target or factory that cannot be found (a usage error, reported in one line)."""


class UserCodeError(Exception):
    """User code raised while being imported; ``error`` is what it raised."""

    def __init__(self, error: Exception, path: str) -> None:
        super().__init__(f"importing {path} raised {type(error).__name__}: {error}")
        self.error = error
        self.path = path


def parse_target(text: str) -> tuple[str, str]:
    """Split ``path/to/file.py::name`` into the path and the (dotted) name."""
    path, separator, name = text.rpartition("::")
    if not separator or not path or not name:
        raise TargetError(f"target `{text}` must look like path/to/file.py::function")
    if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", name):
        raise TargetError(f"`{name}` in target `{text}` is not a Python name")
    if not os.path.isfile(path):
        raise TargetError(f"no such file: {path}")
    return path, name


def load_module_from_path(path: str) -> types.ModuleType:
    """Import a Python file: by its dotted name when it lies in a package (relative imports work),
    else as a new module whose folder goes on ``sys.path`` for its own imports."""
    package_module = _package_module(path)
    if package_module is not None:
        root, dotted = package_module
        return _import_from(root, dotted, path)
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    name = _module_name(path)
    spec = importlib.util.spec_from_file_location(name, os.path.abspath(path))
    if spec is None or spec.loader is None:
        raise TargetError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise UserCodeError(error, path) from error
    return module


def _package_module(path: str) -> tuple[str, str] | None:
    """(the folder above the outermost package, the module's dotted name), or None outside packages."""
    folder = os.path.dirname(os.path.abspath(path))
    parts = [os.path.splitext(os.path.basename(path))[0]]
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        parts.insert(0, os.path.basename(folder))
        folder = os.path.dirname(folder)
    if len(parts) == 1 or not all(part.isidentifier() for part in parts):
        return None
    return folder, ".".join(parts)


def _import_from(root: str, dotted: str, path: str) -> types.ModuleType:
    if root not in sys.path:
        sys.path.insert(0, root)
    try:
        module = importlib.import_module(dotted)
    except Exception as error:
        raise UserCodeError(error, path) from error
    if os.path.abspath(getattr(module, "__file__", "") or "") != os.path.abspath(path):
        raise TargetError(f"importing {path} as `{dotted}` found another module: {module.__file__}")
    return module


def load_module_from_source(source: str, filename: str, label: str) -> types.ModuleType:
    """Execute ``source`` as a new module whose code reports ``filename`` in tracebacks."""
    name = f"_jaxlint_{label}_{next(_counter)}_{_stem(filename)}"
    module = types.ModuleType(name)
    module.__file__ = filename
    sys.modules[name] = module
    register_source(filename, source)
    try:
        exec(compile(source, filename, "exec"), module.__dict__)
    except Exception as error:
        raise UserCodeError(error, filename) from error
    return module


def resolve(module: types.ModuleType, name: str, where: str) -> Any:
    """``module.name`` for a dotted ``name`` (``Class.method`` works too)."""
    value: Any = module
    for part in name.split("."):
        if not hasattr(value, part):
            raise TargetError(f"{where} has no `{name}`")
        value = getattr(value, part)
    return value


def load_target(text: str) -> tuple[Any, types.ModuleType]:
    """The object a ``file.py::name`` target names, and its module."""
    path, name = parse_target(text)
    module = load_module_from_path(path)
    target = resolve(module, name, path)
    if not callable(target):
        raise TargetError(f"`{name}` in {path} is not callable")
    return target, module


def load_factory(spec: str) -> Any:
    """The callable named by ``module:factory`` or ``path/to/file.py:factory``."""
    module_part, separator, name = spec.rpartition(":")
    if not separator or not module_part or not name:
        raise TargetError(f"--inputs `{spec}` must look like module:factory or path/to/file.py:factory")
    if module_part.endswith(".py") or os.sep in module_part:
        if not os.path.isfile(module_part):
            raise TargetError(f"no such file: {module_part}")
        module = load_module_from_path(module_part)
    else:
        module = _import(module_part)
    factory = resolve(module, name, module_part)
    if not callable(factory):
        raise TargetError(f"`{name}` in {module_part} is not callable")
    return factory


def _import(module_name: str) -> types.ModuleType:
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and module_name.startswith(error.name):
            raise TargetError(f"no module named `{module_name}`") from None
        raise UserCodeError(error, module_name) from error
    except Exception as error:
        raise UserCodeError(error, module_name) from error


def _module_name(path: str) -> str:
    return f"_jaxlint_target_{next(_counter)}_{_stem(path)}"


def _stem(path: str) -> str:
    return re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
