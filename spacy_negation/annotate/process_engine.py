"""The ``--n-process N`` engine of ``annotate``: N worker processes on this machine, each
holding the pipeline (loaded once) and annotating whole shards, as the Ray engine's actors do.

The workers are *spawned*, not forked: a process forked after torch ran with more than one
OpenMP thread hangs in its first parallel region (GNU OpenMP is not fork-safe), which
``nlp.pipe(n_process=N)`` did here once the calling process had annotated anything with
``OMP_NUM_THREADS`` above 1. A spawned worker starts a new interpreter, so a script that
calls :func:`~spacy_negation.annotate.core.annotate` with ``n_process > 1`` needs Python's
``if __name__ == "__main__":`` guard, as for any spawned process.
"""
import multiprocessing
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Deque, Dict, Optional, Sequence, Tuple

from ..errors import Errors
from .core import OnDone, OnReady, ReadShard, ShardDone
from .sources import Shard
from .worker import QUEUED_PER_WORKER, AnnotatorWorker

_WORKER: Optional[AnnotatorWorker] = None
#: The worker's settings: model, format, batch size, threads, keep_user_data.
Settings = Tuple[str, str, int, int, bool]


def _worker(settings: Settings) -> AnnotatorWorker:
    """This worker process's annotator, loaded by its first task (a load error reaches
    the caller as itself, which an executor's initializer would turn into a broken pool)."""
    global _WORKER
    if _WORKER is None:
        _WORKER = AnnotatorWorker(*settings)
    return _WORKER


def _ready(settings: Settings) -> int:
    return _worker(settings).ready()


def _annotate(settings: Settings, shard: Shard, records: Any) -> ShardDone:
    return _worker(settings).annotate(shard, records)


def run_processes(model: str, shards: Sequence[Shard], read: ReadShard, on_done: OnDone,
                  on_ready: OnReady, fmt: str, batch_size: int, n_process: int, threads: int,
                  keep_user_data: bool = False) -> None:
    """Annotate shards in ``n_process`` spawned worker processes with ``threads`` torch
    threads each; each finished shard is handed to ``on_done`` (in the order they finish).

    RAISES (OSError): the pipeline cannot be loaded (E320, as in this process).
    RAISES (RuntimeError): a worker process failed or died on a shard (E513).
    """
    n_workers = max(1, min(n_process, len(shards)))
    settings: Settings = (model, fmt, batch_size, threads, keep_user_data)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=n_workers, mp_context=context) as pool:
        for started in [pool.submit(_ready, settings) for _ in range(n_workers)]:
            started.result()
        on_ready()
        todo: Deque[Shard] = deque(shards)
        inflight: Dict[Future, Shard] = {}

        def failed(shard: Shard, err: BaseException) -> RuntimeError:
            for other in inflight:
                other.cancel()
            return RuntimeError(Errors.E513.format(
                shard=shard.index, start=shard.start + 1, end=shard.end,
                reason=f"{type(err).__name__}: {err}"))

        def submit() -> None:
            shard = todo.popleft()
            records = [(rec.id, rec.text) for rec in read(shard)]
            try:
                inflight[pool.submit(_annotate, settings, shard, records)] = shard
            except BrokenProcessPool as err:  # a worker died before this shard was sent
                raise failed(shard, err) from err

        while todo and len(inflight) < n_workers * (1 + QUEUED_PER_WORKER):
            submit()
        while inflight:
            finished, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
            for future in finished:
                shard = inflight.pop(future)
                try:
                    result = future.result()
                except Exception as err:
                    raise failed(shard, err) from err
                on_done(result)
                if todo:
                    submit()
