"""Runs one rule-based negation tool on the entity-negation task files of bench_vs_rules.py.

Executed by bench_vs_rules.py with the Python of the tool's own virtualenv (negspacy and
medspaCy need different spaCy versions), so it imports nothing from spacy-negation.

python rule_runner.py TOOL INPUT.jsonl OUTPUT.json [REPEAT]
    TOOL: negspacy_en | negspacy_en_clinical | medspacy_context
    INPUT: one sentence a line: {"words", "spaces", "targets"}; a target is a token index
           (a one-token entity) or a [start, end) pair of token indices (a multi-token entity)
    REPEAT: timed passes after the untimed warm-up (default 1)
    OUTPUT: {"negated": [[bool per target] per sentence], "seconds": component time (the
             fastest pass),
             "words": words processed, "versions": {...}}
"""
import json
import sys
import time
from typing import Any, Callable, Dict, List, Sequence, Union

import spacy
from spacy.tokens import Doc, Span

LABEL = "TARGET"


def build(tool: str) -> "tuple[spacy.language.Language, Callable[[Span], bool], Dict[str, str]]":
    """The pipeline running the tool on docs with entities, and how to read an entity."""
    versions = {"spacy": spacy.__version__}
    if tool.startswith("negspacy_"):
        from negspacy.negation import Negex  # noqa: F401  (registers the "negex" factory)
        from importlib.metadata import version
        from negspacy.termsets import termset

        nlp = spacy.blank("en")
        terms = termset(tool[len("negspacy_"):])
        nlp.add_pipe("negex", config={"neg_termset": terms.get_patterns(), "ent_types": [LABEL]})
        versions["negspacy"] = version("negspacy")
        return nlp, lambda ent: bool(ent._.negex), versions
    if tool == "medspacy_context":
        import medspacy  # noqa: F401  (registers the "medspacy_context" factory)

        nlp = spacy.blank("en")
        nlp.add_pipe("medspacy_context")
        versions["medspacy"] = medspacy.__version__
        return nlp, lambda ent: bool(ent._.is_negated), versions
    raise SystemExit(f"unknown tool {tool!r}")


def target_span(doc: Doc, target: Union[int, Sequence[int]]) -> Span:
    """The entity of a target: a token index, or a [start, end) pair of token indices."""
    if isinstance(target, int):
        return Span(doc, target, target + 1, label=LABEL)
    start, end = target
    return Span(doc, start, end, label=LABEL)


def main(argv: List[str]) -> int:
    tool, src, dst = argv[:3]
    repeat = int(argv[3]) if len(argv) > 3 else 1
    nlp, negated, versions = build(tool)
    records = [json.loads(line) for line in open(src, encoding="utf-8")]

    def make_docs() -> List[Doc]:
        docs = []
        for rec in records:
            words = rec["words"]
            doc = Doc(nlp.vocab, words=words, spaces=rec["spaces"],
                      sent_starts=[True] + [False] * (len(words) - 1))
            doc.ents = [target_span(doc, t) for t in rec["targets"]]
            docs.append(doc)
        return docs

    for name, proc in nlp.pipeline:  # an untimed warm-up pass, as for the models
        [proc(doc) for doc in make_docs()]
    first: List[Doc] = []
    seconds = float("inf")
    for _ in range(repeat):  # the fastest of the timed passes counts
        docs = make_docs()
        start = time.perf_counter()
        for name, proc in nlp.pipeline:
            docs = [proc(doc) for doc in docs]
        seconds = min(seconds, time.perf_counter() - start)
        first = first or docs
    docs = first
    out = {"negated": [[negated(ent) for ent in doc.ents] for doc in docs], "seconds": seconds,
           "words": sum(len(doc) for doc in docs), "versions": versions}
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(out, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
