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
from typing import Any, Callable, Dict, List, Sequence, Tuple, Union

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


def record_docs(nlp: Any, records: Sequence[Dict[str, Any]]) -> List[Doc]:
    """The docs of the task records, one sentence each, with their targets as entities.

    nlp (Any): the pipeline whose vocab the docs get.
    records (Sequence[Dict[str, Any]]): the records ({"words", "spaces", "targets"}).
    RETURNS (List[Doc]): the docs, in the records' order.
    """
    docs = []
    for rec in records:
        words = rec["words"]
        doc = Doc(nlp.vocab, words=words, spaces=rec["spaces"], sent_starts=[True] + [False] * (len(words) - 1))
        doc.ents = [target_span(doc, t) for t in rec["targets"]]
        docs.append(doc)
    return docs


def timed_run(nlp: Any, records: Sequence[Dict[str, Any]], repeat: int) -> Tuple[List[Doc], float]:
    """The pipeline's components over fresh docs of the records: an untimed warm-up pass (as
    for the models), then ``repeat`` timed passes, of which the fastest counts.

    nlp (Any): the pipeline (its ``vocab`` and ``pipeline``).
    records (Sequence[Dict[str, Any]]): the records ({"words", "spaces", "targets"}).
    repeat (int): the timed passes.
    RETURNS (Tuple[List[Doc], float]): the docs of the first timed pass, and the seconds of
        the fastest (inf without one).
    """
    for name, proc in nlp.pipeline:
        [proc(doc) for doc in record_docs(nlp, records)]
    first: List[Doc] = []
    seconds = float("inf")
    for _ in range(repeat):
        docs = record_docs(nlp, records)
        start = time.perf_counter()
        for name, proc in nlp.pipeline:
            docs = [proc(doc) for doc in docs]
        seconds = min(seconds, time.perf_counter() - start)
        first = first or docs
    return first, seconds


def main(argv: List[str]) -> int:
    tool, src, dst = argv[:3]
    repeat = int(argv[3]) if len(argv) > 3 else 1
    nlp, negated, versions = build(tool)
    records = [json.loads(line) for line in open(src, encoding="utf-8")]
    docs, seconds = timed_run(nlp, records, repeat)
    out = {"negated": [[negated(ent) for ent in doc.ents] for doc in docs], "seconds": seconds,
           "words": sum(len(doc) for doc in docs), "versions": versions}
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(out, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
