"""The annotating worker of the multi-process engines (``--n-process`` and Ray): the
pipeline, loaded once per worker process, annotates whole shards."""
import os
from typing import Any, List, Tuple

from .core import ShardDone, annotate_records, load_pipeline
from .sources import Shard
from .threads import peak_rss_mb, set_torch_threads, torch_threads

#: Shards queued per worker beyond the one it is annotating (keeps it busy).
QUEUED_PER_WORKER = 1


class AnnotatorWorker:
    """A worker process's state: the pipeline, loaded once.

    model (str): the negation pipeline (package name or path).
    fmt (str): the output format.
    batch_size (int): docs per ``nlp.pipe`` batch.
    threads (int): torch threads.
    keep_user_data (bool): keep tensors and other components' user data (DocBin output).
    """

    def __init__(self, model: str, fmt: str, batch_size: int, threads: int,
                 keep_user_data: bool = False) -> None:
        set_torch_threads(threads)
        self.nlp = load_pipeline(model)
        self.fmt = fmt
        self.batch_size = batch_size
        self.keep_user_data = keep_user_data

    def ready(self) -> int:
        return os.getpid()

    def annotate(self, shard: Shard, records: List[Tuple[Any, str]]) -> ShardDone:
        cpu = sum(os.times()[:2])
        data, n_words = annotate_records(self.nlp, records, self.fmt, self.batch_size,
                                         self.keep_user_data)
        return ShardDone(shard, data, len(records), n_words, os.getpid(), peak_rss_mb(),
                         sum(os.times()[:2]) - cpu, torch_threads())
