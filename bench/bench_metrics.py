"""Benchmark of the three metric families on the CD-SCO test files (cardboard + circle).

The gold sentences are scored against a deterministic perturbation of themselves (dropped
instances, shortened scopes, whole-word cues for affixes, spurious instances), replicated
R times, for R in ``--reps`` (default 10 and 100, to show linear growth). Per family it
prints seconds and sentences per second; the spaCy negation scorer (all families on docs,
projection included) is timed on the smallest replication.

    python bench/bench_metrics.py [--reps 10 100] [--shared ../shared]
"""
import argparse
import gc
import time
from pathlib import Path
from typing import Callable, List, Tuple

from spacy_negation.corpus import CDSCO_FILES
from spacy_negation.metrics import faireval as fe
from spacy_negation.metrics.nis import count_nis, nis_scores
from spacy_negation.metrics.starsem_eval import count_starsem, starsem_scores
from spacy_negation.starsem import Instance, Sentence, read_starsem

REPO = Path(__file__).resolve().parents[1]


def perturb(sentences: List[Sentence]) -> List[Sentence]:
    """A deterministic 'system output': every 7th instance dropped, every 5th scope
    without its first token, every 3rd affixal cue predicted as the whole word, and a
    spurious instance on the first token of every 13th sentence without negation."""
    out: List[Sentence] = []
    k = 0
    for n, sent in enumerate(sentences):
        insts: List[Instance] = []
        for inst in sent.instances:
            k += 1
            if k % 7 == 0:
                continue
            cue = list(inst.cue)
            if k % 3 == 0:
                cue = [(p, sent.rows[p].form) for p, _ in cue]
            scope = list(inst.scope[1:] if k % 5 == 0 else inst.scope)
            insts.append(Instance(cue=cue, scope=scope, event=list(inst.event)))
        if not sent.instances and n % 13 == 0:
            insts.append(Instance(cue=[(0, sent.rows[0].form)], scope=[], event=[]))
        out.append(Sentence(rows=sent.rows, instances=insts, line=sent.line))
    return out


def timed(func: Callable[[], object]) -> Tuple[float, object]:
    gc.collect()
    t0 = time.perf_counter()
    result = func()
    return time.perf_counter() - t0, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, nargs="+", default=[10, 100])
    parser.add_argument("--shared", type=Path, default=REPO / ".." / "shared")
    args = parser.parse_args()
    cdsco = args.shared / "corpora" / "cd-sco"
    gold: List[Sentence] = []
    for split in ("cardboard", "circle"):
        gold.extend(read_starsem(cdsco / CDSCO_FILES[split]))
    system = perturb(gold)
    n_inst = sum(len(s.instances) for s in gold)
    print(f"CD-SCO test (cardboard + circle): {len(gold)} sentences, {n_inst} gold instances, "
          f"{sum(len(s.instances) for s in system)} system instances")
    one = starsem_scores(count_starsem(gold, system))
    print(f"  (*SEM full negation F1 of the perturbed system: {one['full_negation']['f']:.4f}; "
          f"NIS_tok F1 {nis_scores(count_nis(gold, system))['nis_tok']['f']:.4f})")
    print(f"{'reps':>5} {'sentences':>10} | {'family':<34} {'seconds':>8} {'sent/s':>10}")
    for reps in args.reps:
        g, s = gold * reps, system * reps
        n = len(g)
        rows = [
            ("*SEM 2012 (align check + counts)", lambda: starsem_scores(count_starsem(g, s))),
            ("NIS (cue, NIS_tok/ex, token mode)", lambda: nis_scores(count_nis(g, s))),
            ("FairEval on negation spans", lambda: fe.faireval([fe.negation_spans(x) for x in g],
                                                               [fe.negation_spans(x) for x in s])),
        ]
        total = 0.0
        for name, func in rows:
            sec, _ = timed(func)
            total += sec
            print(f"{reps:>5} {n:>10} | {name:<34} {sec:8.3f} {n / sec:10.0f}")
        print(f"{reps:>5} {n:>10} | {'all three':<34} {total:8.3f} {n / total:10.0f}")
    bench_scorer(gold, system, min(args.reps))


def bench_scorer(gold: List[Sentence], system: List[Sentence], reps: int) -> None:
    """Time the spaCy negation scorer on docs (10 sentences per doc) built from the same
    data; doc building is not timed."""
    import spacy
    from spacy.training import Example

    from spacy_negation.corpus import group_sentences, sentences_to_doc
    from spacy_negation.scorers import score_negations

    vocab = spacy.blank("en").vocab
    examples = []
    for gs, ss in zip(group_sentences(gold, 10), group_sentences(system, 10)):
        examples.append(Example(sentences_to_doc(vocab, ss), sentences_to_doc(vocab, gs)))
    examples = examples * reps
    n = len(gold) * reps
    sec, scores = timed(lambda: score_negations(examples))
    print(f"{reps:>5} {n:>10} | {'spaCy negation scorer (docs)':<34} {sec:8.3f} {n / sec:10.0f}")
    print(f"  (scorer neg_full_f {scores['neg_full_f']:.4f}, neg_nis_tok_f "  # type: ignore[index]
          f"{scores['neg_nis_tok_f']:.4f})")  # type: ignore[index]


if __name__ == "__main__":
    main()
