"""The ``cardmc`` command line: simulate, analyze, compare, ladder, trace, odds, calibrate, train, bench,
report."""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path

from cardmc import cli_solve
from cardmc.registry import GAMES, UsageError

EPILOG = """examples:
  cardmc simulate differenzler --games 10000000 --seed 1 --out diff.parquet
  cardmc analyze differenzler diff.parquet
  cardmc trace differenzler --games 10 --seed 1 --policy heuristic --out diff.jsonl
  cardmc bench differenzler
  cardmc report --quick

the same from Python:
  import cardmc
  df = cardmc.simulate("differenzler", games=100_000, seed=1)   # a DataFrame
  tables = cardmc.analyze("differenzler", df)                   # dict of DataFrames with 95% CIs

the rules cardmc plays, every option with its default: docs/RULES.md
"""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: the message, then where to read more."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"cardmc: error: {message} (see '{self.prog} --help')\n")


def positive_int(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, not {text!r}")
    return value


def seed_int(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number 0..2**63-1, not {text!r}") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"must be a whole number 0..2**63-1, not {text!r}")
    return value


def setting(text: str) -> tuple[str, str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {text!r}")
    name, value = text.split("=", 1)
    return name.strip(), value.strip()


def _game(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=GAMES, metavar="GAME", help=f"one of {', '.join(GAMES)}")


def _run_args(p: argparse.ArgumentParser, games_default: int | None = None) -> None:
    p.add_argument(
        "--games",
        type=positive_int,
        default=games_default,
        required=games_default is None,
        help="number of games to play (a game: 4 deals of Differenzler, 12 of English Jazz, "
        "6 of Norwegian Jazz, a Schieber match)",
    )
    p.add_argument(
        "--seed", type=seed_int, default=0, help="random seed (default 0): game i of seed s is fixed"
    )
    p.add_argument(
        "--policy",
        default=None,
        help="player policy: a name for every seat, or one per seat "
        "separated by commas (default: the game's best): random, heuristic; Differenzler also "
        "calibrated and PLAY:DECLARE; every game also pimc, the "
        "search player (--set pimc_samples=K, --set pimc_tricks=T; a second or so a game)",
    )
    p.add_argument(
        "--players", type=positive_int, default=None, help="number of players (Norwegian Jazz: 3-7)"
    )
    p.add_argument(
        "--set",
        dest="settings",
        type=setting,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule or simulation option by its docs/RULES.md name, e.g. --set max_extra_deals=2 "
        "(repeatable)",
    )
    p.add_argument(
        "--calibration",
        metavar="FILE",
        default=None,
        help="Differenzler: the table of calibrated declarations to play with (a file written by "
        "cardmc calibrate; default: the table shipped with cardmc)",
    )


PROBE_DISTANCES = (-20, -10, -5, -1, 0, 1, 5, 10, 20)  # bench --solver --probes: points from the value

CONDITIONS = """Fix cards of any seat; the rest are dealt uniformly at random from the
cards left, in every deal of every game (Norwegian Jazz: only deal N).
Seats are absolute (0..n-1). Reproducible by seed, game, deal and condition.
See docs/RULES.md, "Conditions"."""


def add_condition_arguments(parser) -> None:
    """The condition options (``--hand``, ``--trump-card``, ``--deal``) of a
    command that deals games; ``condition_kwargs`` reads them."""
    g = parser.add_argument_group("conditions", CONDITIONS)
    g.add_argument(
        "--hand",
        dest="hands",
        action="append",
        default=[],
        metavar="SEAT:CARDS",
        help='cards seat SEAT holds (all or some), e.g. --hand "1:JS 9S AS" (repeatable)',
    )
    g.add_argument(
        "--trump-card",
        default=None,
        metavar="CARD",
        help="Differenzler: the face-up trump card of every deal (it goes to that deal's dealer; "
        "no --hand may hold it)",
    )
    g.add_argument(
        "--deal",
        default=None,
        metavar="N",
        help="Norwegian Jazz: the deal 1..6 the --hand cards are dealt in (required with --hand "
        "there; the other deals stay random)",
    )


def condition_kwargs(args) -> dict:
    """The condition keywords of ``cardmc.simulate``/``trace`` (and ``job.make``)
    from ``add_condition_arguments``' options."""
    return {"hands": args.hands or None, "trump_card": args.trump_card, "deal": args.deal}


def odds_arguments(p) -> None:
    """The options of ``cardmc odds``: the common ones, then each game's own."""
    p.add_argument("game", choices=GAMES, metavar="GAME", help=f"one of {', '.join(GAMES)}")
    p.add_argument(
        "--hand",
        dest="hands",
        action="append",
        default=[],
        metavar="CARDS",
        help='the asking seat\'s cards, e.g. "JS 9S AS ..."; SEAT:CARDS fixes cards of another seat '
        "(repeatable; a part of a hand is allowed where the game says so)",
    )
    p.add_argument("--seat", type=int, default=None, help="the asking seat (default: the game's)")
    p.add_argument("--dealer", type=int, default=None, help="the dealer's seat (default: the game's)")
    p.add_argument("--games", type=positive_int, default=None, help="deals at most (default: the game's)")
    p.add_argument("--seed", type=seed_int, default=0, help="random seed (default 0)")
    p.add_argument(
        "--policy",
        default=None,
        help="policy of the players (default: the game's strongest fast player, learned where it has one, "
        "else its default; the output names it); also pimc, "
        "the search player (hundredths of a second to seconds a deal: set --games or --max-seconds)",
    )
    p.add_argument(
        "--set",
        dest="settings",
        type=setting,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option by its docs/RULES.md name (repeatable)",
    )
    p.add_argument(
        "--target-se",
        type=float,
        default=None,
        help="stop once every reported standard error is at most this (checked every 16,384 deals)",
    )
    p.add_argument("--max-seconds", type=float, default=None, help="stop after this many seconds")
    p.add_argument("--threads", type=positive_int, default=None, help="Numba threads (default: all cores)")
    p.add_argument(
        "--out",
        default=None,
        help="FILE.csv: every table in one CSV; a name without .csv: a folder of one CSV per table",
    )
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    g = p.add_argument_group("Differenzler")
    g.add_argument("--trump-card", default=None, help="the face-up trump card, held by the dealer")
    g.add_argument(
        "--candidates", default=None, help="declarations to evaluate, e.g. 0:157:5 (default) or 40,45,50"
    )
    g = p.add_argument_group("Schieber")
    g.add_argument(
        "--pushed", action="store_true", help="the hand is the partner's after the forehand pushed"
    )
    g = p.add_argument_group("Norwegian Jazz")
    g.add_argument("--players", type=positive_int, default=None, help="number of players (3-7)")
    g.add_argument("--deal", type=positive_int, default=None, help="the deal number 1-6")


def odds_options(args) -> dict:
    """The keyword arguments of ``cardmc.odds`` from a command line."""
    own = [h for h in args.hands if not _seat_prefixed(h)]
    if len(own) > 1:
        raise UsageError("--hand without SEAT: is the asking seat's hand and may be given once")
    options = {
        "hand": own[0] if own else None,
        "hands": [h for h in args.hands if _seat_prefixed(h)],
        "seat": args.seat,
        "dealer": args.dealer,
        "games": args.games,
        "seed": args.seed,
        "policy": args.policy,
        "settings": _settings(args),
        "target_se": args.target_se,
        "max_seconds": args.max_seconds,
        "threads": args.threads,
        "progress": not args.no_progress,
        "trump_card": args.trump_card,
        "candidates": args.candidates,
        "pushed": args.pushed or None,
        "players": args.players,
        "deal": args.deal,
    }
    return {k: v for k, v in options.items() if v is not None and v != [] and v != {}}


def _seat_prefixed(text: str) -> bool:
    head = text.split(":", 1)[0].strip()
    return ":" in text and head.isdigit()


COMPARE_HELP = """arms (--arm, two or more; the first is the base of every difference):
  [NAME=]POLICY[; OPTION=VALUE]...
  --arm heuristic                                   every seat plays heuristic
  --arm "random,heuristic,random,heuristic"         one policy per seat
  --arm "heuristic; undenufe_points=six"            a policy with rule options (--set names)
  --arm "; max_extra_deals=2"                       the default policy with an option
  --arm "swiss=heuristic; undenufe_points=six"      the same, named swiss (default: the text)

measure (default: the game's own, over the seats whose policy differs from the
first arm's, or every seat when none differs):
  differenzler: penalty per hand (regular deals); schieber: points per deal of
  that team and its match wins; english_jazz, norwegian_jazz: score per deal
  and wins of those seats. --measure COLUMN takes a row column instead (its
  mean per game over those seats' rows). One value per game; differences are
  paired per game (mean and SE of the per-game difference), 95% CIs, Wilson
  for a share. --where selects rows before the measure; a filter on hand
  features of the dealt cards passes the same rows in every arm.

example:
  cardmc compare differenzler --arm heuristic --arm random --arm calibrated --target-se 0.05
  cardmc compare schieber --arm heuristic --arm "heuristic,random,heuristic,random" --max-seconds 30
"""


LADDER_HELP = """players (default: the game's lineup, e.g. random heuristic pimc pimc@2):
  a policy name the game knows, played at each of its seats, or pimc@N, the
  search player searching from N tricks left (pimc_tricks=N)

Each player meets every player before it, X (the later) against Y, in
duplicate: every game twice on the same deals, X at the even seats and Y at
the odd ones, then the seats swapped. The figure is the game's own measure of
X's seats minus Y's, one value a game, with its 95% CI, paired on the deals:
differenzler: penalty per hand; schieber: share of the card points, points per
deal and match wins of the team; english_jazz, norwegian_jazz: score per deal
and wins. Two search players at different depths cannot share a table and are
not paired. Each player's seconds a decision are timed apart: every seat
playing it, one thread, the seed's first games for about a second.

example:
  cardmc ladder schieber --games 20000 --search-games 50
  cardmc ladder differenzler random calibrated pimc@3 --max-seconds 60 --out ladder.csv
"""


def ladder_arguments(parser) -> None:
    """The options of ``cardmc ladder`` (an argparse parser or subparser)."""
    _game(parser)
    parser.add_argument(
        "lineup", nargs="*", metavar="PLAYER", help="the players (default: the game's lineup; see below)"
    )
    parser.add_argument(
        "--games", type=positive_int, default=10_000, help="games a pair at most (default 10,000)"
    )
    parser.add_argument(
        "--search-games",
        type=positive_int,
        default=100,
        help="games at most of a pair with a search player (default 100; a second or so a game)",
    )
    parser.add_argument(
        "--seed", type=seed_int, default=0, help="random seed (default 0): game i of seed s is fixed"
    )
    parser.add_argument(
        "--players", type=positive_int, default=None, help="number of players (Norwegian Jazz: 3-7)"
    )
    parser.add_argument(
        "--set",
        dest="settings",
        type=setting,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule or simulation option of every game (a player's own depth wins), repeatable",
    )
    parser.add_argument(
        "--target-se",
        type=float,
        default=None,
        help="a pair stops once the standard errors of its figures are below this",
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=None,
        help="a pair stops after this many seconds (between rounds)",
    )
    parser.add_argument(
        "--threads", type=positive_int, default=None, help="Numba threads (default: all cores)"
    )
    parser.add_argument("--no-timing", action="store_true", help="do not time the players' decisions")
    parser.add_argument("--out", default=None, metavar="FILE.csv", help="write the table as CSV")
    parser.add_argument("--force", action="store_true", help="overwrite an existing output file")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def where_argument(parser) -> None:
    """``--where``: a filter on the row columns (``cardmc analyze`` and ``cardmc compare``)."""
    parser.add_argument(
        "--where",
        default=None,
        metavar="FILTER",
        help='keep only rows that pass, e.g. "trumps >= 4 and aces >= 2": numeric row columns, '
        "numbers, == != < <= > >=, and, or, not, parentheses",
    )


def compare_arguments(parser) -> None:
    """The options of ``cardmc compare`` (an argparse parser or subparser)."""
    _game(parser)
    parser.add_argument(
        "--arm",
        dest="arms",
        action="append",
        required=True,
        metavar="ARM",
        help="an arm: [NAME=]POLICY[; OPTION=VALUE]... (repeat; see below)",
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        default=100_000,
        help="games at most (default 100,000), played in rounds of --block games",
    )
    parser.add_argument(
        "--seed", type=seed_int, default=0, help="random seed (default 0): game i of seed s is fixed"
    )
    parser.add_argument(
        "--players", type=positive_int, default=None, help="number of players (Norwegian Jazz: 3-7)"
    )
    parser.add_argument(
        "--set",
        dest="settings",
        type=setting,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option for every arm (an arm's own option wins), repeatable",
    )
    parser.add_argument(
        "--calibration",
        metavar="FILE",
        default=None,
        help="Differenzler: the table of calibrated declarations (default: the shipped one)",
    )
    parser.add_argument(
        "--measure",
        default=None,
        metavar="COLUMN",
        help="a row column to compare instead of the game's own measure, e.g. penalty, made, tricks",
    )
    where_argument(parser)
    parser.add_argument(
        "--target-se",
        type=float,
        default=None,
        help="stop once every difference's standard error is below this",
    )
    parser.add_argument(
        "--max-seconds", type=float, default=None, help="stop after this many seconds (between rounds)"
    )
    parser.add_argument(
        "--block",
        type=positive_int,
        default=10_000,
        help="games per round (default 10,000); "
        "the result of a given number of games does not depend on how the run stopped",
    )
    parser.add_argument(
        "--threads", type=positive_int, default=None, help="Numba threads (default: all cores)"
    )
    parser.add_argument("--out", default=None, metavar="FILE.csv", help="write the table as CSV")
    parser.add_argument("--force", action="store_true", help="overwrite an existing output file")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_condition_arguments(parser)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="cardmc",
        description="Monte Carlo analysis of Schieber, Differenzler, English Jazz and Norwegian Jazz.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from cardmc import __version__

    parser.add_argument("--version", action="version", version=f"cardmc {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "simulate",
        help="play many games and write one row per seat per deal",
        description="Play games and stream one row per seat per deal to Parquet (or CSV), or to a "
        "run folder that survives interruption (run the same command again to resume), here or "
        "on a Dask cluster.",
    )
    _game(p)
    _run_args(p)
    p.add_argument(
        "--out",
        required=True,
        help="output: a .parquet or .csv file, or a run folder (a name ending "
        "in / or without suffix) written chunk by chunk and resumable",
    )
    p.add_argument(
        "--chunk-games",
        type=positive_int,
        default=None,
        metavar="N",
        help="games per chunk of a run folder or cluster run (default: 524288, fewer for "
        "small runs; a resumed run keeps its own)",
    )
    p.add_argument(
        "--aggregate",
        action="store_true",
        help="keep only the aggregates the game's analyses need "
        "(every game), no per-deal rows: flat memory and little disk for runs of any size; chunks "
        "merge by addition over whole games and analyze gives the tables of the rows",
    )
    p.add_argument(
        "--solve",
        action="store_true",
        help="add each deal's exact values with every hand seen "
        "(solved_* columns: see cardmc.solve_deals), to files, run folders and cluster runs alike; "
        "with --aggregate, the solved tables analyze shows instead; slow beside play: English Jazz "
        "about 0.1 s a deal, Schieber about 40 s a deal on one core (six contracts), "
        "Differenzler minutes (two values for each seat)",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="run on an existing Dask cluster, e.g. tcp://HOST:8786",
    )
    where.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        metavar="N",
        help="run on a local Dask cluster of N worker processes (loopback only)",
    )
    p.add_argument(
        "--threads",
        type=positive_int,
        default=None,
        help="Numba threads (default: all cores); with --workers, threads per worker (default 1)",
    )
    p.add_argument(
        "--force", action="store_true", help="overwrite an existing output file, or start a run folder afresh"
    )
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_condition_arguments(p)

    p = sub.add_parser(
        "analyze",
        help="tables with 95%% CIs from a simulate output",
        description="Print the game's standard tables and write each as CSV.",
    )
    _game(p)
    p.add_argument("file", help="Parquet file or run folder written by cardmc simulate (rows or aggregates)")
    p.add_argument(
        "--out", default=None, help="folder for the CSV tables (default: FILE without suffix + '-analysis')"
    )
    where_argument(p)

    p = sub.add_parser(
        "compare",
        help="arms (policies per seat, rule options) on the same deals, paired",
        description="Play two or more arms on identical deals and show each arm's estimate "
        "and its paired difference against the first arm, with 95% CIs.",
        epilog=COMPARE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    compare_arguments(p)

    p = sub.add_parser(
        "ladder",
        help="every pair of players in duplicate on the same deals, paired",
        description="Play every pair of players in duplicate on identical deals (seats swapped) and show "
        "the game's measure of one minus the other with 95% CIs, and each player's seconds a decision.",
        epilog=LADDER_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ladder_arguments(p)

    p = sub.add_parser(
        "trace",
        help="write whole games as JSON Lines (TRACE.md)",
        description="Write each game, every play with its legal cards, as one JSON line.",
    )
    _game(p)
    _run_args(p, games_default=1)
    p.add_argument("--start", type=seed_int, default=0, help="index of the first game (default 0)")
    p.add_argument("--out", required=True, help="output .jsonl file")
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")
    add_condition_arguments(p)

    p = sub.add_parser(
        "bench",
        help="measure throughput (compile time reported separately)",
        description="Time the game's kernel, DataFrame and aggregate paths on 1 and all threads; "
        "or, with --solver, the exact solver on random positions, or, with --pimc, the search "
        "player (both on one thread).",
    )
    _game(p)
    p.add_argument(
        "--games",
        type=positive_int,
        default=None,
        help="games per timed run (--pimc: games timed, default 2)",
    )
    p.add_argument(
        "--repeat", type=positive_int, default=None, help="timed runs per case; the best is kept (default 5)"
    )
    p.add_argument(
        "--players", type=positive_int, default=None, help="number of players (Norwegian Jazz: 3-7)"
    )
    p.add_argument(
        "--cold", action="store_true", help="also time a compile from an empty cache (fresh process)"
    )
    search = p.add_argument_group("the solver and the search player")
    search.add_argument(
        "--solver",
        action="store_true",
        help="time the exact solver on random positions at a "
        "trick boundary, reached by random play from random deals: median, 99th percentile and "
        "nodes a second (Schieber: team 0's points; Differenzler: seat 0's sure points; English "
        "Jazz: seat 0's most tricks; Norwegian Jazz: the penalty seat 0 is held to)",
    )
    search.add_argument(
        "--tricks-left",
        type=positive_int,
        default=None,
        help="--solver: tricks left in each position (default: whole deals)",
    )
    search.add_argument(
        "--positions", type=positive_int, default=None, help="--solver: positions timed (default 100)"
    )
    search.add_argument(
        "--probes",
        action="store_true",
        help="--solver: also time one null-window probe at each of "
        f"{', '.join(f'{d:+d}' for d in PROBE_DISTANCES)} points from each position's value, "
        "from an empty table (nodes against the distance)",
    )
    search.add_argument(
        "--objective",
        default=None,
        help="--solver: the value solved instead: Differenzler "
        "sure_at_most (the points seat 0 can be sure not to exceed), Norwegian Jazz escape (its "
        "penalty when every seat helps it)",
    )
    search.add_argument(
        "--pimc",
        action="store_true",
        help="time the search player with every seat pimc: seconds a deal over whole games",
    )
    search.add_argument(
        "--tricks",
        type=positive_int,
        default=None,
        help="--pimc: search from this many tricks left (pimc_tricks, default: the game's)",
    )
    search.add_argument(
        "--samples",
        type=positive_int,
        default=None,
        help="--pimc: deals solved a card (pimc_samples, default 8)",
    )
    search.add_argument("--seed", type=int, default=None, help="--solver and --pimc: random seed (default 1)")
    add_condition_arguments(p)  # with a condition: the cost of a conditioned deal against a plain one

    p = sub.add_parser(
        "odds",
        help="advice for one hand: each choice's outcome, the rest dealt at random, 95%% CIs",
        description="Fix one hand (and any known cards of other seats), deal the unseen cards at "
        "random (reproducible by seed; every choice is played on the same deals) and report, per "
        "choice the hand's owner faces, the outcome with 95% CIs. English Jazz: P(all 12 tricks), "
        "the rules and the deal score; Differenzler: the expected penalty of each declaration; "
        "Schieber: each contract and pushing; Norwegian Jazz: the deal's penalty or sevens.",
    )
    odds_arguments(p)

    p = sub.add_parser(
        "solve",
        help="the exact value of one position with every hand seen, and of each legal card",
        description="Solve one position of a trick game with all hands visible (best play by "
        "every side) and print its value and the value after each legal card.",
    )
    cli_solve.solve_arguments(p)

    p = sub.add_parser(
        "advise",
        help="advice at one decision: each legal card's value from one seat's view, or at a deal's "
        "start each contract's or declaration's, 95%% CIs",
        epilog=cli_solve.ADVISE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="From one seat's view of a deal in progress (its hand, the plays so far, the "
        "contract or trump), or a point of a trace, deal the unseen cards consistently with the play "
        "(reproducible by seed), solve each deal with every hand seen, and report each legal card's "
        "value for the seat with a 95% CI, the best card, and the card each --policy plays. At a "
        "deal's start, the decision there: each Schieber contract and the push, or each Differenzler "
        "declaration, estimated under heuristic play as cardmc odds does, the best choice and each "
        "--policy's choice.",
    )
    cli_solve.advise_arguments(p)

    p = sub.add_parser(
        "calibrate",
        help="refit Differenzler's calibrated declarations from simulations",
        description="Refit the table of Differenzler's calibrated declarations (the median points "
        "made per cell of hand features) from simulations, a few rounds, and write it as CSV; "
        "play with it by simulate --calibration FILE.",
    )
    p.add_argument("game", choices=["differenzler"], metavar="GAME", help="differenzler")
    p.add_argument("--games", type=positive_int, default=500_000, help="games per round (default 500,000)")
    p.add_argument(
        "--seed", type=seed_int, default=20261202, help="seed of the first round (default 20261202)"
    )
    p.add_argument(
        "--out",
        default=None,
        help="table to write (default: differenzler_calibration.csv in the working folder)",
    )
    p.add_argument("--force", action="store_true", help="overwrite an existing table")
    p.add_argument(
        "--policy",
        choices=["heuristic", "learned"],
        default="heuristic",
        help="the play the table is fitted under: heuristic (the calibrated rule's table, default) or "
        "learned (the learned player's own: default out differenzler_calibration_learned.csv)",
    )

    p = sub.add_parser(
        "train",
        help="fit a game's learned player to the search player",
        description="Play games of the heuristic, label decisions with DEPTH tricks left or fewer by the "
        "search player (each legal card's mean value over SAMPLES solved deals of the unseen cards), fit "
        "the learned player's weights to them (Differenzler, English Jazz and Norwegian Jazz then refine them "
        "by paired play: against calibrated in Differenzler, which refits the learned declaration table after "
        "each pass, against the heuristic in the Jazz games) and write its weights file. Seeded: the same input "
        "gives "
        "the same file. 12,000 decisions take about twelve minutes in Schieber; the head of each shipped "
        "file (kernels/data/learned_GAME.csv) gives the command that made it. With --start: Schieber's "
        "contract weights, fitted to the learned player's own play.",
    )
    p.add_argument("game", metavar="GAME", help=f"one of {', '.join(GAMES)}")
    p.add_argument("--decisions", type=positive_int, default=None, help="decisions labelled (default 12,000)")
    p.add_argument("--seed", type=seed_int, default=1, help="seed of the games and samples (default 1)")
    p.add_argument(
        "--depth",
        type=positive_int,
        default=None,
        help="tricks left to label from (default: the search player's default depth in the game)",
    )
    p.add_argument("--samples", type=positive_int, default=None, help="deals solved a decision (default 4)")
    p.add_argument(
        "--threads",
        type=positive_int,
        default=None,
        help="threads (default 1: the labelling holds the GIL most of the time)",
    )
    p.add_argument(
        "--start",
        action="store_true",
        help="fit the decision at a deal's start instead (Schieber: the contract weights, to the learned "
        "player's own play; file learned_GAME_contracts.csv)",
    )
    p.add_argument(
        "--games", type=positive_int, default=None, help="with --start: matches a contract family (20,000)"
    )
    p.add_argument(
        "--out", default=None, help="file to write (default learned_GAME.csv in the working folder)"
    )
    p.add_argument("--force", action="store_true", help="overwrite an existing file")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")

    p = sub.add_parser(
        "compile",
        help="compile every kernel into Numba's cache, one process per core",
        description="Compile the kernels of the games and the solver into Numba's on-disk cache, "
        "several fresh processes side by side, so that the first run of any command starts at once. "
        "A group already in the cache only loads (a second or two).",
    )
    p.add_argument(
        "groups",
        nargs="*",
        metavar="GROUP",
        help="what to compile: solver, schieber, differenzler, english_jazz, norwegian_jazz (default: all)",
    )
    p.add_argument("--jobs", type=positive_int, default=None, help="processes at once (default: the cores)")

    p = sub.add_parser(
        "report",
        help="run the default studies of all four games and write a report",
        description="Run the default studies and write index.html, report.md, charts and data.",
    )
    p.add_argument("--out", default="cardmc-report", help="report folder (default cardmc-report)")
    p.add_argument(
        "--games",
        type=positive_int,
        default=None,
        help="games per study (default: each game's own size, about two minutes in all on 2 cores "
        "once compiled)",
    )
    p.add_argument("--seed", type=seed_int, default=1, help="seed of every study (default 1)")
    p.add_argument("--quick", action="store_true", help="small studies, under a minute")
    p.add_argument(
        "--force", action="store_true", help="replace an existing folder that is not a cardmc report"
    )
    return parser


# Commands that load numba, the kernels and a game in well under a second and end. Run as the process's own
# command line, the collector stays off while they run (their imports make about a million objects, which
# collections while they load would walk through, ~0.1 s, to free nothing), numba loads without probing
# scipy's BLAS (``_without_blas_probe``), and the process ends at once when the answer is written (its
# output flushed, its files closed): the interpreter's teardown, its last collections over every object and
# the freeing of numba's modules, took 0.2-0.25 s more
QUICK = ("advise",)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    quick = argv is None and args.command in QUICK
    if quick:
        gc.disable()
        _without_blas_probe()
    code = _run(args)
    if quick:
        _end(code)
    return code


def _without_blas_probe() -> None:
    """Loads numba's array implementations with scipy's BLAS out of reach.
    Numba's first kernel, compiled or loaded from the cache, imports them,
    and they import scipy.linalg to see whether np.dot and the like may call
    BLAS: with scipy installed (the test extras; cardmc imports none), 0.1-0.2
    s of scipy's array API layer. Only a compile reads the answer (np.convolve's
    and np.correlate's inner loop), no kernel of cardmc calls BLAS, and
    numba's linear algebra still imports scipy when it compiles."""
    blas = "scipy.linalg.cython_blas"
    if blas in sys.modules or "numba.np.arraymath" in sys.modules:
        return
    sys.modules[blas] = None  # its import fails at once, scipy.linalg unloaded
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if sys.modules.get(blas, "") is None:
            del sys.modules[blas]


def _run(args) -> int:
    try:
        return COMMANDS[args.command](args)
    except BrokenPipeError:  # output piped into head and the like
        sys.stderr.close()
        return 0
    except UsageError as exc:
        print(f"cardmc: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardmc: interrupted; nothing was written", file=sys.stderr)
        return 130


def _end(code: int) -> None:
    """Ends the process with ``code`` once its output is flushed, without the
    interpreter's teardown (a quick command's: see ``QUICK``); when the
    output cannot be flushed (a closed pipe), the interpreter ends it."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        gc.freeze()
        return
    os._exit(code)


def _settings(args) -> dict:
    out = {}
    for name, value in args.settings:
        if name in out:
            raise UsageError(f"option {name} given twice")
        out[name] = value
    return out


def _job(args, aggregate: bool = False, start: int = 0):
    """The checked job of a simulate or trace command line."""
    from cardmc.job import make

    return make(
        args.game,
        args.games,
        args.seed,
        args.policy,
        args.players,
        _settings(args),
        start,
        aggregate,
        args.calibration,
        **condition_kwargs(args),
        solve=getattr(args, "solve", False),
    )


def cmd_simulate(args) -> int:
    import signal

    from cardmc import api, interrupts, run_folder

    try:
        with interrupts.interrupts(signal.SIGTERM):
            job = _job(args, aggregate=args.aggregate)
            how = {
                "threads": args.threads,
                "force": args.force,
                "progress": not args.no_progress,
                "chunk_games": args.chunk_games,
                "scheduler": args.scheduler,
                "workers": args.workers,
            }
            path = api.run(job, args.out, **how, log=lambda note: print(f"cardmc: {note}", file=sys.stderr))
    except run_folder.Interrupted as stop:
        print(
            f"cardmc: interrupted with {stop.done} of {stop.total} chunks done in {stop.folder}; "
            "run the same command again to resume",
            file=sys.stderr,
        )
        return 130
    what = "aggregates of " if args.aggregate else ("rows and solved values of " if args.solve else "")
    print(f"wrote {path} ({what}{args.games} games, seed {args.seed})")
    return 0


def cmd_analyze(args) -> int:
    from cardmc import api
    from cardmc.display import show

    meta = api.run_info(args.file)
    tables = api.analyze(args.game, args.file, where=args.where)
    source = Path(args.file)
    folder = Path(args.out) if args.out else source.with_suffix("").with_name(source.stem + "-analysis")
    write_tables(tables, folder)
    print(
        f"{args.game}: {meta.get('games', '?')} games, seed {meta.get('seed', '?')}, policy {meta.get('policy', '?')}"
    )
    if args.where is not None:
        print(f"rows where {args.where}")
    for name, table in tables.items():
        print(show(name, table))
    print(f"\nwrote {len(tables)} CSV tables to {folder}/")
    return 0


def write_tables(tables: dict, folder: Path) -> None:
    """Each table as ``folder/NAME.csv``, each file written atomically."""
    from cardmc import files

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create folder {folder}: {exc.strerror}") from None
    for name, table in tables.items():
        with files.atomic(folder / f"{name}.csv", force=True) as tmp:
            table.to_csv(tmp)


def cmd_trace(args) -> int:
    from cardmc import api

    path = api.trace_job(_job(args, start=args.start), args.out, force=args.force)
    print(f"wrote {path} ({args.games} games from index {args.start}, seed {args.seed})")
    return 0


def cmd_bench(args) -> int:
    from cardmc.bench import bench, cold_compile

    if args.solver and args.pimc:
        raise UsageError("--solver and --pimc time different things: give one")
    mode = "--solver" if args.solver else "--pimc" if args.pimc else None
    belongs = {
        "--tricks-left": ("--solver",),
        "--positions": ("--solver",),
        "--probes": ("--solver",),
        "--objective": ("--solver",),
        "--tricks": ("--pimc",),
        "--samples": ("--pimc",),
        "--seed": ("--solver", "--pimc"),
        "--games": (None, "--pimc"),
        "--cold": (None,),
        "--repeat": (None,),
    }  # None: the kernel bench
    for flag, modes in belongs.items():
        value = getattr(args, flag[2:].replace("-", "_"))
        if value not in (None, False) and mode not in modes:
            raise UsageError(
                f"{flag} is not for {'the kernel bench' if mode is None else mode}"
                f"{'' if modes[0] is None else f': use it with {modes[0]}'}"
            )
    if mode is not None and (args.hands or args.trump_card is not None or args.deal is not None):
        raise UsageError(f"conditions (--hand, --trump-card, --deal) are not for {mode}")
    if args.solver:
        from cardmc.bench_search import solver_line

        seed = 1 if args.seed is None else args.seed
        print(
            solver_line(
                args.game,
                args.positions or 100,
                seed,
                args.tricks_left,
                players=args.players or 4,
                objective=args.objective,
                probes=PROBE_DISTANCES if args.probes else (),
            ),
            flush=True,
        )
        return 0
    if args.pimc:
        from cardmc.bench_search import pimc_line

        print(
            pimc_line(
                args.game,
                args.games or 2,
                args.tricks,
                args.samples or 8,
                args.players,
                1 if args.seed is None else args.seed,
            ),
            flush=True,
        )
        return 0
    if args.hands or args.trump_card is not None or args.deal is not None:
        from cardmc.bench import deal_cost

        deal_cost(args.game, players=args.players, repeat=args.repeat or 5, **condition_kwargs(args))
        return 0
    if args.cold:
        print(
            f"{args.game}: cold compile of the benchmarked kernels {cold_compile(args.game):.1f} s",
            flush=True,
        )
    bench(args.game, games=args.games, repeat=args.repeat or 5, players=args.players)
    return 0


def cmd_odds(args) -> int:
    from cardmc import odds
    from cardmc.checks import check_file_target

    options = odds_options(args)
    if args.out and Path(args.out).suffix.lower() == ".csv":
        check_file_target(Path(args.out), args.force)
    result = odds.odds(args.game, **options)
    print(odds.show(result))
    if args.out:
        path = odds.write(result, args.out, force=args.force)
        print(f"\nwrote {path}")
    return 0


def cmd_solve(args) -> int:
    return cli_solve.solve_command(args)


def cmd_advise(args) -> int:
    return cli_solve.advise_command(args)


def cmd_calibrate(args) -> int:
    from cardmc.calibrate import calibrate

    path = calibrate(games=args.games, seed=args.seed, out=args.out, force=args.force, policy=args.policy)
    print(f"wrote {path}")
    return 0


def cmd_train(args) -> int:
    from cardmc import train

    if args.start:
        done = train.train_start(
            args.game,
            **({"games": args.games} if args.games else {}),
            seed=args.seed,
            out=args.out,
            force=args.force,
            progress=not args.no_progress,
        )
        print(
            f"wrote {done['out']}: {done['games']} matches a family in {done['seconds']:.0f} s; "
            f"the learned forehand pushes below {done['push_below']} under the rulebook's rules"
        )
        return 0

    given = {name: getattr(args, name) for name in ("decisions", "depth", "samples") if getattr(args, name)}
    done = train.train(
        args.game,
        seed=args.seed,
        out=args.out,
        force=args.force,
        threads=args.threads,
        progress=not args.no_progress,
        **given,
    )
    refined = ""
    if (
        "versus_heuristic" in done
    ):  # the fit refined by play: its score a deal over the heuristic, before and after
        before, after = done["versus_heuristic"]
        refined = f"; refined by play, {before:+.3f} to {after:+.3f} a deal over the heuristic"
    if "versus_calibrated" in done:  # Differenzler: its penalty a hand against calibrated's
        before, after = done["versus_calibrated"]
        refined = f"; refined by play, {before:+.3f} to {after:+.3f} penalty a hand against calibrated"
    print(
        f"wrote {done['out']}: {done['decisions']} decisions of {done['games']} games in "
        f"{done['seconds']:.0f} s; the search's best card in {done['agreement']:.1%} of them (before any "
        f"refinement){refined}"
    )
    return 0


def cmd_report(args) -> int:
    from cardmc.reports.build import build_report

    path = build_report(out=args.out, games=args.games, seed=args.seed, quick=args.quick, force=args.force)
    print(f"wrote {path}")
    return 0


def cmd_compile(args) -> int:
    from cardmc.warm import group_weights, warm

    known = group_weights()
    for group in args.groups:
        if group not in known:
            raise UsageError(f"unknown group {group!r}: one of {', '.join(known)}")
    started = time.perf_counter()
    try:
        warm(
            args.groups or None,
            jobs=args.jobs,
            log=lambda note: print(f"cardmc: {note}", file=sys.stderr, flush=True),
        )
    except RuntimeError as exc:
        print(f"cardmc: error: {exc}", file=sys.stderr)
        return 1
    print(f"compiled {', '.join(args.groups or known)} in {time.perf_counter() - started:.1f} s")
    return 0


def cmd_compare(args) -> int:
    from cardmc.compare import compare
    from cardmc.display import show

    condition = {k: v for k, v in condition_kwargs(args).items() if v is not None}
    table = compare(
        args.game,
        args.arms,
        games=args.games,
        seed=args.seed,
        players=args.players,
        measure=args.measure,
        where=args.where,
        target_se=args.target_se,
        max_seconds=args.max_seconds,
        block=args.block,
        threads=args.threads,
        progress=not args.no_progress,
        out=args.out,
        force=args.force,
        calibration=args.calibration,
        **_settings(args),
        **condition,
    )
    a = table.attrs
    seats = ", ".join(map(str, a["seats"]))
    print(
        f"{args.game}: {a['games']:,} games (stopped by {a['stopped_by']}), seed {a['seed']}, {a['seconds']:.1f} s; "
        f"seats measured: {seats}" + (f"; rows where {args.where}" if args.where else "")
    )
    shown = table.drop(columns=["policy", "settings", "unpaired_se"])
    for measure in dict.fromkeys(shown.index.get_level_values("measure")):
        print(show(f"{measure} (diff: minus {table.index[0][1]}, paired)", shown.loc[measure]))
    if args.out:
        print(f"\nwrote {args.out}")
    return 0


COMMANDS = {
    "simulate": cmd_simulate,
    "analyze": cmd_analyze,
    "trace": cmd_trace,
    "bench": cmd_bench,
    "calibrate": cmd_calibrate,
    "train": cmd_train,
    "odds": cmd_odds,
    "report": cmd_report,
    "solve": cmd_solve,
    "compile": cmd_compile,
    "advise": cmd_advise,
}


COMMANDS["compare"] = cmd_compare


def cmd_ladder(args) -> int:
    from cardmc.display import show
    from cardmc.ladder import ladder

    table = ladder(
        args.game,
        args.lineup or None,
        games=args.games,
        seed=args.seed,
        search_games=args.search_games,
        players=args.players,
        target_se=args.target_se,
        max_seconds=args.max_seconds,
        threads=args.threads,
        timed=not args.no_timing,
        progress=not args.no_progress,
        out=args.out,
        force=args.force,
        **_settings(args),
    )
    a = table.attrs
    print(f"{args.game}: {', '.join(a['lineup'])}; seed {a['seed']}, {a['seconds']:.1f} s")
    shown = table.drop(columns=["se", "seconds", "x_seconds", "y_seconds"])
    for measure in dict.fromkeys(shown.index.get_level_values("measure")):
        print(show(f"{measure}: X minus Y, in duplicate, paired on the deals", shown.loc[measure]))
    if len(a["timing"]):
        per = a["timing"]["seconds_per_decision"].map("{:.3g}".format)
        timing = a["timing"].assign(seconds_per_decision=per)
        print(show("seconds a decision (timed apart: every seat playing it, one thread)", timing.round(2)))
    for x, y, why in a["unpaired"]:
        print(f"\nnot paired: {x} and {y} ({why})")
    if args.out:
        print(f"\nwrote {args.out}")
    return 0


COMMANDS["ladder"] = cmd_ladder


if __name__ == "__main__":
    sys.exit(main())
