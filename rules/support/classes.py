"""What the rules ask about the classes of a module: plain classes, their hashing, and methods
compiled with a static ``self``."""

from __future__ import annotations

import ast

from jaxlint.engine.astutil import encloses
from jaxlint.engine.context import Context
from jaxlint.semantic.functions import FunctionInfo
from jaxlint.semantic.tracing import static_names, static_positions
from jaxlint.semantic.transforms import COMPILING_TRANSFORMS

# bases that make no pytree (measured with JAX 0.10.2: jitting a method of such a class raises)
PLAIN_BASES = frozenset({"abc.ABC", "typing.Generic", "typing_extensions.Generic"})


def plain_class(ctx: Context, cls: ast.ClassDef, depth: int = 0) -> bool:
    """A class of this module whose instances are not pytrees: no class decorator, no pytree
    registration, and bases that are ``object``, ``abc.ABC``, ``Generic[...]`` or plain classes
    of this module (a plain ``dataclasses.dataclass`` is no pytree unless registered)."""
    model = ctx.model
    own = model.index.scopes.get(cls)
    scope = own.parent if own is not None and own.parent is not None else model.index.module
    decorators = {model.qualname(d.func if isinstance(d, ast.Call) else d, scope) for d in cls.decorator_list}
    metaclasses = {model.qualname(k.value, scope) for k in cls.keywords if k.arg == "metaclass"}
    if (
        depth > 8
        or decorators - {"dataclasses.dataclass"}
        or len(metaclasses) != len(cls.keywords)
        or metaclasses - {"abc.ABCMeta"}
        or model.pytree_class(cls) is not None
    ):
        return False
    if cls in model.pytree_fields.custom_classes or model.is_flax_module(cls):
        return False
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id == "object":
            continue
        generic = base.value if isinstance(base, ast.Subscript) else base  # `Generic[T]`
        if model.qualname(generic, scope) in PLAIN_BASES:
            continue
        parent = model.class_named(base, scope)
        if parent is None or not plain_class(ctx, parent, depth + 1):
            return False
    return True


def self_static_at(function: FunctionInfo, site: ast.AST) -> bool | None:
    """Whether the jit decorator holding ``site`` marks the method's ``self`` static; None where
    the site is no decorator of the method (``jax.jit(obj.method)`` keeps the bound ``self``)."""
    decorator = _decorator_holding(function, site)
    if decorator is None:
        return None
    return function.positional_names()[0] in _declared_static(function, decorator)


def static_everywhere(function: FunctionInfo) -> frozenset[str]:
    """The parameters every jit site of ``function`` declares static (none for a method jitted
    bound, ``jax.jit(obj.method)``, whose positions shift by one)."""
    found: set[str] | None = None
    for site in function.jit_sites:
        decorator = _decorator_holding(function, site)
        if decorator is None and function.is_method:
            return frozenset()
        here = _declared_static(function, decorator if decorator is not None else site)
        found = here if found is None else found & here
    return frozenset(found or ())


def _decorator_holding(function: FunctionInfo, site: ast.AST) -> ast.expr | None:
    return next((d for d in getattr(function.node, "decorator_list", []) if encloses(d, site)), None)


def _declared_static(function: FunctionInfo, jit: ast.AST) -> set[str]:
    """The parameters a jit (a decorator, or a ``jax.jit(f, ...)`` call) declares static, by
    ``static_argnums`` or ``static_argnames``."""
    call = jit if isinstance(jit, ast.Call) else None
    positions, names = static_positions(call) or set(), static_names(call) or set()
    positional = function.positional_names()
    return {positional[i] for i in positions if 0 <= i < len(positional)} | names


def hashes_by_identity(ctx: Context, cls: ast.ClassDef) -> bool:
    """Whether objects of ``cls`` hash by identity: a plain class of this module that defines no
    hashing or equality of its own (JAX then finds a static object's program by the object)."""
    return plain_class(ctx, cls) and not _hashes_by_value(ctx, cls)


def identity_hashed(ctx: Context, cls: ast.ClassDef) -> bool:
    """Whether objects of ``cls`` hash and compare by identity: a plain class with no hashing or
    equality of its own, or a ``@dataclass(eq=False)`` (equal fields make no equal objects)."""
    if hashes_by_identity(ctx, cls):
        return True
    if not plain_class(ctx, cls) or len(cls.decorator_list) != 1:
        return False
    decorator = cls.decorator_list[0]
    return (
        isinstance(decorator, ast.Call)
        and any(
            k.arg == "eq" and isinstance(k.value, ast.Constant) and k.value.value is False
            for k in decorator.keywords
        )
        and not any(_defines(item) & {"__hash__", "__eq__"} for item in cls.body)
    )


def module_bound_jits(ctx: Context, function: FunctionInfo) -> dict[str, tuple[str, ast.Call]]:
    """``probs = jax.jit(sampler.probs)`` at module level, for each name holding the method
    jitted bound to a module object: the object's name and the jit. Empty unless every jit of
    the method is such (none decorates it)."""
    if function.jit_sites or not function.bound_jit_sites:
        return {}
    name = getattr(function.node, "name", None)
    found: dict[str, tuple[str, ast.Call]] = {}
    module = ctx.model.index.module
    for statement in ctx.model.tree.body:
        value = statement.value if isinstance(statement, ast.Assign) and len(statement.targets) == 1 else None
        target = statement.targets[0] if isinstance(statement, ast.Assign) else None
        if value is None or value not in function.bound_jit_sites or not isinstance(target, ast.Name):
            continue
        method = value.args[0] if isinstance(value, ast.Call) and len(value.args) == 1 else None
        if not (
            isinstance(method, ast.Attribute) and method.attr == name and isinstance(method.value, ast.Name)
        ):
            continue
        if module.bound.get(method.value.id) != 1 or module.bound.get(target.id) != 1:
            continue
        found[target.id] = (method.value.id, value)  # pyright: ignore[reportArgumentType]
    return found if len(found) == len(function.bound_jit_sites) else {}


def static_self_class(ctx: Context, function: FunctionInfo, attr: str | None = None) -> ast.ClassDef | None:
    """The class of a method that every jit site compiles with ``self`` static (a decorator
    with ``static_argnums=0``), when the class is plain and hashes by identity (no ``__hash__``
    or ``__eq__``, no decorator): JAX then finds the compiled program by the object itself,
    whatever its attributes hold now. Given the ``attr`` that changes, a plain class with its
    own hashing counts too: JAX's cache keeps the object as the key, which changes with it, so
    even hashing that covers ``attr`` finds the old program (measured with JAX 0.10.2). None
    otherwise."""
    node = function.node
    bound = jitted_once_bound(ctx, function)
    if bound is not None:
        return bound
    owner = ctx.model.index.parents[node].node
    if function.is_method and isinstance(owner, ast.ClassDef) and module_bound_jits(ctx, function):
        return owner  # jitted bound once, at module level: the object is a constant of that trace
    if not function.is_method or not function.positional_names() or not function.jit_sites:
        return None
    decorators = getattr(node, "decorator_list", [])
    if any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in decorators):
        return None
    cls = ctx.model.index.parents[node].node
    if not isinstance(cls, ast.ClassDef):
        return None
    if not all(self_static_at(function, site) for site in function.jit_sites):
        return None
    if hashes_by_identity(ctx, cls) or (
        attr is not None and plain_class(ctx, cls) and not cls.decorator_list
    ):
        return cls
    return None


def hash_basis(ctx: Context, cls: ast.ClassDef) -> str:
    """How JAX's cache finds the program of a static object of ``cls``, as a message fragment."""
    if hashes_by_identity(ctx, cls):
        return "the object's identity"
    return (
        "its own `__hash__` and `__eq__`, but the cache keeps the object itself as the key, so a "
        "change to it changes the key too"
    )


def jitted_once_bound(ctx: Context, function: FunctionInfo) -> ast.ClassDef | None:
    """The class of a method its ``__init__`` jits bound and keeps, ``self.compute =
    jax.jit(self.compute)`` (or under another name, ``self.step_fn = jax.jit(self.step)``):
    each object holds one jitted function, traced once with that ``self`` as a constant,
    whatever the class's hashing. None otherwise."""
    found = bound_jit_holders(ctx, function)
    return found[0] if found is not None else None


def bound_jit_holders(ctx: Context, function: FunctionInfo) -> tuple[ast.ClassDef, frozenset[str]] | None:
    """The class of a method its ``__init__`` jits bound and keeps (see
    :func:`jitted_once_bound`), and the attributes of ``self`` that hold the jitted method."""
    name = getattr(function.node, "name", "")
    owner = function.scope.parent
    cls = owner.node if owner is not None else None
    if not function.is_method or not isinstance(cls, ast.ClassDef):
        return None
    init = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    this = init.args.args[0].arg if init is not None and init.args.args else None
    holders: set[str] = set()
    for statement in init.body if init is not None else []:
        value = statement.value if isinstance(statement, ast.Assign) and len(statement.targets) == 1 else None
        target = statement.targets[0] if isinstance(statement, ast.Assign) else None
        if (
            isinstance(value, ast.Call)
            and len(value.args) == 1
            and _names(value.args[0], this, name)
            and isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == this
            and ctx.qualname(value.func) in COMPILING_TRANSFORMS
        ):
            holders.add(target.attr)
    return (cls, frozenset(holders)) if holders else None


def _names(expr: ast.expr, this: str | None, attr: str) -> bool:
    return (
        isinstance(expr, ast.Attribute)
        and expr.attr == attr
        and isinstance(expr.value, ast.Name)
        and expr.value.id == this
    )


def _hashes_by_value(ctx: Context, cls: ast.ClassDef, depth: int = 0) -> bool:
    """Whether the class or a base of this module decides its own hashing or equality."""
    if cls.decorator_list or depth > 8:
        return True
    if any(_defines(item) & {"__hash__", "__eq__"} for item in cls.body):
        return True
    scope = ctx.model.index.scopes.get(cls)
    outer = scope.parent if scope is not None and scope.parent is not None else ctx.model.index.module
    parents = (ctx.model.class_named(base, outer) for base in cls.bases)
    return any(parent is not None and _hashes_by_value(ctx, parent, depth + 1) for parent in parents)


def _defines(statement: ast.stmt) -> set[str]:
    """The names a statement of a class body defines (``def``, or ``__hash__ = ...``)."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return {statement.name}
    if isinstance(statement, ast.Assign):
        return {t.id for t in statement.targets if isinstance(t, ast.Name)}
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return {statement.target.id}
    return set()


def dataclass_options(ctx: Context, cls: ast.ClassDef) -> dict[str, bool] | None:
    """The options of the first ``@dataclasses.dataclass`` decorating ``cls`` (``{}`` for a bare
    one, ``{"frozen": True}`` for ``@dataclass(frozen=True)``); None where none decorates it or
    an option is not a constant."""
    scope = ctx.model.index.parents.get(cls, ctx.model.index.module)
    for decorator in cls.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        if ctx.model.qualname(call.func if call else decorator, scope) != "dataclasses.dataclass":
            continue
        keywords = call.keywords if call else []
        if any(not isinstance(k.value, ast.Constant) or k.arg is None for k in keywords):
            return None
        return {k.arg: bool(k.value.value) for k in keywords}  # pyright: ignore[reportAttributeAccessIssue, reportReturnType]
    return None
