"""``evaluate``: score a *SEM system file against a gold file, or a trained pipeline on a gold .spacy corpus (*SEM 2012, NIS, FairEval).

The three metric families: *SEM 2012 (eval.cd-sco.pl v2.2 semantics, Morante & Blanco
2012), NIS (Sineva et al. 2021) and FairEval on negation spans (Ortmann 2022), computed by
:mod:`spacy_negation.metrics.evaluate` while the files are read sentence by sentence; the
same document from Python: :func:`spacy_negation.analysis.evaluate`. ``evaluate MODEL
DATA.spacy`` runs the pipeline on the corpus's tokens and sentences first, as ``spacy
evaluate`` does, whose console table shows spaCy's own metrics only.
"""
import argparse
from typing import Any, Dict, Tuple

from ..limits import MAX_BATCH_SIZE
from ..errors import Errors
from ..metrics.evaluate import FAIR_KEYS, FAMILIES, evaluate_files, evaluate_sentences, to_json

#: The options of ``evaluate MODEL DATA.spacy`` and their attributes.
MODEL_OPTIONS = {"--convention": "convention", "--gold-cues": "gold_cues", "--system-out": "system_out",
                 "--output": "output", "--batch-size": "batch_size"}
#: The rows of the speculation table: name, key of the ``spec_*`` scores.
SPECULATION_ROWS = (("Cues", "cue"), ("Scope tokens", "st"), ("Scopes (cue match)", "scm"),
                    ("NIS_tok", "nis_tok"), ("NIS_ex", "nis_ex"), ("CoNLL-2010 scopes", "conll2010"))
from ._args import bounded_int, input_file, output_file

__all__ = ["add_arguments", "run", "format_faireval_table"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``evaluate``."""
    p.add_argument("gold", metavar="GOLD|MODEL",
                   help="the gold *SEM file, or a trained negation pipeline (package name or path) "
                        "when the second argument is a .spacy corpus")
    p.add_argument("system", type=input_file, metavar="SYSTEM|DATA.spacy",
                   help="the system *SEM file, or the gold .spacy corpus the pipeline is run on")
    p.add_argument("--metrics", default=",".join(FAMILIES), metavar="FAMILIES",
                   help="comma-separated metric families to compute, any of "
                        f"{','.join(FAMILIES)} (default: all)")
    p.add_argument("--json", action="store_true",
                   help="print the scores as JSON (fractions; tp = the TP used for P/R)")
    p.add_argument("--starsem-compat", action="store_true",
                   help="print the *SEM table exactly as eval.cd-sco.pl v2.2 does (F1 from "
                        "rounded P/R, the SCM tp in the 'no cue match' rows)")
    model = p.add_argument_group("with MODEL DATA.spacy")
    model.add_argument("--convention", default=None,
                       help="annotate in this convention, for a model with components per convention "
                            "(en_negation_general: cdsco, bioscope or sfu; default: the docs' own marks, "
                            "else the model's default); a model of one convention annotates in its own")
    model.add_argument("--gold-cues", action="store_true",
                       help="give the pipeline the gold cues (negation and, where it resolves speculation, "
                            "speculation) and score its scopes (no cue component)")
    model.add_argument("--system-out", type=output_file, default=None,
                       help="also write the pipeline's annotation as a *SEM file")
    model.add_argument("--output", type=output_file, default=None,
                       help="also write the scores as JSON: spaCy's flat neg_* scores, the tables' "
                            "document and the speed")
    model.add_argument("--batch-size", type=bounded_int("--batch-size", 1, MAX_BATCH_SIZE), default=None,
                       help=f"docs per batch (default: 32, at most {MAX_BATCH_SIZE})")


def format_faireval_table(result: Dict[str, Any]) -> str:
    """A readable FairEval table: per method the overall and per-label counts and P/R/F
    (percentages).

    result (Dict[str, Any]): a FairEval result dict.
    RETURNS (str): the table, ending with a newline.
    """
    lines = ["FairEval on negation spans (Ortmann 2022; focus target, paper weights)"]
    head = f"{'':<22}" + "".join(f"{k:>7}" for k in FAIR_KEYS[:9]) + \
        f" | {'P (%)':>7} {'R (%)':>7} {'F1 (%)':>7}"
    lines.append(head)
    lines.append("-" * len(head))
    for method in ("traditional", "fair", "weighted"):
        rows = [("overall", result[method])]
        rows += sorted(result["per_label"][method].items())
        for label, d in rows:
            name = f"{method} {label}"
            counts = "".join(f"{_num(d.get(k)):>7}" for k in FAIR_KEYS[:9])
            lines.append(f"{name:<22}{counts} | {d['p'] * 100:7.2f} {d['r'] * 100:7.2f} "
                         f"{d['f'] * 100:7.2f}")
    return "\n".join(lines) + "\n"


def _num(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and not x.is_integer():
        return f"{x:g}"
    return str(int(x))


def run(args: argparse.Namespace) -> int:
    """Score a *SEM 2012 CoNLL system file against the gold file with the *SEM 2012 scorer's
    metrics (eval.cd-sco.pl v2.2), the negation-instance based scores (NIS) and FairEval on
    negation spans. The files must be token-aligned (columns 0-3 equal, line by line); they
    are read sentence by sentence. With a trained pipeline and a gold .spacy corpus
    (``evaluate MODEL DATA.spacy``), the pipeline annotates the corpus's tokens and
    sentences end to end (with ``--gold-cues``, its scopes of the gold cues) and is scored
    the same way; untagged gold tokens are tagged for the *SEM punctuation rule."""
    from ..metrics.evaluate import parse_families

    families = parse_families(args.metrics)
    speculation: Dict[str, Any] = {}
    if args.system.suffix == ".spacy":
        results, line, speculation = _evaluate_model(args, families)
    else:
        model_only = [option for option, value in MODEL_OPTIONS.items() if getattr(args, value) is not None
                      and getattr(args, value) is not False]
        if model_only:
            raise ValueError(Errors.E973.format(options=", ".join(model_only), system=args.system))
        results, line = evaluate_files(args.gold, args.system, families), ""
    if args.json:
        import json

        document = to_json(results)
        if speculation:
            document["speculation"] = speculation
        print(json.dumps(document, indent=2, sort_keys=False))
        return 0
    blocks = [line] if line else []
    if "starsem" in results:
        from ..metrics.starsem.evaluation import format_starsem_table

        title = "*SEM 2012 (eval.cd-sco.pl v2.2" + (
            ", compatible printout)" if args.starsem_compat else
            " counts; exact F1, tp = TP used for P/R)")
        blocks.append(title + "\n" + format_starsem_table(results["starsem"],
                                                          compat=args.starsem_compat))
    if "nis" in results:
        from ..metrics.nis import format_nis_table, nis_scores

        blocks.append(format_nis_table(nis_scores(results["nis"])))
    if "faireval" in results:
        blocks.append(format_faireval_table(results["faireval"]))
    if speculation:
        blocks.append(format_speculation_table(speculation))
    print("\n".join(blocks), end="")
    return 0


def format_speculation_table(scores: Dict[str, Any]) -> str:
    """The speculation scores of ``evaluate MODEL DATA.spacy`` (the corpus annotates
    speculation: BioScope, SFU Review): per measure P, R and F1 in percent.

    scores (Dict[str, Any]): the flat ``spec_*`` scores of
        :func:`spacy_negation.scoring.scorers.score_instances`.
    RETURNS (str): the table, ending with a newline.
    """
    from ..metrics.core import text_table

    rows = [[name] + [f"{100 * scores[f'spec_{key}_{m}']:.2f}" for m in "prf"] for name, key in SPECULATION_ROWS]
    return "\n".join(["Speculation (cues and scopes, as for negation; CoNLL-2010: cue and both scope "
                      "boundaries exact)"] + text_table(["", "P (%)", "R (%)", "F1 (%)"], rows, rule=True)) + "\n"


def _evaluate_model(args: argparse.Namespace, families: Tuple[str, ...]) -> Tuple[Dict[str, Any], str, Dict[str, Any]]:
    """``evaluate MODEL DATA.spacy``: the pipeline on the corpus, scored; the files asked for
    written. RETURNS the results of the families, a line naming what was scored and the
    speculation scores (``spec_*``; empty when the corpus has no speculation)."""
    from ..analysis.evaluation import annotate_gold, doc_sentences, write_results
    from ..corpora.docbin import read_docbin
    from spacy.training import Example

    from ..negation import SPECULATIONS, get_speculations, register_extensions
    from ..pipeline.model_loading import load_negation_model
    from ..scoring.scorers import score_instances
    from ..util import check_output

    for out in (args.system_out, args.output):
        if out is not None:
            check_output(out, [args.system])  # not the corpus (E125), before the model loads
    register_extensions()
    nlp = load_negation_model(args.gold)
    gold = read_docbin(args.system, vocab=nlp.vocab)
    system, seconds = annotate_gold(nlp, gold, convention=args.convention, gold_cues=args.gold_cues,
                                    punct_tags=True, batch_size=args.batch_size or 32)
    if args.system_out is not None or args.output is not None:
        write_results(system, gold, args.system_out, args.output, seconds, args.gold_cues)
    speculation: Dict[str, Any] = {}
    if any(get_speculations(doc) for doc in gold):  # the tables score negation only: the rest once here
        speculation = score_instances([Example(s, g) for s, g in zip(system, gold)], SPECULATIONS)
    mode = "on gold cues" if args.gold_cues else "end to end"
    convention = f", convention {args.convention}" if args.convention else ""
    words = sum(len(d) for d in system)
    line = f"{args.gold} on {args.system} ({mode}{convention}; {words} words, {len(system)} docs)\n"
    return evaluate_sentences(doc_sentences(gold), doc_sentences(system), families), line, speculation
