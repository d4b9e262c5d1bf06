"""Where chunks run: in this process, or on a Dask cluster.

``runner(scheduler=None, workers=None, threads=None)`` gives a context
manager whose ``run(job, plan, target)`` yields ``(index, result)`` of each
chunk as it finishes. Every call is ``chunks.run_chunk(job, first, count,
target(index))``: the job holds plain values only (see analysis/job.py), so a
worker imports the kernels from its installed cardmc and loads them from its
Numba cache: nothing compiled is shipped, and no file of the user's is read.

* neither: chunks run one after another here, on all Numba threads;
* ``workers=N``: a LocalCluster of N worker processes on 127.0.0.1 (one
  thread each unless ``threads``), closed at the end;
* ``scheduler="tcp://HOST:8786"``: an existing cluster (``dask scheduler``
  and ``dask worker tcp://HOST:8786``); workers use their own thread counts.
"""

from __future__ import annotations

import logging
import os
import uuid
from typing import Iterable, Iterator

from cardmc import chunks
from cardmc.checks import check_cluster as check
from cardmc.job import Job
from cardmc.registry import UsageError

Chunks = Iterable[tuple[int, int, int]]  # (index, first game, count)


def runner(scheduler=None, workers: int | None = None, threads: int | None = None):
    """The runner for these options (see the module docstring)."""
    check(scheduler, workers, threads)
    if scheduler is None and workers is None:
        return InProcess(threads)
    return DaskRunner(scheduler, workers, threads)


class InProcess:
    """Chunks one after another in this process, on ``threads`` Numba threads."""

    distributed = False

    def __init__(self, threads: int | None = None):
        self.threads = threads

    def __enter__(self) -> InProcess:
        chunks.set_threads(self.threads)
        return self

    def __exit__(self, *exc) -> None:
        return None

    def run(self, job: Job, plan: Chunks, target=None, on_block=None) -> Iterator[tuple[int, dict]]:
        for index, first, count in plan:
            yield (
                index,
                chunks.run_chunk(job, first, count, target(index) if target else None, on_block=on_block),
            )


def local_cluster(workers: int, threads: int = 1):
    """A LocalCluster of ``workers`` processes with ``threads`` threads each,
    listening on loopback only (dashboard too, on a free port). Its workers ignore
    Ctrl-C: this process stops them when it is interrupted."""
    import dask
    from distributed import LocalCluster

    environ = {
        k: v
        for k, v in dask.config.get("distributed.nanny.pre-spawn-environ").items()
        if k != "MALLOC_TRIM_THRESHOLD_"
    }  # slows the kernels' large allocations
    saved = dict(os.environ)
    try:
        with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}):
            return LocalCluster(
                n_workers=workers,
                threads_per_worker=threads,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",  # an HTTP server starts anyway: loopback, any free port
                silence_logs=logging.CRITICAL,
                preload=[__name__],
            )
    finally:  # the nanny sets its workers' variables in this process's environment: put it back
        os.environ.clear()
        os.environ.update(saved)


def dask_setup(worker) -> None:
    """Preload of local workers: Ctrl-C in the terminal is the client's to handle."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


class DaskRunner:
    """Chunks as tasks on a Dask cluster: a local one or the one at ``scheduler``."""

    distributed = True

    def __init__(self, scheduler=None, workers: int | None = None, threads: int | None = None):
        self.scheduler, self.workers, self.threads = scheduler, workers, threads
        self.cluster = None
        self.client = None
        self._own_client = True

    def __enter__(self) -> DaskRunner:
        try:
            from distributed import Client
        except ImportError:  # pragma: no cover - a dependency of cardmc
            raise UsageError("Dask is not installed: pip install 'dask[distributed]'") from None
        for name in ("distributed", "distributed.client", "distributed.worker", "distributed.nanny"):
            logging.getLogger(name).setLevel(logging.ERROR)
        try:
            if self.workers is not None:
                self.cluster = local_cluster(self.workers, self.threads or 1)
                self.client = Client(self.cluster)
            elif isinstance(self.scheduler, str):
                self.client = Client(self.scheduler, timeout="10s")
            else:
                self.client, self._own_client = self.scheduler, False
        except (OSError, TimeoutError) as exc:
            self.__exit__()
            where = self.scheduler if self.workers is None else "a local cluster"
            raise UsageError(f"cannot reach the Dask scheduler at {where} ({exc})") from None
        return self

    def __exit__(self, *exc) -> None:
        if self.client is not None and self._own_client:
            try:
                self.client.close(timeout=10)
            except Exception:  # noqa: BLE001 - closing is best effort
                pass
        if self.cluster is not None:
            try:
                self.cluster.close(timeout=10)
            except Exception:  # noqa: BLE001
                pass
        self.client = self.cluster = None

    def run(self, job: Job, plan: Chunks, target=None, on_block=None) -> Iterator[tuple[int, dict]]:
        from distributed import as_completed

        from cardmc import __version__

        session = uuid.uuid4().hex[:12]
        futures = {}
        for index, first, count in plan:
            future = self.client.submit(
                chunks.run_chunk,
                job,
                first,
                count,
                target(index) if target else None,
                version=__version__,
                pure=False,
                key=f"cardmc-chunk-{session}-{index}",
            )
            futures[future] = index
        try:
            for future in as_completed(list(futures)):
                try:
                    result = future.result()
                except ModuleNotFoundError as exc:
                    message = f"a Dask worker cannot import cardmc ({exc}); install cardmc on every worker"
                    raise UsageError(message) from None
                key = futures.pop(future)
                future.release()
                yield key, result
        finally:
            if futures:
                self.client.cancel(list(futures))
