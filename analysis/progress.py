"""Progress bars: a tqdm bar when asked for, else a bar that shows nothing and has the same methods."""

from __future__ import annotations


class NoBar:
    """A progress bar that shows nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        pass


def bar(show: bool, total: int, desc: str, unit: str = " games", initial: int = 0, leave: bool = True):
    """A tqdm bar of ``total`` units (``initial`` of them done) when ``show``, else a ``NoBar``."""
    if not show:
        return NoBar()
    from tqdm.auto import tqdm

    return tqdm(
        total=total, initial=initial, unit=unit, unit_scale=True, desc=desc, dynamic_ncols=True, leave=leave
    )
