"""Speed of ``compare``: counting once per system, then resampling count vectors.

On the CD-SCO test files (cardboard + circle, 1,089 sentences) against system files made
without a trained model (:func:`noisy`: each gold instance dropped, its scope cut by one
token, or its cue replaced by the sentence's first token with a given probability, drawn
with a seed per system), times in one process:

* reading and counting every system once (:func:`spacy_negation.cli.compare.read_tables`);
* the tests alone (:func:`spacy_negation.metrics.compare.compare`): ``--samples`` bootstrap
  samples and as many approximate randomization shuffles, for the default three metrics
  and for every metric of the package;
* the whole command (``python -m spacy_negation compare``) as a process.

Medians of ``--runs`` runs (wall time, seconds).

    python bench/bench_compare.py --systems 3 --samples 10000 --runs 3
"""
import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, List

from spacy_negation.cli.compare import read_tables
from spacy_negation.corpora.starsem import Instance, Sentence, read_starsem, write_starsem
from spacy_negation.metrics.compare import DEFAULT_METRICS, compare, families_of, metric_names

REPO = Path(__file__).resolve().parents[1]
CDSCO = REPO.parent / "shared" / "corpora" / "cd-sco"
TEST_FILES = ("SEM-2012-SharedTask-CD-SCO-test-cardboard-GOLD.txt",
              "SEM-2012-SharedTask-CD-SCO-test-circle-GOLD.txt")


def noisy(sentences: List[Sentence], rate: float, seed: int) -> List[Sentence]:
    """A random 'system output': each instance, with probability ``rate``, dropped, its
    scope without its first token, or its cue moved to the sentence's first token (one of
    the three, equally likely).

    sentences (List[Sentence]): the gold sentences.
    rate (float): the probability of an error per instance.
    seed (int): the random seed.
    RETURNS (List[Sentence]): the system sentences, on the gold tokens.
    """
    rng = random.Random(seed)
    out: List[Sentence] = []
    for sent in sentences:
        insts: List[Instance] = []
        for inst in sent.instances:
            kind = rng.randrange(3) if rng.random() < rate else -1
            if kind == 0:
                continue
            scope = list(inst.scope[1:] if kind == 1 else inst.scope)
            cue = [(0, sent.rows[0].form)] if kind == 2 else list(inst.cue)
            insts.append(Instance(cue, scope, list(inst.event)))
        out.append(Sentence(rows=sent.rows, instances=insts, line=sent.line))
    return out


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=3, help="system files (default 3)")
    parser.add_argument("--samples", type=int, default=10000,
                        help="bootstrap samples and AR shuffles (default 10000)")
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (median)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        gold_path = Path(tmp) / "gold.txt"
        gold_path.write_text("".join((CDSCO / f).read_text(encoding="utf-8").rstrip("\n") + "\n\n"
                                     for f in TEST_FILES), encoding="utf-8")
        gold = read_starsem(gold_path)
        paths = []
        for k in range(args.systems):
            path = Path(tmp) / f"system{k}.txt"
            write_starsem(noisy(gold, 0.1 + 0.05 * k, k), path)
            paths.append(path)
        every = list(metric_names())
        tables = read_tables(gold_path, paths, families_of(every))
        print(f"{len(gold)} sentences, {args.systems} systems, {args.samples} bootstrap samples "
              f"and AR shuffles; medians of {args.runs} runs")
        t = median_seconds(lambda: read_tables(gold_path, paths, families_of(every)), args.runs)
        print(f"read and count all families, every system once: {t:.3f} s")
        for label, metrics in (("default 3 metrics", list(DEFAULT_METRICS)),
                               (f"all {len(every)} metrics", every)):
            t = median_seconds(lambda: compare(tables, metrics, samples=args.samples,
                                               ar_samples=args.samples), args.runs)
            pairs = len(metrics) * (args.systems - 1)
            print(f"tests only, {label} ({pairs} comparisons): {t:.3f} s")
        cmd = [sys.executable, "-m", "spacy_negation", "compare", str(gold_path),
               *map(str, paths), "--samples", str(args.samples), "--ar-samples",
               str(args.samples)]
        t = median_seconds(lambda: subprocess.run(cmd, check=True, capture_output=True), args.runs)
        print(f"whole command, default metrics: {t:.3f} s")


if __name__ == "__main__":
    main()
