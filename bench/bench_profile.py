"""Where the ``negation`` component's time goes, per English test split.

On the task of ``bench_vs_rules.py`` (one doc per sentence, gold tokens) at the package's
defaults (``bench_speed.py``'s ``combined`` setting), this measures the component's words
per second and splits its time into:

- ``transformer``: the Hugging Face model's forward passes (int8), timed by wrapping the
  module's ``forward``;
- ``tokenizer``: spacy-transformers' ``huggingface_tokenize`` (the backbone tokenizer's word
  pieces, offsets and piece strings);
- ``rest``: everything else (the prefilter, the docs for the model, alignment, the cue and
  scope heads and their decoders, copying the negations to the host docs).

It also gives the share of the split's words in sentences that pass the cue prefilter
(only those reach the network) and two ceilings: the words per second if the transformer
cost nothing, and if only the transformer cost anything. The 30,000 words/s goal of the
default model needs the second ceiling above it at the least.

python bench/bench_profile.py --model en_negation_general --split cdsco=corpus/test.spacy \
    --split bioscope=corpus/bioscope/test.spacy --split sfu=corpus/sfu/test.spacy \
    --split bioscope_clinical=corpus/bioscope_clinical/test.spacy --out-dir results
"""
import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Sequence

import spacy
from spacy.tokens import DocBin

from bench_speed import host, task_docs
from bench_vs_rules import SPLIT_NAMES, task_sentences
from spacy_negation import register_extensions
from spacy_negation.metrics.core import markdown_table
from spacy_negation.util import atomic_write_text


class Clock:
    """Seconds spent inside wrapped callables."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def wrap(self, func: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start
        return timed


def instrument(nlp: Any) -> Dict[str, Clock]:
    """Wrap the forward of every transformer module of the model and spacy-transformers'
    tokenization."""
    from spacy_transformers.layers import transformer_model
    from spacy_transformers.layers.hf_shim import HFShim

    clocks = {"transformer": Clock(), "tokenizer": Clock()}
    # the module's global, which its forward calls: word pieces, offsets and piece strings
    tokenize = getattr(transformer_model.huggingface_tokenize, "__wrapped__", transformer_model.huggingface_tokenize)
    timed_tokenize = clocks["tokenizer"].wrap(tokenize)
    timed_tokenize.__wrapped__ = tokenize  # type: ignore[attr-defined]
    transformer_model.huggingface_tokenize = timed_tokenize
    seen = set()
    inner = nlp.get_pipe("negation").negation_nlp
    for _, pipe in inner.pipeline:
        model = getattr(pipe, "model", None)
        if model is None:
            continue
        for node in model.walk():
            for shim in node.shims:
                module = getattr(shim, "_model", None)
                if isinstance(shim, HFShim) and module is not None and id(module) not in seen:
                    seen.add(id(module))
                    module.forward = clocks["transformer"].wrap(module.forward)
    return clocks


def profile(model: str, split: str, path: str, repeat: int) -> Dict[str, Any]:
    """The component's speed and its time split on one split."""
    vocab = spacy.blank("en").vocab
    gold = list(DocBin().from_disk(path).get_docs(vocab))
    sentences = task_sentences(gold, split)
    nlp = host(model, "combined")
    negation = nlp.get_pipe("negation")
    cue = negation.cue
    words = sum(len(r["words"]) for r in sentences)
    docs = task_docs(nlp, sentences)
    passing = sum(len(d) for d in docs if cue is None or cue.candidate_sentences(d))
    clocks = instrument(nlp)
    list(negation.pipe(task_docs(nlp, sentences[:64])))  # warm-up
    best: Optional[Dict[str, float]] = None
    for _ in range(repeat):
        for clock in clocks.values():
            clock.seconds = 0.0
        fresh = task_docs(nlp, sentences)
        start = time.perf_counter()
        list(negation.pipe(fresh))
        total = time.perf_counter() - start
        if best is None or total < best["total"]:
            best = {"total": total, **{k: c.seconds for k, c in clocks.items()}}
    assert best is not None
    rest = best["total"] - best["transformer"] - best["tokenizer"]
    return {"words": words, "passing_share": passing / words, "words_per_second": words / best["total"],
            "seconds": best["total"], "transformer_share": best["transformer"] / best["total"],
            "tokenizer_share": best["tokenizer"] / best["total"], "rest_share": rest / best["total"],
            "without_transformer_wps": words / (best["total"] - best["transformer"]),
            "transformer_only_wps": words / best["transformer"] if best["transformer"] else None}


def render(results: Dict[str, Any]) -> str:
    meta = results["meta"]
    lines = ["# Where the default model's time goes", "",
             f"Written by `bench/bench_profile.py` (what it measures: its docstring). Model `{meta['model']}` at "
             f"the package's defaults; {meta['machine']}; torch threads {meta['torch_threads']}; fastest of "
             f"{meta['repeat']} runs; the component alone, one doc per sentence.", ""]
    lines += markdown_table(["split", "words/s", "words through the network", "transformer", "tokenizer", "rest",
                             "words/s, transformer free", "words/s, transformer only"],
                            [[SPLIT_NAMES.get(split, split), f"{r['words_per_second']:,.0f}"]
                             + [f"{100 * r[key]:.0f}%" for key in ("passing_share", "transformer_share",
                                                                   "tokenizer_share", "rest_share")]
                             + [f"{r['without_transformer_wps']:,.0f}",
                                f"{r['transformer_only_wps']:,.0f}" if r["transformer_only_wps"] else "-"]
                             for r, split in ((results[split], split) for split in meta["splits"])])
    return "\n".join(lines) + "\n"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="en_negation_general")
    parser.add_argument("--split", action="append", required=True, help="NAME=PATH of a gold .spacy file")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out-dir", type=Path, default=Path("."))
    args = parser.parse_args(argv)
    import torch

    register_extensions()
    splits: Dict[str, str] = dict(s.split("=", 1) for s in args.split)
    results: Dict[str, Any] = {"meta": {"model": args.model, "repeat": args.repeat, "splits": list(splits),
                                        "machine": f"{os.cpu_count()} CPU cores, {platform.machine()}",
                                        "torch_threads": torch.get_num_threads()}}
    for split, path in splits.items():
        results[split] = profile(args.model, split, path, args.repeat)
        r = results[split]
        print(f"{split}: {r['words_per_second']:,.0f} words/s, transformer {100 * r['transformer_share']:.0f}%, "
              f"tokenizer {100 * r['tokenizer_share']:.0f}%", file=sys.stderr, flush=True)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(args.out_dir / "speed_profile.json", json.dumps(results, indent=2) + "\n")
    text = render(results)
    atomic_write_text(args.out_dir / "speed_profile.md", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
