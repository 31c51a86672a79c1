"""What the ``negation`` host component costs on top of its model pipeline.

``nlp.add_pipe("negation")`` loads a trained negation pipeline and, for each host doc, builds
docs with the same words in the model's vocab (with the model's ``prefilter``, one per
sentence with a candidate cue, cut to the window around the candidates), runs the model
pipeline on them and copies the negations back onto the host doc. This measures, per split,
on the task of ``bench_vs_rules.py`` (one doc per sentence, gold tokens) at the package's
settings:

- ``component``: ``negation.pipe(host_docs)``, the component alone;
- ``model``: the model pipeline alone, ``negation_nlp.pipe(pieces)``, on the very docs the
  component would send it (built before the clock starts): what a user calling the model
  pipeline directly pays;
- the host's own steps, each timed alone on the same docs: ``pieces`` (the prefilter and the
  docs in the model's vocab) and ``copy_back`` (the negations, pattern matches and span rule
  written onto the host docs);
- ``load``: ``spacy.load(model)`` against ``spacy.blank`` + ``add_pipe("negation")`` (the
  host loads the model in its constructor).

Each is the fastest of ``--repeat`` rounds, the four taken in turn in each round; a share is that step's seconds over the
component's. The host's overhead is ``component - model``.

python bench/bench_host.py --model en_negation_general --split cdsco=corpus/test.spacy \
    --split bioscope=corpus/bioscope/test.spacy --split sfu=corpus/sfu/test.spacy \
    --split bioscope_clinical=corpus/bioscope_clinical/test.spacy --out-dir results
"""
import argparse
import json
import os
import platform
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin

from bench_speed import task_docs
from bench_vs_rules import SPLIT_NAMES, task_sentences
from spacy_negation import register_extensions
from spacy_negation.negation import set_span_rule
from spacy_negation.pipeline.cue.patterns import merge_pattern_matches
from spacy_negation.pipeline.host_docs import merge_negations
from spacy_negation.pipeline.negation import NegationResolver
from spacy_negation.metrics.core import markdown_table
from spacy_negation.util import atomic_write_text

STEPS = ("component", "model", "pieces", "copy_back")


def seconds_of(func: Callable[[], Any]) -> Tuple[Any, float]:
    start = time.perf_counter()
    out = func()
    return out, time.perf_counter() - start


def host(model: str) -> Tuple[Language, NegationResolver]:
    """``spacy.blank("en")`` + ``negation`` with the model at its defaults."""
    nlp = spacy.blank("en")
    resolver = nlp.add_pipe("negation", config={"model": model})
    assert isinstance(resolver, NegationResolver)
    return nlp, resolver


def measure(model: str, gold: List[Doc], split: str, repeat: int) -> Dict[str, Any]:
    """The four timings of one split and their shares of the component's time."""
    sentences = task_sentences(gold, split)
    nlp, resolver = host(model)
    inner, cue, size = resolver.negation_nlp, resolver.cue, resolver.batch_size
    words = sum(len(r["words"]) for r in sentences)
    list(resolver.pipe(task_docs(nlp, sentences[:64])))  # warm-up: first calls allocate

    def component() -> Tuple[List[Doc], float]:
        fresh = task_docs(nlp, sentences)
        return seconds_of(lambda: list(resolver.pipe(fresh)))

    def pieces() -> Tuple[List[List[Tuple[Doc, int]]], float]:
        fresh = task_docs(nlp, sentences)
        return seconds_of(lambda: [resolver.model_pieces(doc, cue) for doc in fresh])

    def model_alone() -> Tuple[List[Doc], float]:
        fresh = [d for ps in pieces()[0] for d, _ in ps]
        return seconds_of(lambda: list(inner.pipe(fresh, batch_size=size)))

    def copy_back() -> Tuple[None, float]:
        fresh = task_docs(nlp, sentences)
        built = [resolver.model_pieces(doc, cue) for doc in fresh]
        done_docs = iter(inner.pipe([d for ps in built for d, _ in ps], batch_size=size))
        done = [[(next(done_docs), offset) for _, offset in ps] for ps in built]

        def write() -> None:
            for doc, ds in zip(fresh, done):
                merge_negations(ds, doc)
                merge_pattern_matches(ds, doc)
                set_span_rule(doc, resolver.span_negated)
        return seconds_of(write)

    # the four in turn in each round, so that a slower phase of the machine touches them alike
    runs = {"component": component, "model": model_alone, "pieces": pieces, "copy_back": copy_back}
    times = {step: float("inf") for step in runs}
    docs: List[Doc] = []
    for i in range(repeat):
        for step, run in runs.items():
            out, seconds = run()
            times[step] = min(times[step], seconds)
            if i == 0 and step == "component":
                docs = out
    t_component, t_model = times["component"], times["model"]
    out: Dict[str, Any] = {"words": words, "docs": len(sentences),
                           "negations": sum(len(d._.negations) for d in docs)}
    for step, seconds in times.items():
        out[f"{step}_seconds"] = seconds
        out[f"{step}_share"] = seconds / t_component if t_component else 0.0
    out["overhead_share"] = (t_component - t_model) / t_component if t_component else 0.0
    out["component_words_per_second"] = words / t_component if t_component else 0.0
    out["model_words_per_second"] = words / t_model if t_model else 0.0
    return out


def load_times(model: str, repeat: int) -> Dict[str, float]:
    """Seconds to load the model pipeline alone and a blank host with ``negation`` on it."""
    alone = min(seconds_of(lambda: spacy.load(model))[1] for _ in range(repeat))
    hosted = min(seconds_of(lambda: host(model))[1] for _ in range(repeat))
    return {"model_load_seconds": alone, "host_load_seconds": hosted}


def render(results: Dict[str, Any]) -> str:
    meta = results["meta"]
    lines = [f"# The `negation` host component's cost: `{meta['model']}`", "",
             f"{meta['machine']}, torch threads {meta['torch_threads']}, fastest of {meta['repeat']} rounds; "
             "shares are of the component's time (`bench/bench_host.py`).", ""]
    rows = [[SPLIT_NAMES.get(split, split), f"{r['component_words_per_second']:,.0f}",
             f"{r['model_words_per_second']:,.0f}", f"{100 * r['overhead_share']:.1f}%",
             f"{100 * r['pieces_share']:.1f}%", f"{100 * r['copy_back_share']:.1f}%"]
            for split, r in ((s, results[s]) for s in meta["splits"])]
    lines += markdown_table(["split", "component words/s", "model alone words/s", "host overhead", "pieces",
                             "copy back"], rows, left=1)
    load = results["load"]
    lines += ["", f"Loading: the model pipeline alone {load['model_load_seconds']:.2f} s, a blank pipeline "
                  f"with `negation` {load['host_load_seconds']:.2f} s.", ""]
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="a negation pipeline: package name or path")
    parser.add_argument("--split", action="append", required=True, metavar="NAME=GOLD.spacy")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out-dir", type=Path, required=True)
    parser.add_argument("--out-name", default="host_cost")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    register_extensions()
    import torch

    results: Dict[str, Any] = {"meta": {"model": args.model, "repeat": args.repeat, "splits": [],
                                        "machine": f"{os.cpu_count()} CPU cores, {platform.processor() or platform.machine()}",
                                        "torch_threads": torch.get_num_threads()}}
    for pair in args.split:
        name, _, path = pair.partition("=")
        if not path:
            parser.error(f"--split takes NAME=GOLD.spacy, not {pair!r}")
        gold = list(DocBin().from_disk(path).get_docs(spacy.blank("en").vocab))
        results[name] = measure(args.model, gold, name, args.repeat)
        results["meta"]["splits"].append(name)
        print(name, json.dumps({k: round(v, 4) for k, v in results[name].items()}), flush=True)
    results["load"] = load_times(args.model, args.repeat)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(args.out_dir / f"{args.out_name}.json", json.dumps(results, indent=2) + "\n")
    atomic_write_text(args.out_dir / f"{args.out_name}.md", render(results))
    print(render(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
