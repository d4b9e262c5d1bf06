"""Every check of a user's input, in one place: counts, seeds, game ranges,
options, players, seats, positive limits, threads, cluster options, chunk sizes and output targets
(a game's policy names are parsed by the game, ``spec.parse_policy``). Each
returns the checked value or raises ``UsageError`` with a one-line message
naming the bad value."""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

from cardmc.registry import UsageError

MAX_SEED = 2**63 - 1
MAX_GAME_INDEX = 2**31 - 1  # rows keep the game index as int32
MAX_CHUNKS = 1 << 20  # chunks of one run at most (a manifest lists every one)
ROW_SUFFIXES = (".parquet", ".pq", ".csv")


def check_count(name: str, value: object) -> int:
    """A positive whole number, or ``UsageError`` naming ``value``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise UsageError(f"{name} must be a positive whole number, not {value!r}")
    return int(value)


def check_seed(seed: object, name: str = "seed") -> int:
    """A whole number in 0..2**63-1 (a seed, or a game index), or ``UsageError`` naming it."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise UsageError(f"{name} must be a whole number in 0..2**63-1, not {seed!r}")
    return int(seed)


def check_range(start: object, games: int) -> int:
    """The first game's index, checked so that every index fits the rows."""
    start = check_seed(start, "start")
    if start + games - 1 > MAX_GAME_INDEX:
        raise UsageError(
            f"games {start}..{start + games - 1} go past the last game index {MAX_GAME_INDEX}; "
            f"use fewer games or another seed"
        )
    return start


def check_option(name: str, option, value: object) -> object:
    """The checked value of rule or simulation option ``name`` (a
    ``registry.Option``): true/false, a whole number in its range, or one
    of its choices, or ``option.size`` whole numbers (``check_ints``)."""
    if option.kind == "ints":
        return check_ints(name, option, value)
    if option.kind == "bool":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "1", "yes", "on"):
            return True
        if text in ("false", "0", "no", "off"):
            return False
        raise UsageError(f"option {name} takes true or false, not {value!r}")
    if option.kind == "int":
        try:
            number = int(str(value).strip()) if not isinstance(value, int) else value
        except ValueError:
            raise UsageError(f"option {name} takes a whole number, not {value!r}") from None
        if (
            isinstance(number, bool)
            or (option.low is not None and number < option.low)
            or (option.high is not None and number > option.high)
        ):
            raise UsageError(f"option {name} must be in {option.low}..{option.high}, not {value!r}")
        return number
    assert option.choices is not None
    text = str(value).strip()
    if text not in option.choices:
        raise UsageError(f"option {name} takes one of {', '.join(option.choices)}, not {value!r}")
    return text


def check_ints(name: str, option, value: object) -> str:
    """``option.size`` whole numbers in ``option.low..option.high`` from a text ``"1,1,2"`` (brackets
    allowed) or a tuple or list; returned as the text ``"1,1,2"``."""
    if isinstance(value, (tuple, list)):
        items = list(value)
    elif isinstance(value, str):
        items = [x.strip() for x in value.strip().strip("()[]").split(",")]
    else:
        items = None
    numbers = []
    for x in items or []:
        if isinstance(x, str) and x.lstrip("+-").isdigit():
            x = int(x)
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or not option.low <= x <= option.high:
            numbers = None
            break
        numbers.append(int(x))
    if not numbers or len(numbers) != option.size:
        raise UsageError(
            f"option {name} takes {option.size} whole numbers in {option.low}..{option.high} "
            f"separated by commas, not {value!r}"
        )
    return ",".join(map(str, numbers))


def check_players(game: str, allowed: tuple[int, ...], players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int) or players not in allowed:
        raise UsageError(f"{game} is played by {', '.join(map(str, allowed))} players, not {players!r}")
    return players


def check_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise UsageError(f"{name} must be true or false, not {value!r}")
    return value


def check_seat(value: object, players: int, name: str = "seat") -> int:
    """A seat of a ``players``-player game, 0..players-1 (a whole number, or its text), or
    ``UsageError`` naming ``value`` as ``name`` (the asking seat, the dealer)."""
    try:
        seat = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise UsageError(f"{name} {value!r} is not a seat number (0..{players - 1})") from None
    if isinstance(value, bool) or str(seat) != str(value).strip() or not 0 <= seat < players:
        raise UsageError(f"{name} {value!r} is not a seat of a {players}-player game (0..{players - 1})")
    return seat


def check_positive(name: str, value: object) -> float | None:
    """None, or a positive finite number (a target standard error, a time limit)."""
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float, np.integer, np.floating))
        or not math.isfinite(value)
        or not value > 0
    ):
        raise UsageError(f"{name} must be a positive number, not {value!r}")
    return float(value)


def check_threads(threads: object) -> int | None:
    """None (all threads) or a thread count in 1..the Numba pool's size."""
    if threads is None:
        return None
    import numba

    top = numba.config.NUMBA_NUM_THREADS
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= top:
        raise UsageError(f"threads must be in 1..{top}, not {threads!r}")
    return int(threads)


def check_chunks(games: int, chunk_games: int) -> int:
    """The chunk size of a run, refused if it would make too many chunks."""
    chunk_games = check_count("chunk_games", chunk_games)
    if -(-games // chunk_games) > MAX_CHUNKS:
        raise UsageError(
            f"chunk_games {chunk_games} makes more than {MAX_CHUNKS} chunks of {games} games; "
            "use larger chunks"
        )
    return chunk_games


def check_cluster(scheduler: object, workers: object, threads: object) -> None:
    """``UsageError`` for a bad combination of scheduler, workers and threads."""
    if scheduler is not None and workers is not None:
        raise UsageError("give either a scheduler address or a number of local workers, not both")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise UsageError(f"workers must be a positive whole number, not {workers!r}")
    if scheduler is not None:
        if threads is not None:
            raise UsageError("threads are set on the cluster's workers (dask worker --nthreads), not here")
        if not isinstance(scheduler, str) and not hasattr(scheduler, "submit"):
            raise UsageError(f"scheduler must be an address such as tcp://HOST:8786, not {scheduler!r}")
        if isinstance(scheduler, str) and "://" not in scheduler and ":" not in scheduler:
            raise UsageError(f"scheduler address {scheduler!r} should look like tcp://HOST:8786")
    else:
        check_threads(threads)


# ------------------------------------------------------------ output targets


def is_folder_target(out: str | os.PathLike) -> bool:
    """Whether ``out`` names a run folder: it ends with a slash, is a folder
    already, or has no suffix."""
    text = os.fspath(out)
    return text.endswith(("/", os.sep)) or Path(text).is_dir() or Path(text).suffix == ""


def check_file_target(path: str | os.PathLike, force: bool) -> Path:
    """The folder of output file ``path``; ``UsageError`` if the file exists
    (without ``force``) or the folder is missing or not writable."""
    path = Path(path)
    if path.is_dir():
        raise UsageError(f"{path} is a folder, not a file")
    if (path.exists() or path.is_symlink()) and not force:
        raise UsageError(f"{path} already exists (use --force to overwrite)")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"cannot write {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"cannot write {path}: folder {folder} is not writable")
    return folder


def check_folder_target(folder: Path) -> None:
    """A run folder can be made or used at ``folder``."""
    parent = folder.parent
    if not parent.is_dir():
        raise UsageError(f"cannot write {folder}: folder {parent} does not exist")
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} exists and is not a folder")
    if folder.exists() and not os.access(folder, os.W_OK):
        raise UsageError(f"cannot write {folder}: folder is not writable")


def check_output(out: str | os.PathLike | None, aggregate: bool, force: bool) -> tuple[str, Path | None]:
    """Where a run's output goes: ``("memory", None)``, ``("folder", path)``,
    ``("parquet", path)`` or ``("csv", path)``; file targets are checked
    here (exists, folder writable), run folders when opened."""
    if out is None:
        return "memory", None
    if not isinstance(out, (str, os.PathLike)) or not os.fspath(out):
        raise UsageError(f"output must be a file or folder name, not {out!r}")
    if is_folder_target(out):
        check_folder_target(Path(out).absolute())
        return "folder", Path(out)
    suffix = Path(out).suffix.lower()
    if suffix not in ROW_SUFFIXES:
        raise UsageError(
            f"output {os.fspath(out)!r} should end in .parquet or .csv, or in / for a run folder"
        )
    if aggregate and suffix == ".csv":
        raise UsageError(f"aggregates are written as Parquet, not to {os.fspath(out)!r}")
    check_file_target(out, force)
    return ("csv" if suffix == ".csv" else "parquet"), Path(out)
