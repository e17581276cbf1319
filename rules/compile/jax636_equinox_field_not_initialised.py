"""JAX636: a field of an equinox module that its ``__init__`` never assigns."""

from __future__ import annotations

import ast

from jaxlint.engine.context import Context
from jaxlint.engine.rule import Rule


class EquinoxFieldNotInitialised(Rule):
    """## What it does
    Finds a field declared on an `eqx.Module` subclass (`scale: jax.Array`, no default) that
    the class's own `__init__` never assigns (`self.scale = ...`), where that `__init__`
    calls no other method that could.

    ## Why is this bad?
    An equinox module is a frozen dataclass: once `__init__` returns, equinox checks that every
    field was set and raises `TypeError` ("Field 'scale' was not initialized") on construction.
    Assign the field in `__init__`, give it a default, or remove it.

    ## Example
    ```python
    import equinox as eqx
    import jax

    class Encoder(eqx.Module):
        linear: eqx.nn.Linear
        scale: jax.Array

        def __init__(self, key):
            self.linear = eqx.nn.Linear(3, 2, key=key)
    ```

    ## Use instead
    ```python
    import equinox as eqx
    import jax
    import jax.numpy as jnp

    class Encoder(eqx.Module):
        linear: eqx.nn.Linear
        scale: jax.Array

        def __init__(self, key):
            self.linear = eqx.nn.Linear(3, 2, key=key)
            self.scale = jnp.ones(2)
    ```

    ## Fix safety
    No automatic fix: the field's initial value is the author's call.

    ## References
    - [equinox: Module](https://docs.kidger.site/equinox/api/module/module/)
    """

    code = "JAX636"
    name = "equinox-field-not-initialised"
    message = "A field of an equinox module is never assigned by its `__init__`"
    outcome = "TypeError: Field ... was not initialized"
    visits_anywhere = frozenset({ast.ClassDef})

    def visit_ClassDef(self, node: ast.ClassDef, ctx: Context) -> None:
        pytree = ctx.model.pytree_class(node)
        if pytree is None or not pytree.only_arrays_traced:
            return
        init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
        if init is None or not init.args.args or _delegates(init):
            return
        assigned = {
            attr
            for attr, stores in ctx.model.self_stores(node).items()
            if any(store.method is init for store in stores)
        }
        for field in _declared_fields(node):
            if field.target.id not in assigned:  # pyright: ignore[reportAttributeAccessIssue]
                name = field.target.id  # pyright: ignore[reportAttributeAccessIssue]
                ctx.report(
                    field,
                    f"`{name}` is a field of equinox module `{node.name}`, but its `__init__` (line "
                    f"{init.lineno}) never assigns `self.{name}`: constructing one raises `TypeError` "
                    f"(Field '{name}' was not initialized); assign it in `__init__`, or give it a default",
                )


def _declared_fields(cls: ast.ClassDef) -> list[ast.AnnAssign]:
    """The class's own fields with no default (``scale: jax.Array``), not ``ClassVar``s."""
    return [
        statement
        for statement in cls.body
        if isinstance(statement, ast.AnnAssign)
        and statement.value is None
        and isinstance(statement.target, ast.Name)
        and "ClassVar" not in ast.unparse(statement.annotation)
        and "InitVar" not in ast.unparse(statement.annotation)
    ]


def _delegates(init: ast.FunctionDef) -> bool:
    """Whether ``__init__`` may set fields some other way: ``super().__init__``, a method of
    ``self``, ``setattr``/``object.__setattr__``, ``self.__dict__``."""
    this = init.args.args[0].arg
    for node in ast.walk(init):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("setattr", "super", "vars"):
                return True
            if isinstance(func, ast.Attribute) and (
                func.attr in ("__setattr__", "__init__")
                or (isinstance(func.value, ast.Name) and func.value.id == this)
            ):
                return True
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            return True
    return False
