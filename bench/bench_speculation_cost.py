"""What resolving speculation costs the ``negation`` host component.

A model whose ``negation_cue`` and ``negation_scope`` have ``kinds = ["negation",
"speculation"]`` resolves the speculation cues and their scopes beside the negations; the
host's ``speculation = false`` switches that off (the cue component decodes no speculation
cue, the scope model reads no speculation cue's window, and with the cue component's
``prefilter`` the sentences that only a speculation cue word would send to the network stay
out). This runs the component on the docs of a ``.spacy`` file (their words, spaces and
sentence starts, in a blank pipeline of the model's language) with the setting on and off,
the two taken in turn in each round, and prints the words per second of the fastest of
``--repeat`` rounds of each and what each found. It prints measurements only.

python bench/bench_speculation_cost.py training/bioscope_spec/model-best corpus/bioscope/dev.spacy
"""
import argparse
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin

from spacy_negation import register_extensions
from spacy_negation.pipeline.negation import NegationResolver

SETTINGS = (("on", True), ("off", False))


def host_docs(nlp: Language, path: Path) -> List[Doc]:
    """The docs of a .spacy file as a host pipeline gets them: words, spaces and sentence
    starts, no annotation.

    nlp (Language): the host pipeline.
    path (Path): the .spacy file.
    RETURNS (List[Doc]): the docs.
    """
    docs = []
    for doc in DocBin().from_disk(path).get_docs(nlp.vocab):
        starts = [bool(t.is_sent_start) for t in doc] if doc.has_annotation("SENT_START") else None
        docs.append(Doc(nlp.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc],
                        sent_starts=starts))
    return docs


def host(model: str, speculation: bool, batch_size: int) -> Tuple[Language, NegationResolver]:
    """A blank pipeline of the model's language with the ``negation`` component."""
    lang = spacy.load(model).lang
    nlp = spacy.blank(lang)
    resolver = nlp.add_pipe("negation", config={"model": model, "speculation": speculation,
                                                "batch_size": batch_size})
    return nlp, resolver


def run(resolver: NegationResolver, docs: Sequence[Doc]) -> Tuple[float, int, int]:
    """One pass of the component over the docs: seconds, negations and speculations found."""
    start = time.perf_counter()
    done = list(resolver.pipe(docs))
    seconds = time.perf_counter() - start
    return seconds, sum(len(d._.negations) for d in done), sum(len(d._.speculations) for d in done)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="the negation pipeline: a path or an installed package name")
    parser.add_argument("data", type=Path, help="a .spacy file (its words are read)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the fastest of each setting counts")
    parser.add_argument("--batch-size", type=int, default=1000, help="the component's batch_size")
    args = parser.parse_args(argv)
    register_extensions()
    resolvers: Dict[str, NegationResolver] = {}
    docs: Dict[str, List[Doc]] = {}
    for name, speculation in SETTINGS:
        nlp, resolvers[name] = host(args.model, speculation, args.batch_size)
        docs[name] = host_docs(nlp, args.data)
    words = sum(len(d) for d in docs["on"])
    print(f"model: {args.model}; the model resolves speculation: {resolvers['on'].resolves_speculation}")
    print(f"data: {args.data}: {len(docs['on'])} docs, {words} words; best of {args.repeat} rounds")
    best: Dict[str, Tuple[float, int, int]] = {}
    for _ in range(max(1, args.repeat)):
        for name, _ in SETTINGS:
            result = run(resolvers[name], docs[name])
            if name not in best or result[0] < best[name][0]:
                best[name] = result
    for name, _ in SETTINGS:
        seconds, negations, speculations = best[name]
        print(f"speculation={name}: {seconds:.3f} s, {words / max(seconds, 1e-9):,.0f} words/s; "
              f"negations: {negations}, speculations: {speculations}")
    print(f"speculation=off runs {best['on'][0] / max(best['off'][0], 1e-9):.2f} times as fast as on")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
