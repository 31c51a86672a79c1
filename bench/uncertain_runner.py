"""Runs medspaCy ConText on the task files of bench_vs_rules.py and bench_clinical.py and
answers per entity "is this concept uncertain?" (``ent._.is_uncertain``: a
POSSIBLE_EXISTENCE modifier of ConText's default English rules) beside "is it negated?"
(``ent._.is_negated``).

Executed by bench_vs_rules.py with the Python of the medspaCy virtualenv, as
rule_runner.py is (whose pipeline, ``build``, and timed passes over the task's docs,
``timed_run``, it reuses unchanged), so it imports nothing from spacy-negation.

python uncertain_runner.py TOOL INPUT.jsonl OUTPUT.json [REPEAT]
    TOOL: medspacy_context (negspacy answers negation only)
    INPUT: as rule_runner.py's: one sentence a line, {"words", "spaces", "targets"}
    REPEAT: timed passes after the untimed warm-up (default 1)
    OUTPUT: {"uncertain": [[bool per target] per sentence], "negated": [[...]], "seconds":
             component time (the fastest pass), "words": words processed, "versions": {...}}
"""
import json
import sys
from typing import Any, Callable, Dict, List

from spacy.tokens import Span

import rule_runner

#: Tools that answer "is this concept uncertain?", and how to read an entity.
UNCERTAIN: Dict[str, Callable[[Span], bool]] = {
    "medspacy_context": lambda ent: bool(ent._.is_uncertain),
}


def main(argv: List[str]) -> int:
    tool, src, dst = argv[:3]
    repeat = int(argv[3]) if len(argv) > 3 else 1
    if tool not in UNCERTAIN:
        raise SystemExit(f"{tool!r} answers no uncertainty; known: {', '.join(UNCERTAIN)}")
    nlp, negated, versions = rule_runner.build(tool)
    uncertain = UNCERTAIN[tool]
    records = [json.loads(line) for line in open(src, encoding="utf-8")]
    first, seconds = rule_runner.timed_run(nlp, records, repeat)
    out: Dict[str, Any] = {"uncertain": [[uncertain(ent) for ent in doc.ents] for doc in first],
                           "negated": [[negated(ent) for ent in doc.ents] for doc in first],
                           "seconds": seconds, "words": sum(len(doc) for doc in first), "versions": versions}
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(out, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
