"""The command lines of the exact solver and the search player, beside ``cardmc.cli``.

``cardmc solve GAME --hands ... --to-play S`` (``solve_arguments``,
``solve_command``) prints one position's values and the table of legal
cards. ``solver_bench_main`` and ``pimc_bench_main`` are the benches of
``cardmc bench GAME --solver`` and ``--pimc`` (``cardmc.bench``) as
commands of their own, with every option of the bench functions:

    python -m cardmc.cli_solve solver english_jazz --tricks-left 5 --contract S
    python -m cardmc.cli_solve pimc differenzler --games 1 --samples 4

Building the options loads no kernel.
"""

from __future__ import annotations

import argparse
import sys

from cardmc.registry import GAMES, UsageError

DEFAULT_TT_MIB = 256  # cardmc.solve.DEFAULT_TT_MIB, written here so that the options load no kernel


def solve_arguments(parser) -> None:
    """The options of ``cardmc solve`` (an argparse parser or subparser)."""
    parser.add_argument("game", help=", ".join(GAMES))
    parser.add_argument(
        "--hands",
        nargs="+",
        required=True,
        metavar="HAND",
        help='one hand per seat in seat order, cards separated by spaces or commas: "JS 9S" "AS 6H" ...',
    )
    parser.add_argument(
        "--trick", default="", help='cards of the trick in progress in playing order, e.g. "9S AS"'
    )
    parser.add_argument("--to-play", type=int, required=True, help="the seat to play next")
    parser.add_argument(
        "--contract",
        default=None,
        help="Schieber: C D H S obenabe undenufe; Differenzler: the trump suit; "
        "English Jazz: the trump so far (none by default); Norwegian Jazz: the deal number 1-5",
    )
    parser.add_argument("--seat", type=int, default=None, help="whose result (all games but Schieber)")
    parser.add_argument("--declared", type=int, default=None, help="Differenzler: the seat's declaration")
    parser.add_argument("--taken", default=None, help="tricks taken so far per seat, e.g. 3,2,1,1")
    parser.add_argument(
        "--points",
        default=None,
        help="points so far per seat (Norwegian Jazz: penalty units), e.g. 10,20,30,40",
    )
    parser.add_argument(
        "--tt-mib",
        type=float,
        default=DEFAULT_TT_MIB,
        help="transposition table size in "
        "MiB, at most 512 (default 256; memory is taken as the search fills it)",
    )


def numbers(text: str | None, name: str) -> list[int] | None:
    """Whole numbers separated by commas or spaces (None: not given); UsageError names ``--name``."""
    if text is None:
        return None
    try:
        return [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise UsageError(f"--{name} takes whole numbers separated by commas, not {text!r}") from None


def solve_command(args) -> int:
    """``cardmc solve``: solve the position of the parsed ``args`` (see
    ``solve_arguments``) and print the values and the table of legal cards."""
    from cardmc.solve import solve

    s = solve(
        args.game,
        hands=args.hands,
        trick=args.trick,
        to_play=args.to_play,
        contract=args.contract,
        seat=args.seat,
        declared=args.declared,
        taken=numbers(args.taken, "taken"),
        points=numbers(args.points, "points"),
        tt_mib=args.tt_mib,
    )
    print(s.table())
    return 0


ADVISE_HELP = """the view, given (--hand is the seat's cards now; --plays every card so far, in order,
each CARD or SEAT:CARD; the seats follow from --dealer and the tricks):
  cardmc advise schieber --hand "JS 9S AS KH QH TD 8D" --dealer 3 --contract S \\
      --plays "6C 7C AC 8C KC 9C TC QC"
  cardmc advise differenzler --hand "..." --dealer 0 --trump-card 7S --declared 45 --plays "..."
  cardmc advise norwegian_jazz --players 4 --number 3 --hand "..." --plays "..."
or a point of a trace (the view of the seat to play before card K of deal J of the game
whose index is I, from what that seat saw; deal and card count from 1):
  cardmc advise schieber --trace schieber.jsonl --game 0 --deal 1 --card 9 --policy heuristic,pimc

each legal card's estimate (with a 95% CI over the sampled deals, each consistent with the
view and solved with every hand seen), the best card, and each --policy's card. Estimates:
schieber, the team's points this deal; differenzler, the penalty for the seat's declaration;
english_jazz, the deal score; norwegian_jazz, the penalty points of the deal.

at a deal's start (no --plays, and no --contract or --declared) the decision there instead:
  cardmc advise schieber --hand "JS 9S AS TS 8S 8H 9H 8D 9D" --dealer 3 [--pushed] [--set weis=off]
  cardmc advise differenzler --hand "..." --dealer 3 --trump-card 7S [--seat 1]
each contract and the push (the forehand; with --pushed its partner chooses), or each
declaration, with its estimate over deals of the unseen cards played by the game's heuristic
(cardmc odds: the team's score of the deal and its net, or the expected penalty), the best
choice, and each --policy's choice from the hand.
"""


def advise_arguments(p) -> None:
    """The options of ``cardmc advise`` (an argparse parser or subparser)."""
    p.add_argument("game", choices=list(GAMES), metavar="GAME", help=", ".join(GAMES))
    p.add_argument("--hand", default=None, help='the cards of the seat to play, now, e.g. "JS 9S AS"')
    p.add_argument(
        "--plays", default=None, help='the deal\'s cards so far in order, e.g. "0:6C 1:7C 2:AC" or "6C 7C AC"'
    )
    p.add_argument(
        "--seat",
        type=int,
        default=None,
        help="the seat to play (checked against the plays), or at a deal's start the seat to decide",
    )
    p.add_argument(
        "--dealer", type=int, default=None, help="the dealer (default: the last seat, so seat 0 leads)"
    )
    p.add_argument(
        "--policy",
        action="append",
        default=None,
        help="a policy whose card to name (repeatable or "
        "comma-separated; default heuristic): random, heuristic, pimc, Differenzler also calibrated",
    )
    p.add_argument(
        "--samples",
        type=int,
        default=None,
        help="sampled deals (default: pimc_samples, 8; at a deal's start, cardmc odds' 100,000)",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed of the samples (default 0)")
    p.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option by its docs/RULES.md name (repeatable)",
    )
    p.add_argument(
        "--threads", type=int, default=None, help="threads solving the samples (the result is the same)"
    )
    p.add_argument(
        "--most-tricks",
        type=int,
        default=None,
        help="search only with this many tricks left or "
        "fewer (default: the most the search player searches: whole deals can take minutes)",
    )
    p.add_argument("--out", default=None, metavar="FILE.csv", help="write the choices' table as CSV")
    p.add_argument("--force", action="store_true", help="overwrite an existing output file")
    g = p.add_argument_group("a point of a trace")
    g.add_argument("--trace", default=None, metavar="FILE", help="a trace written by cardmc trace")
    g.add_argument("--game", dest="game_index", type=int, default=None, metavar="I", help="the game's index")
    g.add_argument("--deal", type=int, default=None, metavar="J", help="the deal, from 1")
    g.add_argument("--card", type=int, default=None, metavar="K", help="before the K-th card of the deal")
    g = p.add_argument_group("Schieber")
    g.add_argument("--contract", default=None, help="C D H S obenabe undenufe")
    g.add_argument("--chooser", type=int, default=None, help="the seat that chose (default: the forehand)")
    g.add_argument(
        "--pushed",
        action="store_true",
        default=None,
        help="the forehand pushed: its partner chose (at the deal's start: chooses)",
    )
    g = p.add_argument_group("Differenzler")
    g.add_argument("--trump-card", default=None, help="the face-up trump card (the dealer's until played)")
    g.add_argument("--declared", type=int, default=None, help="the seat's declaration")
    g = p.add_argument_group("Norwegian Jazz")
    g.add_argument("--players", type=int, default=None, help="number of players (3-7)")
    g.add_argument("--number", type=int, default=None, help="the deal number, 1-5")


def advise_command(args) -> int:
    """``cardmc advise``: the advice of the parsed ``args`` (see ``advise_arguments``), printed."""
    from cardmc import advise

    settings = {}
    for text in args.settings:
        if "=" not in text:
            raise UsageError(f"--set expects NAME=VALUE, not {text!r}")
        name, value = (x.strip() for x in text.split("=", 1))
        settings[name] = value
    own = {
        k: getattr(args, k)
        for k in ("contract", "chooser", "pushed", "trump_card", "declared", "number")
        if getattr(args, k) is not None
    }
    result = advise.advise(
        args.game,
        hand=args.hand,
        seat=args.seat,
        plays=args.plays,
        dealer=args.dealer,
        players=args.players,
        policy=args.policy,
        samples=args.samples,
        seed=args.seed,
        settings=settings,
        threads=args.threads,
        trace=args.trace,
        game_index=args.game_index,
        deal=args.deal,
        card=args.card,
        most_tricks=args.most_tricks,
        **own,
    )
    if args.out:
        path = advise.write(result, args.out, force=args.force)
    print(advise.show(result))
    if args.out:
        print(f"\nwrote {path}")
    return 0


def solver_bench_main(argv=None) -> int:
    """``python -m cardmc.cli_solve solver GAME [--positions N] [--tricks-left K] ...``
    (also ``cardmc bench GAME --solver``): ``cardmc.bench_search.solver_line``."""
    p = argparse.ArgumentParser(
        prog="python -m cardmc.cli_solve solver", description=solver_bench_main.__doc__
    )
    p.add_argument("game", choices=list(GAMES))
    p.add_argument("--positions", type=int, default=100, help="random positions (default 100)")
    p.add_argument("--tricks-left", type=int, default=None, help="tricks to play (default: whole deals)")
    p.add_argument(
        "--contract", default=None, help="fixed contract, trump or deal (default: random per position)"
    )
    p.add_argument("--players", type=int, default=4, help="Norwegian Jazz players (default 4)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--tt-mib", type=float, default=DEFAULT_TT_MIB)
    p.add_argument(
        "--objective",
        default=None,
        help="the value solved (default: the game's first; "
        "Differenzler also sure_at_most, Norwegian Jazz also escape)",
    )
    a = p.parse_args(argv)
    from cardmc.bench_search import solver_line

    try:
        print(
            solver_line(
                a.game, a.positions, a.seed, a.tricks_left, a.contract, a.players, a.tt_mib, a.objective
            )
        )
    except UsageError as e:
        p.error(str(e))  # one line, exit 2
    return 0


def pimc_bench_main(argv=None) -> int:
    """``python -m cardmc.cli_solve pimc GAME [--games N] [--tricks T] [--samples K]``
    (also ``cardmc bench GAME --pimc``): ``cardmc.bench_search.pimc_line``."""
    p = argparse.ArgumentParser(prog="python -m cardmc.cli_solve pimc", description=pimc_bench_main.__doc__)
    p.add_argument("game", choices=list(GAMES))
    p.add_argument("--games", type=int, default=2, help="games timed (default 2)")
    p.add_argument(
        "--tricks",
        type=int,
        default=None,
        help="pimc_tricks: search from this many tricks left (default: the game's)",
    )
    p.add_argument("--samples", type=int, default=8, help="pimc_samples: deals solved a card (default 8)")
    p.add_argument("--players", type=int, default=None, help="Norwegian Jazz players (default 4)")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args(argv)
    from cardmc.bench_search import pimc_line

    try:
        print(pimc_line(a.game, a.games, a.tricks, a.samples, a.players, a.seed))
    except UsageError as e:
        p.error(str(e))  # one line, exit 2
    return 0


BENCHES = {"solver": solver_bench_main, "pimc": pimc_bench_main}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in BENCHES:
        sys.exit(f"usage: python -m cardmc.cli_solve {{{','.join(BENCHES)}}} GAME [options]")
    raise SystemExit(BENCHES[sys.argv[1]](sys.argv[2:]))
