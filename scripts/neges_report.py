"""Evaluate a Spanish negation pipeline on SFU ReviewSP-NEG with the NEGES 2018 task-2
metric (cue detection), overall and per domain, and write results/neges2018.{json,md}.

python scripts/neges_report.py MODEL --test corpus/neges/test.spacy [--dev corpus/neges/dev.spacy]
    [--system-out metrics/neges/test.txt] [--meta metrics/neges/run_meta.json] [--out-dir results]

The pipeline runs end to end on the gold tokens and sentence boundaries of each split
(``spacy_negation.analysis.evaluation.blank_copy``). The metric is the *SEM 2012 cue
measure the task used (Jiménez-Zafra et al. 2018): a predicted cue that matches a gold cue
exactly is a TP, a partial match counts only as an FN, a cue without a gold counterpart
is an FP; P = TP / (TP + FP) ("Cues", not "Cues B"), R = TP / (TP + FN), F1 their harmonic
mean; punctuation tokens are ignored by the *SEM rule (cues never contain punctuation).
Domains are the prefix of the NEGES 2018 document ids (``coches_yes_4_20`` -> coches).
Counts are summed per domain first, then divided (seqeval style; 0 when a denominator is 0):
``spacy_negation.analysis.breakdowns.cue_scores_by_group``.
"""
import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import spacy
from spacy.language import Language

from spacy_negation import register_extensions
from spacy_negation.analysis.breakdowns import cue_scores_by_group
from spacy_negation.analysis.evaluation import blank_copy, doc_sentences
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.starsem import Sentence
from spacy_negation.corpora.starsem_docs import write_starsem_docs
from spacy_negation.metrics.core import markdown_table, pct

from published import NEGES2018_CITATION, neges2018
from report_lib import write_report

#: The NEGES 2018 task-2 participants (Jiménez-Zafra et al. 2018, Tables 2-4) by row label.
PUBLISHED_TEAMS = (("UPC", "Best participant (UPC, CRF)"), ("UNED", "Second participant (UNED)"))
CITATION = NEGES2018_CITATION


def architectures(nlp: Language) -> str:
    """The architectures of the pipeline's components, e.g. 'tok2vec: spacy.HashEmbedCNN.v2,
    negation_cue: spacy-negation.BiLSTMCueTagger.v1, ...'."""
    comps = nlp.config["components"]
    return ", ".join(f"{name}: {comps[name].get('model', {}).get('@architectures', comps[name].get('factory'))}"
                     for name in nlp.pipe_names)


def predict(nlp: Language, path: Path) -> Tuple[List[Sentence], List[Sentence], List[Any], float, int]:
    """Run the pipeline end to end on a gold split.

    nlp (Language): the pipeline.
    path (Path): the gold .spacy file.
    RETURNS (tuple): gold sentences, system sentences, system docs, seconds, words.
    """
    gold = read_docbin(path, vocab=nlp.vocab)
    inputs = [blank_copy(nlp.vocab, g, False) for g in gold]
    start = time.perf_counter()
    system = list(nlp.pipe(inputs, batch_size=64))
    seconds = time.perf_counter() - start
    return doc_sentences(gold), doc_sentences(system), system, seconds, sum(len(d) for d in system)


def _prf(scores: Dict[str, Any]) -> List[str]:
    """Precision, recall and F1 in percent."""
    return [pct(scores[k]) for k in ("p", "r", "f")]


def render_markdown(results: Dict[str, Any]) -> str:
    """The results as Markdown (percent, 2 decimals).

    results (Dict[str, Any]): the JSON document.
    RETURNS (str): the Markdown text.
    """
    meta = results["meta"]
    lines = ["# Spanish negation cue detection: NEGES 2018 task 2 (SFU ReviewSP-NEG)", "",
             "Written by `scripts/neges_report.py`; reproduce with `spacy project run neges` "
             "(see `results/README.md`). Scores in percent; `neges2018.json` holds fractions.", "",
             "## Data, metric and run", ""]
    for key, value in meta.items():
        if key != "citation":
            lines.append(f"- **{key}**: {json.dumps(value) if isinstance(value, (dict, list)) else value}")
    o = results["test"]["overall"]
    published = neges2018()
    rows: List[List[Optional[str]]] = [["spacy-negation (CNN, see backbone)", *_prf(o), str(o["tp"]), str(o["fp"]),
                                        str(o["fn"])]]
    rows += [[f"{label}, published", *(f"{published[team]['all'][k]:.2f}" for k in "prf"), None, None, None]
             for team, label in PUBLISHED_TEAMS]
    lines += ["", "## Test, overall", "", *markdown_table(["System", "P", "R", "F1", "TP", "FP", "FN"], rows)]
    lines += ["", f"Published rows: {CITATION} Tables 2-4. A submission error kept the UNED "
              "system from being evaluated on the computers domain; the paper asks that its overall "
              "scores be read with caution.", "",
              "## Test, per domain", ""]
    lines += markdown_table(["Domain", "gold cues", "P", "R", "F1", "TP", "FP", "FN", "UPC F1, published",
                             "UNED F1, published"],
                            [[domain, str(s["gold"]), *_prf(s), str(s["tp"]), str(s["fp"]), str(s["fn"])]
                             + [f"{published[team][domain]['f']:.2f}" if domain in published[team] else "-"
                                for team, _ in PUBLISHED_TEAMS]
                             for domain, s in results["test"]["per_domain"].items()])
    if "dev" in results:
        lines += ["", "## Dev (model selection), overall", "",
                  *markdown_table(["P", "R", "F1"], [_prf(results["dev"]["overall"])])]
    lines.append("")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("--test", type=Path, default=Path("corpus/neges/test.spacy"))
    parser.add_argument("--dev", type=Path, default=None)
    parser.add_argument("--system-out", type=Path, default=Path("metrics/neges/test.txt"))
    parser.add_argument("--meta", type=Path, default=Path("metrics/neges/run_meta.json"))
    parser.add_argument("--out-dir", type=Path, default=Path("results"))
    args = parser.parse_args(argv)
    register_extensions()
    nlp = spacy.load(args.model)
    gold_s, sys_s, system, seconds, words = predict(nlp, args.test)
    results: Dict[str, Any] = {
        "meta": {
            "task": "NEGES 2018 task 2 (negation cue detection), SFU ReviewSP-NEG; train and dev "
                    "= the task's train/dev reviews, test = the 80 test reviews with the gold of "
                    "the NEGES 2019 XML release (same split; token sequences identical to the "
                    "task-2 test CoNLL, see the corpus PROVENANCE.md)",
            "metric": "*SEM 2012 cue measure: exact match TP, partial match FN only, P = TP/(TP+FP)",
            "model": str(args.model),
            "backbone": architectures(nlp),
            "test_words_per_second": round(words / seconds) if seconds else 0,
            "citation": CITATION,
        },
        "test": cue_scores_by_group(gold_s, sys_s),
    }
    if args.meta.exists():
        results["meta"]["run"] = json.loads(args.meta.read_text(encoding="utf-8"))
    if args.dev is not None:
        dev_gold, dev_sys, _, _, _ = predict(nlp, args.dev)
        results["dev"] = cue_scores_by_group(dev_gold, dev_sys)
    write_starsem_docs(system, args.system_out)
    write_report(args.out_dir, "neges2018", results, render_markdown(results), ensure_ascii=False)
    o = results["test"]["overall"]
    print(f"NEGES 2018 test cues: P {100 * o['p']:.2f} R {100 * o['r']:.2f} F1 {100 * o['f']:.2f} "
          f"-> {args.out_dir}/neges2018.{{json,md}}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
