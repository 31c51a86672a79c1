"""Speed levers of a negation model in a host pipeline, one at a time and combined.

For each English test split and each lever setting, this measures:

- words per second of the ``negation`` component alone, on the task of
  ``bench_vs_rules.py`` (one doc per sentence with the gold tokens, built before the clock
  starts; the model's default convention), and the F1 of "is this word negated?" there;
- words per second end to end through a host pipeline (``spacy.blank("en")`` +
  ``sentencizer`` + ``negation``) on the split's running text, one doc per corpus
  document (tokenization and sentence splitting included);
- NIS_tok F1 (Sineva et al. 2021) of the split in its own annotation convention, through
  the ``negation`` component on the gold tokens and sentences.

The lever settings (``SETTINGS``): ``baseline`` (every component of the model runs, the
transformer in float32, no prefilter, 64 docs per batch: the component as it was),
``convention`` (only the components of the convention that annotates the docs run),
``prefilter`` (the cue components' sentence prefilter: only sentences with a candidate cue
reach the network, whole), ``window`` (the prefilter with the model's
``prefilter_window``: the network reads only the tokens around a sentence's candidate
cues; the same as ``prefilter`` for a model without one), ``int8`` (the transformers' linear layers quantized,
``spacy_negation.ml.quantize``), ``int8_lstm`` (the taggers' bidirectional LSTMs
quantized, ``quantize_lstms``: not a default of the component), ``batch`` (1,000 docs per
batch: fuller length buckets) and ``combined`` (all but ``int8_lstm``: the component's and
the packaged model's defaults). Every
setting is measured in the same process, one after the other, ``--repeat`` times (the
fastest run counts, as ``timeit`` advises); the accuracy of each setting is computed once.

python bench/bench_speed.py --model en_negation_general --split cdsco=corpus/test.spacy \
    --split bioscope=corpus/bioscope/test.spacy --split sfu=corpus/sfu/test.spacy --out-dir results

Writes OUT/speed.json ({"meta", split: {setting: {"words_per_second", "e2e_words_per_second",
"f", "p", "r", "nis_tok_f"}}}, fractions) and OUT/speed.md (``--out-name`` for another name);
prints the table. ``--variant NAME=MODEL`` adds other models at the combined setting (or
``--variant-setting``'s), e.g. the
3-layer general model per training seed (``configs/general_l3.cfg``):

python bench/bench_speed.py --model training/general/seed2/model-package --setting baseline \
    --setting combined --variant l6_seed0=training/general/seed0/model-package ... \
    --variant l3_seed0=training/general_l3/seed0/model-package ... --out-name speed_layers
"""
import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example

from bench_vs_rules import SPLIT_NAMES, counts, entry, task_sentences
from spacy_negation import register_extensions
from spacy_negation.analysis.evaluation import blank_copy, tag_punct
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.metrics.core import markdown_table, pct
from spacy_negation.ml.quantize import quantize_lstms, quantize_transformers
from spacy_negation.pipeline.cue import NegationCue
from spacy_negation.pipeline.negation import NegationResolver
from spacy_negation.scoring.scorers import score_negations
from spacy_negation.util import atomic_write_text

class Levers(NamedTuple):
    """A lever setting."""
    convention: bool  # run only the components of the docs' convention
    prefilter: bool  # the cue components' sentence prefilter
    int8: bool  # the transformers' linear layers in int8
    int8_lstm: bool  # the taggers' LSTMs in int8
    batch_size: int  # docs per batch
    window: bool = False  # the prefilter's window (the model's prefilter_window)


#: Lever settings by name.
SETTINGS: Dict[str, Levers] = {
    "baseline": Levers(False, False, False, False, 64),
    "convention": Levers(True, False, False, False, 64),
    "prefilter": Levers(False, True, False, False, 64),
    "window": Levers(False, True, False, False, 64, window=True),
    "int8": Levers(False, False, True, False, 64),
    "int8_lstm": Levers(False, False, False, True, 64),
    "batch": Levers(False, False, False, False, 1000),
    "combined": Levers(True, True, True, False, 1000, window=True),
}
#: The annotation convention of a split whose name is not one.
SPLIT_CONVENTIONS = {"bioscope_clinical": "bioscope"}


def host(model: str, setting: str, convention: Optional[str] = None, sentencizer: bool = False) -> Language:
    """``spacy.blank("en")`` (+ ``sentencizer``) + ``negation`` with the model, set up as the
    lever setting says (the model's ``prefilter`` is set on every cue component)."""
    levers = SETTINGS[setting]
    nlp = spacy.blank("en")
    if sentencizer:
        nlp.add_pipe("sentencizer")
    resolver = nlp.add_pipe("negation", config={"model": model, "convention": convention, "quantize": False,
                                                "batch_size": levers.batch_size})
    assert isinstance(resolver, NegationResolver)
    inner = resolver.negation_nlp
    if not levers.convention:
        for name in list(inner.disabled):
            inner.enable_pipe(name)
    for _, pipe in inner.pipeline:
        if isinstance(pipe, NegationCue):
            pipe.prefilter = levers.prefilter
            if not levers.window:
                pipe.prefilter_window = None
    if levers.int8:
        quantize_transformers(inner)
    if levers.int8_lstm:
        quantize_lstms(inner)
    return nlp


def timed(run: Callable[[], Any], repeat: int) -> Tuple[Any, float]:
    """The result of the first run and the fastest run's seconds (``run`` builds its own
    input before its clock starts when it returns (result, seconds))."""
    best, result = float("inf"), None
    for i in range(repeat):
        out, seconds = run()
        best = min(best, seconds)
        if i == 0:
            result = out
    return result, best


def clocked(run: Callable[[], Any]) -> Callable[[], Tuple[Any, float]]:
    """``run`` timed as a whole."""
    def call() -> Tuple[Any, float]:
        start = time.perf_counter()
        out = run()
        return out, time.perf_counter() - start
    return call


def task_docs(nlp: Language, sentences: Sequence[Dict[str, Any]]) -> List[Doc]:
    """The task's sentences as docs with their targets as entities (bench_vs_rules.py)."""
    docs = []
    for rec in sentences:
        n = len(rec["words"])
        doc = Doc(nlp.vocab, words=rec["words"], spaces=rec["spaces"], sent_starts=[True] + [False] * (n - 1))
        doc.ents = [Span(doc, t, t + 1, label="TARGET") for t in rec["targets"]]
        docs.append(doc)
    return docs


def measure(model: str, split: str, gold: List[Doc], setting: str, repeat: int) -> Dict[str, Any]:
    """Speed and accuracy of one lever setting on one split."""
    sentences = task_sentences(gold, split)
    nlp = host(model, setting)
    negation = nlp.get_pipe("negation")
    words = sum(len(r["words"]) for r in sentences)
    # a warm-up call: the first transformer call of a process pays for allocations
    list(negation.pipe(task_docs(nlp, sentences[:64])))
    def run_alone() -> Tuple[List[Doc], float]:
        fresh = task_docs(nlp, sentences)  # built before the clock starts
        return clocked(lambda: list(negation.pipe(fresh)))()

    docs, seconds = timed(run_alone, repeat)
    rows = counts([r["gold"] for r in sentences], [[bool(e._.negated) for e in d.ents] for d in docs])
    out = {k: v for k, v in entry(rows, words, seconds).items() if k in ("p", "r", "f", "words_per_second")}

    e2e = host(model, setting, sentencizer=True)
    texts = [doc.text for doc in gold]
    e2e_words = sum(len(doc) for doc in gold)
    _, e2e_seconds = timed(clocked(lambda: list(e2e.pipe(texts))), repeat)
    out["e2e_words_per_second"] = e2e_words / e2e_seconds

    own = host(model, setting, convention=SPLIT_CONVENTIONS.get(split, split))
    preds = [blank_copy(own.vocab, g, with_cues=False) for g in gold]
    for g in gold:
        tag_punct(g)
    preds = list(own.get_pipe("negation").pipe(preds))
    scores = score_negations([Example(p, g) for p, g in zip(preds, gold)])
    out["nis_tok_f"] = float(scores["neg_nis_tok_f"])
    return out


def render(results: Dict[str, Any]) -> str:
    """The Markdown of the results: per split one row per setting against the baseline."""
    meta = results["meta"]
    lines = ["# Speed levers of the default model", "",
             f"Written by `bench/bench_speed.py` (the task and the settings: its docstring). Model "
             f"`{meta['model']}`; {meta['machine']}; torch threads {meta['torch_threads']}; fastest of "
             f"{meta['repeat']} runs. Words per second of the `negation` component alone (one doc per "
             "sentence) and end to end (`spacy.blank(\"en\")` + `sentencizer` + `negation` on the running "
             "text); F1 of \"is this word negated?\" (default convention) and NIS_tok F1 (the split's "
             "own convention), with their change against the baseline (without it: the first "
             "setting measured) in points."]
    if meta.get("variants"):
        lines.append(f"Rows below the settings: other models at the {meta.get('variant_setting', 'combined')} setting ("
                     + ", ".join(f"`{name}` = `{ref}`" for name, ref in meta["variants"].items()) + ").")
    lines.append("")
    for split in (name for name in meta["splits"] if name in results):
        # the reference of the changes: the baseline, else the first setting measured
        base = results[split].get("baseline") or next(iter(results[split].values()))
        lines += [f"## {SPLIT_NAMES.get(split, split)} {meta.get('part', 'test')}", ""]
        rows = []
        for setting, r in results[split].items():
            rows.append([setting])
            for key in ("words_per_second", "e2e_words_per_second"):
                rows[-1] += [f"{r[key]:,.0f}", f"{r[key] / base[key]:.2f}"]
            for key in ("f", "nis_tok_f"):
                rows[-1] += [pct(r[key]), pct(r[key] - base[key], signed=True)]
        lines += markdown_table(["setting", "words/s", "×", "end to end words/s", "×", "F1", "ΔF1", "NIS_tok F1",
                                 "ΔNIS_tok"], rows)
        lines.append("")
    return "\n".join(lines)


def _write(out_dir: Path, name: str, results: Dict[str, Any]) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out_dir / f"{name}.json", json.dumps(results, indent=2) + "\n")
    atomic_write_text(out_dir / f"{name}.md", render(results))


def _progress(split: str, setting: str, r: Dict[str, Any]) -> None:
    print(f"{split} {setting}: {r['words_per_second']:,.0f} words/s alone, "
          f"{r['e2e_words_per_second']:,.0f} end to end, F1 {100 * r['f']:.2f}, "
          f"NIS_tok {100 * r['nis_tok_f']:.2f}", file=sys.stderr, flush=True)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="the negation model (package name or path)")
    parser.add_argument("--split", action="append", required=True, help="SPLIT=GOLD.spacy (cdsco, bioscope, sfu)")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS), default=None,
                        help="the settings to measure (default: all)")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=MODEL",
                        help="another model measured at the combined setting, as row 'NAME' (e.g. a 3-layer "
                             "model per training seed); repeatable")
    parser.add_argument("--variant-setting", choices=list(SETTINGS), default="combined",
                        help="the setting the --variant models are measured at (default: combined)")
    parser.add_argument("--part", default="test", help="the splits' part, for the headings (e.g. dev)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per measurement (the fastest counts)")
    parser.add_argument("--limit", type=int, default=0, help="first N documents of each split (0: all)")
    parser.add_argument("--out-dir", type=Path, default=None, help="write NAME.json and NAME.md there")
    parser.add_argument("--out-name", default="speed", help="NAME of the written files (default: speed)")
    args = parser.parse_args(argv)
    import torch

    register_extensions()
    splits = {}
    for spec in args.split:
        name, sep, path = spec.partition("=")
        if not sep:
            raise SystemExit(f"--split takes SPLIT=GOLD.spacy, got {spec!r}")
        splits[name] = Path(path)
    settings = args.setting or list(SETTINGS)
    variants: Dict[str, str] = {}
    for spec in args.variant:
        name, sep, ref = spec.partition("=")
        if not sep or not name or name in SETTINGS or name in variants:
            raise SystemExit(f"--variant takes NAME=MODEL with a new NAME, got {spec!r}")
        variants[name] = ref
    results: Dict[str, Any] = {"meta": {
        "model": args.model, "splits": list(splits), "settings": settings, "variants": variants,
        "repeat": args.repeat, "variant_setting": args.variant_setting, "part": args.part,
        "documents_limit": args.limit or "all",
        "machine": f"{os.cpu_count()} CPU cores, {platform.processor() or platform.machine()}",
        "torch_threads": torch.get_num_threads(), "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS")}}
    for split, path in splits.items():
        gold = list(read_docbin(path))[:args.limit or None]
        results[split] = {}
        for setting in settings:
            results[split][setting] = r = measure(args.model, split, gold, setting, args.repeat)
            _progress(split, setting, r)
        for name, ref in variants.items():
            results[split][name] = r = measure(ref, split, gold, args.variant_setting, args.repeat)
            _progress(split, name, r)
        if args.out_dir is not None:  # after every split: a later failure keeps what was measured
            _write(args.out_dir, args.out_name, results)
    print(render(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
