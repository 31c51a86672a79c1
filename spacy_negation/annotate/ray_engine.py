"""The Ray engine of ``annotate``: one actor per worker holds the pipeline (loaded once)
and annotates whole shards.

The driver reads the shards and sends their texts; the actors send back the encoded
shards, which the driver writes, so no shared file system is needed (but every node needs
spacy-negation and the model: an installed package, or a path that exists on every node).
Each worker gets ``threads_per_worker`` CPUs and as many torch threads, so workers do not
fight over cores. Fault tolerance is Ray's: a dead actor is restarted (``max_restarts``)
and its unfinished shards are retried (``max_task_retries``); annotating a shard has no
side effect, so a retried shard is written once, by the driver.
"""
import os
from collections import deque
from typing import Any, Deque, Dict, List, Optional, Sequence, Tuple

from ..errors import Errors
from .core import OnDone, OnReady, ReadShard
from .sources import Shard
from .worker import QUEUED_PER_WORKER, AnnotatorWorker

def import_ray() -> Any:
    """``ray``, with a coded error if not installed (E508)."""
    try:
        import ray
    except ImportError as err:
        raise ImportError(Errors.E508.format(reason=err)) from err
    return ray


def run_ray(model: str, shards: Sequence[Shard], read: ReadShard, on_done: OnDone,
            on_ready: OnReady, fmt: str, batch_size: int, *, address: Optional[str] = None,
            workers: Optional[int] = None, threads_per_worker: int = 1, max_retries: int = 3,
            keep_user_data: bool = False) -> None:
    """Annotate shards on Ray: joins the cluster at ``address``, uses the running Ray
    session if there is one, or starts a local cluster (without dashboard or usage
    statistics) that it shuts down at the end.

    RAISES (RuntimeError): Ray cannot connect to ``address`` or start a cluster (E521), a
        worker failed on a shard after its retries (E510).
    """
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        if address is None:
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except Exception as err:  # ConnectionError, RuntimeError, ValueError, ... by version
            where = f"--address {address}" if address is not None else "a local cluster"
            raise RuntimeError(Errors.E521.format(where=where, reason=err)) from err
        started = True
    try:
        if workers is None:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)) // threads_per_worker)
        actor_cls = ray.remote(AnnotatorWorker).options(
            num_cpus=threads_per_worker, max_restarts=max_retries, max_task_retries=max_retries)
        actors = [actor_cls.remote(model, fmt, batch_size, threads_per_worker, keep_user_data)
                  for _ in range(min(workers, len(shards)))]
        ray.get([a.ready.remote() for a in actors])
        on_ready()
        _schedule(ray, actors, shards, read, on_done)
    finally:
        if started:
            ray.shutdown()


def _schedule(ray: Any, actors: List[Any], shards: Sequence[Shard], read: ReadShard,
              on_done: OnDone) -> None:
    """Keep every actor busy until all shards are done; hand each result to on_done."""
    todo: Deque[Shard] = deque(shards)
    inflight: Dict[Any, Tuple[Shard, Any]] = {}

    def submit(actor: Any) -> None:
        shard = todo.popleft()
        records = [(rec.id, rec.text) for rec in read(shard)]
        inflight[actor.annotate.remote(shard, records)] = (shard, actor)

    for _ in range(1 + QUEUED_PER_WORKER):
        for actor in actors:
            if todo:
                submit(actor)
    while inflight:
        (ref,), _ = ray.wait(list(inflight), num_returns=1)
        shard, actor = inflight.pop(ref)
        try:
            result = ray.get(ref)
        except ray.exceptions.RayError as err:
            raise RuntimeError(Errors.E510.format(shard=shard.index, start=shard.start + 1,
                                                  end=shard.end, reason=err)) from err
        on_done(result)
        if todo:
            submit(actor)
