"""Interrupts that wait for the end of a block: Ctrl-C (and SIGTERM where
asked) stop a run between blocks of games, never inside a kernel or a
writer (``interrupts``, ``safe_block``, ``safe_blocks``); work that can stop
early and cleanly inside a block registers a hook (``on_interrupt``)."""

from __future__ import annotations

import contextlib
import signal
import threading

_STOP = {"depth": 0, "pending": False, "hooks": []}


def _on_signal(signum, frame) -> None:
    if _STOP["depth"] > 0:
        _STOP["pending"] = True  # inside a block: stop when it is done
        for hook in list(_STOP["hooks"]):
            hook()
        return
    raise KeyboardInterrupt


@contextlib.contextmanager
def on_interrupt(hook):
    """Within this block, an interrupt that a ``safe_block`` holds back also
    calls ``hook()`` (at once if one is pending already): for work inside a
    block that can stop early and cleanly, such as solving its deals, which
    may take minutes. The work then raises KeyboardInterrupt itself."""
    _STOP["hooks"].append(hook)
    try:
        if _STOP["pending"]:
            hook()
        yield
    finally:
        _STOP["hooks"].remove(hook)


@contextlib.contextmanager
def interrupts(*signals: int):
    """Within this block, Ctrl-C (and ``signals``, e.g. SIGTERM) raise
    KeyboardInterrupt at once, except while a block of games is being
    simulated and written (``safe_block``): then at its end, so that no
    kernel or writer is cut off halfway. Main thread only; else a no-op."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, *signals)}
    _STOP["pending"] = False
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        _STOP["pending"] = False


def safe_blocks(items):
    """Each item made and used by the consumer as one ``safe_block``: an
    interrupt stops the loop between items, never inside one."""
    it = iter(items)
    while True:
        with safe_block():
            try:
                item = next(it)
            except StopIteration:
                return
            yield item


class safe_block:
    """A block of work that an interrupt lets finish (see ``interrupts``);
    only the main thread's blocks count (signals are handled there)."""

    def __enter__(self) -> None:
        self.main = threading.current_thread() is threading.main_thread()
        _STOP["depth"] += self.main

    def __exit__(self, kind, exc, tb) -> None:
        _STOP["depth"] -= self.main
        if self.main and _STOP["depth"] == 0 and _STOP["pending"] and kind is None:
            _STOP["pending"] = False
            raise KeyboardInterrupt
