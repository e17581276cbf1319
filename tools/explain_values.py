"""Development aid: print the model's value of every expression on the given lines of a file.

Usage: python tools/explain_values.py FILE LINE [LINE...]
"""

from __future__ import annotations

import ast
import sys

from jaxlint.engine.linter import RuleSet
from jaxlint.engine.registry import rule_codes
from jaxlint.semantic.model import SemanticModel
from jaxlint.semantic.values import describe as show


def main() -> None:
    path, lines = sys.argv[1], {int(n) for n in sys.argv[2:]}
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    ruleset = RuleSet.from_codes(rule_codes())
    model = SemanticModel(tree, frozenset(), ruleset.node_types)
    for scope in model.index.functions:
        info = model.infos[scope.node]
        if info.node.lineno in lines or any(getattr(n, "lineno", 0) in lines for n in ast.walk(info.node)):
            print(
                f"function {info.name} level={info.effective_level} params={ {k: show(v) for k, v in info.params.items()} } why={info.why!r}"
            )
    for node in ast.walk(tree):
        if isinstance(node, ast.expr) and getattr(node, "lineno", None) in lines:
            value = model.values.get(node)
            if value is not None:
                print(f"{node.lineno}:{node.col_offset} {show(value):6} {ast.unparse(node)[:70]}")


if __name__ == "__main__":
    main()
