"""docs/RULES.md, the rulebook shipped with the code, stays in step with it:
every option of every game's spec is in its section's option tables with its
default, every policy is named, and every function it cites exists."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from cardmc import registry

RULES = Path(__file__).resolve().parents[1] / "docs" / "RULES.md"
TEXT = RULES.read_text()
REFERENCE = re.compile(r"cardmc\.kernels\.[A-Za-z_][\w.]*[A-Za-z0-9_]")
ROW = re.compile(r"^\| `(\w+)` \| `?([^|`]+?)`? \|", re.M)


def section(title: str) -> str:
    """The text of the ``## N. title`` section."""
    parts = re.split(r"^## ", TEXT, flags=re.M)
    (found,) = [p for p in parts if re.match(rf"\d\. {re.escape(title)}\n", p)]
    return found


def shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("game", registry.GAMES)
def test_every_option_is_in_its_games_table_with_its_default(game):
    spec = registry.get(game)
    text = section(spec.title)
    rows = dict(ROW.findall(text))
    for name, option in {**spec.rules, **spec.options}.items():
        assert name in rows, f"{game}: option {name} is not in a table of docs/RULES.md"
        assert rows[name] == shown(option.default), (game, name, rows[name], option.default)
    for policy in spec.policies:
        assert f"`{policy}`" in text, (game, policy)


def test_every_cited_function_exists():
    cited = sorted(set(REFERENCE.findall(TEXT)))
    assert len(cited) >= 40
    for ref in cited:
        module, name = ref.rsplit(".", 1)
        target = getattr(importlib.import_module(module), name, None)
        assert callable(target), f"docs/RULES.md cites {ref}, which is not a function"


def test_schieber_contract_table_matches_the_kernel():
    from cardmc.kernels import schieber as k

    rows = re.findall(r"^\| [^|]+ \| `(\w+)` \| [^|]+ \| [^|]+ \| x(\d) \|$", section("Schieber Jass"), re.M)
    assert {code: int(m) for code, m in rows} == dict(zip(k.CONTRACT_NAMES, k.MULTIPLIER.tolist()))
