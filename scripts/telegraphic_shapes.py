"""The telegraphic shapes of real clinical text: how a model resolves the BioScope clinical
negations (radiology reports annotated by Vincze et al. 2008, not by this project) whose
scope is a coordinated list after the cue ("No infiltrate or effusion.") or whose concept
comes before the cue ("The focus ... is not seen"), the shapes that cut a model trained on
full sentences short.

A gold negation has the shape ``list`` when its scope, after its last cue token, holds a
comma or a coordinating word (*or*, *and*, *nor*), and ``post`` when its scope starts before
its first cue token (a negation can have both). For each shape: how many gold negations,
how many the model found (a predicted negation with the same cue tokens), how many with the
same scope too, the scope tokens' precision, recall and F1 over the gold negations (a gold
negation whose cue was not found counts its scope tokens as missed), and, for ``list``, the
recall of the *later items*: the gold scope tokens after the first coordinator, which a
scope that stops at the first item misses.

    python scripts/telegraphic_shapes.py corpus/bioscope_clinical/test.spacy \\
        --model MODEL [--convention bioscope] [--output metrics/telegraphic.json]
"""
import argparse
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc

from spacy_negation import get_negations

SHAPES = ("list", "post")
COORDINATORS = {",", "or", "and", "nor"}


def shapes_of(cue: Sequence[int], scope: Sequence[int], words: Sequence[str]) -> List[str]:
    """The telegraphic shapes of a negation given its cue and scope token indices and the
    lower-case words of its doc."""
    out: List[str] = []
    if not cue or not scope:
        return out
    if any(words[i] in COORDINATORS for i in scope if i > max(cue)):
        out.append("list")
    if min(scope) < min(cue):
        out.append("post")
    return out


def later_items(cue: Sequence[int], scope: Sequence[int], words: Sequence[str]) -> Set[int]:
    """The scope tokens after the first coordinator that follows the cue."""
    after = sorted(i for i in scope if i > max(cue))
    firsts = [i for i in after if words[i] in COORDINATORS]
    return {i for i in after if firsts and i > firsts[0]}


def _tokens(neg: Any, role: str) -> Tuple[int, ...]:
    return tuple(sorted({t.i for t in getattr(neg, f"{role}_tokens")}))


def count_shapes(gold: Sequence[Doc], system: Sequence[Doc]) -> Dict[str, Dict[str, int]]:
    """The counts of every shape over parallel gold and system docs."""
    counts = {shape: dict.fromkeys(("n", "cue_found", "exact_scope", "tp", "fp", "fn",
                                    "later_gold", "later_found"), 0) for shape in SHAPES}
    for g, s in zip(gold, system):
        words = [t.lower_ for t in g]
        predicted = {_tokens(n, "cue"): set(_tokens(n, "scope")) for n in get_negations(s)}
        for neg in get_negations(g):
            cue, scope = _tokens(neg, "cue"), set(_tokens(neg, "scope"))
            shapes = shapes_of(cue, sorted(scope), words)
            found: Optional[Set[int]] = predicted.get(cue)
            for shape in shapes:
                c = counts[shape]
                c["n"] += 1
                got = found if found is not None else set()
                c["cue_found"] += found is not None
                c["exact_scope"] += found is not None and found == scope
                c["tp"] += len(got & scope)
                c["fp"] += len(got - scope)
                c["fn"] += len(scope - got)
                if shape == "list":
                    later = later_items(cue, sorted(scope), words)
                    c["later_gold"] += len(later)
                    c["later_found"] += len(later & got)
    return counts


def rates(counts: Dict[str, Dict[str, int]]) -> Dict[str, Dict[str, Any]]:
    """The counts with their percentages (None where there is nothing to divide by)."""
    def pct(a: int, b: int) -> Optional[float]:
        return round(100.0 * a / b, 2) if b else None

    out: Dict[str, Dict[str, Any]] = {}
    for shape, c in counts.items():
        p, r = pct(c["tp"], c["tp"] + c["fp"]), pct(c["tp"], c["tp"] + c["fn"])
        f = round(2 * p * r / (p + r), 2) if p is not None and r is not None and p + r else None
        out[shape] = {**c, "cue_found_pct": pct(c["cue_found"], c["n"]),
                      "exact_scope_pct": pct(c["exact_scope"], c["n"]),
                      "scope_p": p, "scope_r": r, "scope_f1": f}
        if shape == "list":
            out[shape]["later_items_recall"] = pct(c["later_found"], c["later_gold"])
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    import spacy

    from spacy_negation import register_extensions
    from spacy_negation.analysis.evaluation import annotate_gold
    from spacy_negation.corpora.docbin import read_docbin

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gold", type=Path, nargs="+", help="gold .spacy files (BioScope clinical splits)")
    parser.add_argument("--model", required=True, help="a trained negation pipeline (package name or path)")
    parser.add_argument("--convention", default="bioscope",
                        help="the convention to annotate in (a model with components per convention)")
    parser.add_argument("--output", type=Path, default=None, help="write the counts and rates as JSON")
    args = parser.parse_args(argv)
    register_extensions()
    nlp = spacy.load(args.model)
    gold: List[Doc] = [doc for path in args.gold for doc in read_docbin(path, vocab=nlp.vocab)]
    system, _ = annotate_gold(nlp, gold, convention=args.convention)
    result = {"model": str(args.model), "gold": [str(p) for p in args.gold],
              "convention": args.convention, "shapes": rates(count_shapes(gold, system))}
    for shape, r in result["shapes"].items():
        extra = f", later items recall {r['later_items_recall']}" if shape == "list" else ""
        print(f"{shape}: {r['n']} negations, cue found {r['cue_found_pct']}%, exact scope "
              f"{r['exact_scope_pct']}%, scope tokens P/R/F1 {r['scope_p']}/{r['scope_r']}/"
              f"{r['scope_f1']}{extra}", file=sys.stderr)
    if args.output is not None:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
