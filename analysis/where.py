"""Filters on row columns: ``--where "trumps >= 4 and aces >= 2"``.

A filter is a Python-like expression of the frame's numeric columns, numbers,
the comparisons ``== != < <= > >=`` (chained ones too, ``1 <= aces <= 3``),
``and``, ``or``, ``not`` and parentheses (not ``&``, ``|``, ``~``: they bind
before comparisons in Python's grammar). Anything else (a name that is not a column,
attribute access, a call, arithmetic, a string, a subscript) is refused with
one line naming it. The text is never executed: ``check`` reads its syntax
tree and ``mask`` evaluates that tree on the columns with numpy.

    >>> rows = rows[where.mask(rows, "trumps >= 4 and aces >= 2")]
"""

from __future__ import annotations

import ast
import operator

import numpy as np
import pandas as pd

from cardmc.registry import UsageError

COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def check(text: object, columns) -> ast.Expression:
    """The syntax tree of filter ``text`` over ``columns``; ``UsageError`` names
    the first thing a filter may not hold."""
    if not isinstance(text, str) or not text.strip():
        raise UsageError(f"a filter is an expression such as 'trumps >= 4 and aces >= 2', not {text!r}")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise UsageError(f"filter {text!r} is not an expression ({exc.msg})") from None
    known = set(columns)
    _check_node(tree.body, text, known)
    return tree


def _check_node(node: ast.AST, text: str, known: set) -> None:
    def refuse(what: str):
        raise UsageError(
            f"filter {text!r}: {what} is not allowed (columns, numbers, comparisons, and/or/not only)"
        )

    if isinstance(node, ast.BoolOp):
        for value in node.values:
            _check_node(value, text, known)
    elif isinstance(node, (ast.BinOp, ast.UnaryOp)) and type(node.op) in (ast.BitAnd, ast.BitOr, ast.Invert):
        refuse(f"{ast.unparse(node)!r} (write and, or, not instead of &, |, ~)")
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        _check_node(node.operand, text, known)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        if not _is_number(node.operand):
            refuse(f"the sign in {ast.unparse(node)!r}")
    elif isinstance(node, ast.Compare):
        for op in node.ops:
            if type(op) not in COMPARE:
                refuse(f"the operator {type(op).__name__!r} in {ast.unparse(node)!r}")
        for part in (node.left, *node.comparators):
            _check_node(part, text, known)
    elif isinstance(node, ast.Name):
        if node.id not in known:
            raise UsageError(
                f"filter {text!r}: unknown column {node.id!r}; columns: {', '.join(sorted(known))}"
            )
    elif _is_number(node):
        pass
    elif isinstance(node, ast.Attribute):
        refuse(f"attribute access {ast.unparse(node)!r}")
    elif isinstance(node, ast.Call):
        refuse(f"the call {ast.unparse(node)!r}")
    else:
        refuse(repr(ast.unparse(node)))


def _is_number(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
    )


def mask(df: pd.DataFrame, text: str) -> np.ndarray:
    """A boolean array: which rows of ``df`` pass filter ``text``."""
    tree = check(text, df.columns)
    out = _value(tree.body, df, text)
    if not isinstance(out, np.ndarray) or out.dtype != bool:
        raise UsageError(f"filter {text!r} is not a condition (write a comparison such as 'aces >= 2')")
    return out


def apply(df: pd.DataFrame, text: str | None) -> pd.DataFrame:
    """The rows of ``df`` that pass ``text`` (all of them for None), with ``attrs["where"]`` noting it."""
    if text is None:
        return df
    out = df[mask(df, text)]
    out.attrs.update(df.attrs)
    out.attrs["where"] = text
    return out


def _value(node: ast.AST, df: pd.DataFrame, text: str):
    if isinstance(node, ast.BoolOp):
        parts = [_condition(v, df, text) for v in node.values]
        return np.logical_and.reduce(parts) if isinstance(node.op, ast.And) else np.logical_or.reduce(parts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return ~_condition(node.operand, df, text)
    if isinstance(node, ast.UnaryOp):
        value = node.operand.value  # type: ignore[attr-defined]
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Compare):
        values = [_number(p, df, text) for p in (node.left, *node.comparators)]
        out = np.ones(len(df), dtype=bool)
        for op, a, b in zip(node.ops, values, values[1:]):
            out &= np.broadcast_to(np.asarray(COMPARE[type(op)](a, b), dtype=bool), out.shape)
        return out
    if isinstance(node, ast.Name):
        return _column(df, node.id, text)
    return node.value  # type: ignore[attr-defined]


def _condition(node: ast.AST, df: pd.DataFrame, text: str) -> np.ndarray:
    value = _value(node, df, text)
    if isinstance(value, np.ndarray) and value.dtype == bool:
        return value
    raise UsageError(
        f"filter {text!r}: {ast.unparse(node)!r} is not a condition (and, or and not join "
        "comparisons such as 'aces >= 2')"
    )


def _number(node: ast.AST, df: pd.DataFrame, text: str):
    value = _value(node, df, text)
    if isinstance(value, np.ndarray) and value.dtype == bool and not isinstance(node, ast.Name):
        raise UsageError(f"filter {text!r}: compare columns with numbers, not {ast.unparse(node)!r}")
    return value


def _column(df: pd.DataFrame, name: str, text: str) -> np.ndarray:
    col = df[name]
    if not (pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col)):
        raise UsageError(
            f"filter {text!r}: column {name!r} is not numeric ({col.dtype}); filters compare numbers"
        )
    return col.to_numpy()
