"""cardmc odds refuses an option its game's advice does not take (another game's, or a misspelt one):
one line naming it and exit 2 on the command line, a UsageError naming it in Python."""

from __future__ import annotations

import subprocess
import sys

import pytest

import cardmc
from cardmc.registry import UsageError

HANDS = {
    "schieber": "JS 9S AS KH QH TD 8D 7C 6C",
    "differenzler": "JS 9S AS KH QH TD 8D 7C 6C",
    "english_jazz": "JS 9S AS KS QS TS AH KH QH AD KD QD",
    "norwegian_jazz": "AS 9S 8S 7S 5S KH 7H 3H 8D 6D 4C 3C 2C",
}
# an option of another game's advice, as the command line and Python write it
FOREIGN = {
    "schieber": (["--candidates", "40"], "candidates", {"candidates": 40}),
    "differenzler": (["--players", "3"], "players", {"players": 3}),
    "english_jazz": (["--trump-card", "7H"], "trump_card", {"trump_card": "7H"}),
    "norwegian_jazz": (["--pushed"], "pushed", {"pushed": True}),
}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardmc.cli", *args], capture_output=True, text=True)


@pytest.mark.parametrize("game", sorted(FOREIGN))
def test_another_games_option_is_one_line_and_exit_2(game, tmp_path):
    args, name, _ = FOREIGN[game]
    out = tmp_path / "odds.csv"
    done = run("odds", game, "--hand", HANDS[game], *args, "--games", "100", "--out", str(out))
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert len(lines) == 1 and name in lines[0] and lines[0].startswith("cardmc: "), done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", sorted(FOREIGN))
def test_another_games_option_is_a_usage_error_naming_it(game):
    _, name, given = FOREIGN[game]
    with pytest.raises(UsageError, match=name):
        cardmc.odds(game, HANDS[game], games=10, **given)


def test_a_misspelt_option_is_named():
    with pytest.raises(UsageError, match="'seeds'"):
        cardmc.odds("schieber", HANDS["schieber"], games=10, seeds=3)
    with pytest.raises(UsageError, match="'candidates'"):
        cardmc.odds.odds("schieber", HANDS["schieber"], candidates=40)
