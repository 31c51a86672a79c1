"""``annotate``: resolve the negations of a corpus, shard by shard, resumably.

The input is split into shards of consecutive records; each finished shard is written to
the work folder and recorded in its manifest (see :mod:`.workdir`); a re-run annotates
only the unfinished shards; when all are finished they are merged, in order, into the
output, so the output has every input record exactly once and in input order (bad
records are reported with their line, then skipped or raised). Two engines annotate the
shards: ``local`` (one ``nlp.pipe`` stream, or ``n_process`` spawned worker processes, see
:mod:`.process_engine`) and ``ray`` (one actor per worker, see :mod:`.ray_engine`). The negation model is the cue and scope pipeline of
Sineva et al. 2021 (or the CNN variant) trained by the project.
"""
import os
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional, Sequence, Tuple, cast

from ..errors import Errors, NegationFormatError, Warnings
from ..limits import (MAX_BATCH_SIZE, MAX_PROCESSES, MAX_RETRIES, MAX_SHARD_SIZE, MAX_WORKERS,
                      check_count)
from ..util import check_input_file, check_on_error, check_output
from .sinks import encode_shard, lighten, merge_shards, output_format
from .sources import Record, Shard, input_format, plan_input, read_shard
from .threads import peak_rss_mb, resolve_threads, set_torch_threads, torch_threads
from .workdir import WorkDir, check_work_dir, model_identity

ENGINES = ("local", "ray")
#: Components that set sentence boundaries; without one, a sentencizer is added.
_SENT_SETTERS = {"sentencizer", "senter", "parser"}


@dataclass
class ShardDone:
    """A shard annotated by an engine.

    shard (Shard): the shard.
    data (bytes): its output content.
    n_docs (int): documents annotated.
    n_words (int): their tokens.
    pid (int): the process that annotated it.
    peak_rss_mb (float): that process's peak resident memory so far.
    cpu_seconds (float): CPU time (user + system) of that process on the shard (worker
        processes; 0.0 for the single-process engine, whose shards share one stream).
    threads (int): that process's torch threads (0 without torch).
    """

    shard: Shard
    data: bytes
    n_docs: int
    n_words: int
    pid: int
    peak_rss_mb: float
    cpu_seconds: float = 0.0
    threads: int = 0


#: An engine's callback for each finished shard.
OnDone = Callable[[ShardDone], None]
#: Reads a shard's good records (bad ones are warned about or raised).
ReadShard = Callable[[Shard], List[Record]]
#: An engine's callback once its pipelines are loaded.
OnReady = Callable[[], None]


def load_pipeline(model: str) -> Any:
    """A trained negation pipeline, with spaCy's rule-based sentencizer first if it has
    no component that sets sentence boundaries (the models work sentence by sentence).

    model (str): an installed package name or a path.
    RETURNS (Language): the pipeline.
    """
    from ..negation import register_extensions
    from ..pipeline.model_loading import load_negation_model

    register_extensions()
    nlp = load_negation_model(model)
    factories = {nlp.get_pipe_meta(name).factory for name in nlp.pipe_names}
    if not factories & _SENT_SETTERS:
        nlp.add_pipe("sentencizer", first=True)
    return nlp


def annotate_records(nlp: Any, records: Sequence[Tuple[Any, str]], fmt: str,
                     batch_size: int, keep_user_data: bool = False) -> Tuple[bytes, int]:
    """Annotate documents and encode them as one shard.

    nlp (Language): the pipeline.
    records (Sequence[Tuple[Any, str]]): (id, text) pairs in input order.
    fmt (str): the output format.
    batch_size (int): docs per ``nlp.pipe`` batch.
    keep_user_data (bool): keep tensors and other components' user data (DocBin output).
    RETURNS (Tuple[bytes, int]): the shard content and the number of words.
    """
    docs = [(lighten(doc, keep_user_data), doc_id) for doc, doc_id in
            zip(nlp.pipe((text for _, text in records), batch_size=batch_size),
                (doc_id for doc_id, _ in records))]
    return encode_shard(docs, fmt, keep_user_data), sum(len(doc) for doc, _ in docs)


def run_local(model: str, shards: Sequence[Shard], read: ReadShard, on_done: OnDone,
              on_ready: OnReady, fmt: str, batch_size: int, threads: int,
              keep_user_data: bool = False) -> None:
    """The single-process local engine: one ``nlp.pipe`` stream over the pending shards
    with ``threads`` torch threads (restored after); each shard is handed to ``on_done``
    as soon as its last doc is out. ``--n-process`` above 1 runs
    :func:`.process_engine.run_processes` instead.
    """
    old = set_torch_threads(threads)
    try:
        _run_local(model, shards, read, on_done, on_ready, fmt, batch_size, keep_user_data)
    finally:
        if old is not None:
            set_torch_threads(old)


def _run_local(model: str, shards: Sequence[Shard], read: ReadShard, on_done: OnDone,
               on_ready: OnReady, fmt: str, batch_size: int, keep_user_data: bool) -> None:
    from collections import deque

    nlp = load_pipeline(model)
    on_ready()
    opened: Deque[Tuple[Shard, int]] = deque()  # shards streamed in, with their doc counts

    def stream() -> Iterator[Tuple[str, Any]]:
        for shard in shards:
            records = read(shard)
            opened.append((shard, len(records)))
            for rec in records:
                yield cast(str, rec.text), rec.id  # read() returns only good records

    current: List[Tuple[Any, Any]] = []

    def flush_empty() -> None:
        while opened and opened[0][1] == 0:
            finish(opened.popleft()[0], [])

    def finish(shard: Shard, docs: List[Tuple[Any, Any]]) -> None:
        on_done(ShardDone(shard, encode_shard(docs, fmt, keep_user_data), len(docs),
                          sum(len(doc) for doc, _ in docs), os.getpid(), peak_rss_mb(),
                          threads=torch_threads()))

    for doc, doc_id in nlp.pipe(stream(), as_tuples=True, batch_size=batch_size):
        flush_empty()
        current.append((lighten(doc, keep_user_data), doc_id))
        if len(current) == opened[0][1]:
            finish(opened.popleft()[0], current)
            current = []
    flush_empty()


@dataclass
class Summary:
    """What an ``annotate`` run did.

    n_docs (int): documents in the output.
    n_words (int): their tokens.
    skipped (List[Dict[str, str]]): bad records skipped (``where``, ``reason``).
    n_shards (int): shards of the input.
    resumed (int): shards finished by an earlier run.
    redone (Dict[int, str]): shards finished by an earlier run that are annotated again,
        with the reason (their file or record did not match, W950).
    threads (int): torch threads per annotating process.
    seconds_loading (float): time starting the engine and loading the pipeline(s).
    seconds (float): time annotating the shards of this run, after loading.
    words_this_run (int): words annotated by this run.
    workers (Dict[int, float]): peak RSS in MB of each process that annotated (by pid).
    """

    n_docs: int = 0
    n_words: int = 0
    skipped: List[Dict[str, str]] = field(default_factory=list)
    n_shards: int = 0
    resumed: int = 0
    redone: Dict[int, str] = field(default_factory=dict)
    threads: int = 1
    seconds_loading: float = 0.0
    seconds: float = 0.0
    words_this_run: int = 0
    workers: Dict[int, float] = field(default_factory=dict)

    @property
    def words_per_second(self) -> float:
        return self.words_this_run / self.seconds if self.seconds else 0.0


def annotate(
    input: Path,
    output: Path,
    model: str,
    *,
    input_fmt: Optional[str] = None,
    output_fmt: Optional[str] = None,
    text_field: str = "text",
    id_field: str = "id",
    shard_size: int = 1000,
    batch_size: int = 64,
    on_error: str = "raise",
    engine: str = "local",
    n_process: int = 1,
    address: Optional[str] = None,
    workers: Optional[int] = None,
    threads: Optional[int] = None,
    max_retries: int = 3,
    work_dir: Optional[Path] = None,
    keep_shards: bool = False,
    keep_user_data: bool = False,
    progress: bool = True,
    on_shard: Optional[OnDone] = None,
) -> Summary:
    """Annotate a corpus with a negation pipeline, resumably (see the module docstring).

    input (Path): plain text (one document per line; the id is the line number), JSONL
        or Parquet (``text_field`` and ``id_field``).
    output (Path): the JSONL, Parquet or DocBin (``.spacy``) file to write.
    model (str): a trained negation pipeline (package name or path).
    input_fmt, output_fmt (Optional[str]): formats, if not those of the file suffixes.
    text_field (str): the text field or column.
    id_field (str): the id field or column; ``""`` for line (row) numbers as ids.
    shard_size (int): records per shard.
    batch_size (int): docs per ``nlp.pipe`` batch.
    on_error (str): bad records ``raise`` a coded error naming the line, or ``skip``
        them with a warning naming the line (and are listed in the summary).
    engine (str): ``local`` or ``ray``.
    n_process (int): processes of the local engine (above 1: spawned workers, see
        :mod:`.process_engine`).
    address (Optional[str]): the Ray cluster to join (default: start a local one).
    workers (Optional[int]): Ray worker actors (default: the cluster's CPUs divided by
        ``threads``).
    threads (Optional[int]): torch threads of the local process and of each of its worker
        processes, or per Ray worker (its CPUs); None: ``OMP_NUM_THREADS`` if set, else 1
        (see :func:`.threads.resolve_threads`).
    max_retries (int): restarts of a failed Ray worker and retries of its shards.
    work_dir (Optional[Path]): the folder of finished shards (default: OUTPUT.shards).
    keep_shards (bool): keep the work folder after merging.
    keep_user_data (bool): DocBin output: keep the docs' tensors and the user data of
        other components (the transformer's ``doc._.trf_data``, megabytes per document);
        by default the DocBin holds the docs, their ids and negations only.
    progress (bool): show a progress bar (documents, words per second) on stderr.
    on_shard (Optional[OnDone]): called with each shard finished by this run.
    RETURNS (Summary): counts and timings.
    RAISES (ValueError): a count outside its bound of :mod:`spacy_negation.limits` (E971),
        an unknown format or engine (E501), a bad record (E500, unless skipped).
    RAISES (FileNotFoundError): no input (E130).
    RAISES (NegationFormatError): an input that is not a regular file (E210, E970), an
        output that cannot be written (E123, E124, E125), a work folder that cannot be one
        (E520), a full disk (E972; the finished shards are kept for a re-run).
    RAISES (RuntimeError): the Ray cluster cannot be joined or started (E521), a Ray worker
        failed after its retries (E510), a worker process failed (E513).
    """
    for what, value, high in (("--shard-size", shard_size, MAX_SHARD_SIZE),
                              ("--batch-size", batch_size, MAX_BATCH_SIZE),
                              ("--n-process", n_process, MAX_PROCESSES)):
        check_count(what, value, 1, high)
    if workers is not None:
        check_count("--workers", workers, 1, MAX_WORKERS)
    check_count("--max-retries", max_retries, 0, MAX_RETRIES)
    n_threads = resolve_threads(threads)
    lenient = check_on_error(on_error)
    if engine not in ENGINES:
        raise ValueError(Errors.E501.format(what="engine", path="--engine", fmt=engine,
                                            available=", ".join(ENGINES)))
    input, output = Path(input), Path(output)
    check_output(output, [input])
    in_fmt = input_format(input, input_fmt)
    out_fmt = output_format(output, output_fmt)
    if keep_user_data and out_fmt != "spacy":
        raise ValueError(Errors.E951.format(fmt=out_fmt))
    check_input_file(input)  # E130 missing; E970 a FIFO or device, never opened
    work_dir = check_work_dir(work_dir or output.with_name(output.name + ".shards"))
    plan = plan_input(input, in_fmt, shard_size, text_field, id_field)
    model_ref = str(Path(model).resolve()) if Path(model).exists() else model
    settings = {"input_sha256": plan.sha256, "input_format": in_fmt, "text_field": text_field,
                "id_field": id_field, "shard_size": shard_size, "n_records": plan.n_records,
                "output_format": out_fmt, "model": model_ref,
                "model_identity": model_identity(model), "keep_user_data": keep_user_data}
    wd = WorkDir(work_dir, settings, out_fmt, plan.shards)
    pending = [s for s in plan.shards if s.index not in wd.done]
    summary = Summary(n_shards=len(plan.shards), resumed=len(plan.shards) - len(pending),
                      redone=dict(wd.redone), threads=n_threads)
    skipped: Dict[int, List[Dict[str, str]]] = {}

    def read(shard: Shard) -> List[Record]:
        records = read_shard(plan, shard, text_field, id_field)
        skipped[shard.index] = []
        for rec in records:
            if rec.error is None:
                continue
            if not lenient:
                raise NegationFormatError(Errors.E500.format(path=input, line=rec.where,
                                                             reason=rec.error), input)
            warnings.warn(Warnings.W500.format(path=input, line=rec.where, reason=rec.error))
            skipped[shard.index].append({"where": rec.where, "reason": rec.error})
        return [rec for rec in records if rec.error is None]

    done_records = sum(s.end - s.start for s in plan.shards if s.index in wd.done)
    bar = _progress_bar(plan.n_records, done_records, progress)
    start = ready = time.perf_counter()

    def on_ready() -> None:
        nonlocal ready
        ready = time.perf_counter()
        summary.seconds_loading = ready - start

    def on_done(result: ShardDone) -> None:
        shard = result.shard
        wd.finish(shard, result.data, {"n_docs": result.n_docs, "n_words": result.n_words,
                                             "skipped": skipped.pop(shard.index, [])})
        summary.words_this_run += result.n_words
        summary.workers[result.pid] = max(result.peak_rss_mb, summary.workers.get(result.pid, 0.0))
        if bar is not None:
            bar.update(shard.end - shard.start)
            elapsed = time.perf_counter() - ready
            bar.set_postfix_str(f"{summary.words_this_run / max(elapsed, 1e-9):,.0f} words/s")
        if on_shard is not None:
            on_shard(result)

    try:
        if pending and engine == "local" and n_process == 1:
            run_local(model, pending, read, on_done, on_ready, out_fmt, batch_size, n_threads,
                      keep_user_data)
        elif pending and engine == "local":
            from .process_engine import run_processes

            run_processes(model, pending, read, on_done, on_ready, out_fmt, batch_size,
                          n_process, n_threads, keep_user_data)
        elif pending:
            from .ray_engine import run_ray

            run_ray(model, pending, read, on_done, on_ready, out_fmt, batch_size, address=address,
                    workers=workers, threads_per_worker=n_threads,
                    max_retries=max_retries, keep_user_data=keep_user_data)
    except BaseException:
        if not wd.done:  # nothing to resume: leave no work folder behind
            wd.remove()
        raise
    finally:
        if bar is not None:
            bar.close()
    summary.seconds = time.perf_counter() - ready
    merge_shards(wd.shard_paths(len(plan.shards)), output, out_fmt)
    for k in range(len(plan.shards)):
        info = wd.done[k]
        summary.n_docs += info["n_docs"]
        summary.n_words += info["n_words"]
        summary.skipped.extend(info["skipped"])
    if not keep_shards:
        wd.remove()
    return summary


def _progress_bar(total: int, initial: int, enabled: bool) -> Any:
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="doc", file=sys.stderr, dynamic_ncols=True)
