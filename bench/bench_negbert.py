"""Prediction speed of trained negation pipelines on a .spacy corpus, for comparing the
NegBERT-style scope resolver (``negation_scope_negbert``: one transformer pass per cue
instance) with the BiLSTM-Tagger's ``negation_scope`` (one pass per sentence, shared).

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

    python bench/bench_negbert.py NAME=MODEL_DIR [NAME=MODEL_DIR ...] --data dev.spacy
        [--batch-size 64] [--repeat 2] [--threads 0] [--limit 0]

Run it on an otherwise idle machine; it prints the load average.
"""
import argparse
import gc
import os
import time
from pathlib import Path
from typing import Dict, List, Tuple

import spacy
from spacy.tokens import Doc, DocBin

import spacy_negation.pipeline.negbert  # noqa: F401  (registers the factory, if no entry points)
import spacy_negation.scorers  # noqa: F401  (registers the scorers, if no entry points)
from spacy_negation import get_negations, set_negations

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("models", nargs="+", help="NAME=MODEL_DIR")
    parser.add_argument("--data", type=Path, required=True, help="a .spacy corpus with gold negations")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=2, help="runs (best is reported)")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--limit", type=int, default=0, help="first N docs (0: all)")
    args = parser.parse_args()

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    results: List[Tuple[str, Dict[str, Tuple[float, float]]]] = []
    for spec in args.models:
        name, _, path = spec.partition("=")
        if not path:
            parser.error(f"expected NAME=MODEL_DIR, got {spec!r}")
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
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
