"""Prediction speed of trained negation pipelines on a .spacy corpus, for comparing the
systems of Sineva et al. (2021) in one run: the NegBERT-style scope resolver
(``negation_scope_negbert``: one transformer pass per cue instance), the BiLSTM-Tagger's
``negation_scope`` (one pass per sentence, shared) and the graph parsers
(``negation_graph``: cues and scopes in one pass per sentence).

For each pipeline (best of --repeat runs; words per second of the corpus's docs by wall
clock and by the process's CPU time, the steadier figure on a shared machine with
--threads 1):
  - ``nlp.pipe end to end``: the whole pipeline, the scopes of the predicted cues;
  - per component, on the gold cues: each component's ``pipe`` in pipeline order, the
    cue tagger's cues replaced by the corpus's gold cues before the scope component
    (the scope resolver gets the realistic number of cues even from a barely trained
    cue tagger).
It also prints how many cue instances the gold cues make and how many sentences the
corpus has (NegBERT-style: transformer sequences = cue instances).

    python bench/bench_systems.py NAME=MODEL_DIR [NAME=MODEL_DIR ...] --data dev.spacy
        [--batch-size 64] [--repeat 2] [--threads 0] [--limit 0] [--json OUT]

Run it on an otherwise idle machine; it prints the load average. ``--json`` also writes
the measurements (seconds per stage and model, corpus counts, threads, load averages),
which ``scripts/systems_report.py --speed`` turns into the report's speed table.
"""
import argparse
import gc
import json
import os
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import spacy
from spacy.tokens import Doc, DocBin

import spacy_negation.pipeline.graph  # noqa: F401  (registers the factories, if no entry points)
import spacy_negation.scoring.scorers  # noqa: F401  (registers the scorers, if no entry points)
from spacy_negation import get_negations, set_negations
from spacy_negation.util import atomic_write_text

from bench_pipeline import copy_docs, peak_mb


def bench_model(nlp: spacy.Language, gold: List[Doc], batch_size: int, repeat: int) -> Dict[str, Tuple[float, float]]:
    """Wall-clock and CPU seconds (best of `repeat` runs) of each stage."""
    list(nlp.pipe(copy_docs(nlp, gold[:batch_size]), batch_size=batch_size))  # warm up
    best: Dict[str, Tuple[float, float]] = {}

    def record(name: str, start: Tuple[float, float]) -> None:
        seconds = (time.perf_counter() - start[0], time.process_time() - start[1])
        best[name] = min(seconds, best.get(name, (float("inf"), float("inf"))))

    def now() -> Tuple[float, float]:
        return time.perf_counter(), time.process_time()

    for _ in range(repeat):
        gc.collect()
        docs = copy_docs(nlp, gold)
        t0 = now()
        list(nlp.pipe(docs, batch_size=batch_size))
        record("nlp.pipe end to end", t0)
        gc.collect()
        docs = copy_docs(nlp, gold)
        for name, proc in nlp.pipeline:
            if name.startswith("negation_scope"):
                for doc, ref in zip(docs, gold):
                    set_negations(doc, [{"cue": [(p.i, p.start, p.end) for p in n.cue]} for n in get_negations(ref)])
            t0 = now()
            docs = list(proc.pipe(docs, batch_size=batch_size))
            record(f"{name} (gold cues)" if name.startswith("negation_scope") else name, t0)
    return best


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", nargs="+", help="NAME=MODEL_DIR")
    parser.add_argument("--data", type=Path, required=True, help="a .spacy corpus with gold negations")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=2, help="runs (best is reported)")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--limit", type=int, default=0, help="first N docs (0: all)")
    parser.add_argument("--json", type=Path, default=None, help="also write the measurements here")
    args = parser.parse_args(argv)

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    load_start = os.getloadavg()[0]
    results: List[Tuple[str, Dict[str, Tuple[float, float]]]] = []
    paths: Dict[str, str] = {}
    for spec in args.models:
        name, _, path = spec.partition("=")
        if not path:
            parser.error(f"expected NAME=MODEL_DIR, got {spec!r}")
        paths[name] = path
        nlp = spacy.load(path)
        gold = list(DocBin().from_disk(args.data).get_docs(nlp.vocab))
        if args.limit:
            gold = gold[: args.limit]
        results.append((name, bench_model(nlp, gold, args.batch_size, args.repeat)))
    n_words = sum(len(d) for d in gold)
    n_sents = sum(len(list(d.sents)) if d.has_annotation("SENT_START") else 1 for d in gold)
    n_cues = sum(len(get_negations(d)) for d in gold)
    print(f"{args.data}: {len(gold)} docs, {n_sents} sentences, {n_words} words, {n_cues} gold cue instances; "
          f"torch threads {torch.get_num_threads()}, load average {os.getloadavg()[0]:.2f}, "
          f"peak memory {peak_mb():.0f} MB")
    print()
    print(f"{'model':<12}{'stage':<40}{'wall s':>9}{'words/s':>10}{'CPU s':>9}{'words/CPU-s':>13}")
    for name, best in results:
        for stage, (wall, cpu) in best.items():
            print(f"{name:<12}{stage:<40}{wall:>9.2f}{n_words / wall:>10.0f}{cpu:>9.2f}{n_words / cpu:>13.0f}")
    load_end = os.getloadavg()[0]
    print(f"load average at the end {load_end:.2f}")
    if args.json is not None:
        record: Dict[str, Any] = {
            "data": str(args.data), "docs": len(gold), "sentences": n_sents, "words": n_words,
            "cue_instances": n_cues, "threads": torch.get_num_threads(), "batch_size": args.batch_size,
            "repeat": args.repeat, "load_average_start": load_start, "load_average_end": load_end,
            "models": {name: {"path": paths[name],
                              "stages": {stage: {"wall_s": wall, "cpu_s": cpu} for stage, (wall, cpu) in best.items()}}
                       for name, best in results}}
        atomic_write_text(args.json, json.dumps(record, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
