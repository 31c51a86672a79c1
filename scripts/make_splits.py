"""Document-level 80/10/10 splits of BioScope abstracts, BioScope clinical and the SFU Review
Corpus, and per-split corpus statistics.

Writes spacy_negation/corpora/data/splits/bioscope_abstracts.json, bioscope_clinical.json and
sfu.json (the document ids of train/dev/test, seed and method), results/corpus_stats.json and
results/corpus_stats.md (documents, sentences, tokens, sentences with negation, negation
instances, sentences with speculation, speculation instances and those with a scope per split;
BioScope full papers, which has no split, as a whole).

    python scripts/make_splits.py [--corpora ../shared/corpora] [--check]

With --check nothing is written; the exit code is 1 if the committed split files differ
from what the seed gives.

Splits: :func:`spacy_negation.corpora.splits.make_document_split` with SEED. BioScope abstracts:
the 1,273 abstracts (DocIDs) as one stratum; BioScope clinical: the 1,954 radiology reports
(CMC DocIDs) as one stratum, read with on_error="skip" (the sentences that cannot be restored
from the challenge texts are skipped and listed in corpus_stats.*); SFU: stratified by domain
folder (8 × 50 reviews -> 40/5/5 per domain). Statistics are counted on the docs the readers
build (:func:`spacy_negation.corpora.stats.corpus_statistics`).
"""
import argparse
import json
import sys
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from spacy.tokens import Doc

from spacy_negation.corpora.docs import document_ids
from spacy_negation.corpora.splits import SPLIT_NAMES, make_document_split, select_documents
from spacy_negation.corpora.stats import CORPUS_KEYS, corpus_statistics
from spacy_negation.metrics.core import markdown_table
from spacy_negation.util import atomic_write_text

#: The project folder (the defaults of --splits-dir and --results-dir are inside it).
REPO = Path(__file__).resolve().parents[1]

SEED = 1273_400
FRACTIONS = (0.8, 0.1, 0.1)

#: Split name -> (reader format, corpus path relative to the corpora folder, stratify by domain,
#: the reader's on_error)
CORPORA: Dict[str, Tuple[str, str, bool, str]] = {
    "bioscope_abstracts": ("bioscope", "bioscope/abstracts.xml", False, "raise"),
    "bioscope_clinical": ("bioscope_clinical", "bioscope-clinical", False, "skip"),
    "sfu": ("sfu", "sfu-review-en/SFU_Review_Corpus_Negation_Speculation", True, "raise"),
}
#: Corpora without a split, counted as a whole: name -> (reader format, corpus path, on_error).
WHOLE_CORPORA: Dict[str, Tuple[str, str, str]] = {
    "bioscope_full_papers": ("bioscope", "bioscope/full_papers.xml", "raise"),
}

#: Whole-corpus numbers stated in each corpus's PROVENANCE.md ("Statistics computed from the
#: copied files"), for the side-by-side check. PROVENANCE.md gives no per-split numbers.
PROVENANCE_TOTALS: Dict[str, Dict[str, int]] = {
    "bioscope_abstracts": {"documents": 1273, "sentences": 11871, "negation_sentences": 1597,
                           "negations": 1719, "speculation_sentences": 2101, "speculations": 2659},
    "bioscope_clinical": {"documents": 1954, "sentences": 6383},
    "sfu": {"documents": 400, "sentences": 17263, "tokens": 322117, "negation_sentences": 3119,
            "negations": 3528, "speculation_sentences": 3912, "speculations": 5363},
    "bioscope_full_papers": {"documents": 9, "sentences": 2670, "negation_sentences": 339, "negations": 376,
                             "speculation_sentences": 519, "speculations": 668},
}
#: What PROVENANCE.md states but the table cannot compare, per corpus.
PROVENANCE_NOTES: Dict[str, str] = {
    "bioscope_clinical": "PROVENANCE.md's 872 negation cues count `<cue type=\"negation\">` elements; "
                         "the table counts instances (a cue of several elements, e.g. no … nor, is one). "
                         "PROVENANCE.md gives no speculation count; the masked file holds 1,137 "
                         "`<cue type=\"speculation\">` elements in 1,111 instances (distinct `ref` per sentence).",
    "bioscope_abstracts": "Speculation: 2,694 `<cue type=\"speculation\">` elements in 2,659 instances "
                          "(distinct `ref` per sentence), as PROVENANCE.md counts them.",
    "bioscope_full_papers": "No split: counted as a whole. Speculation: 682 `<cue type=\"speculation\">` "
                            "elements in 668 instances (distinct `ref` per sentence).",
    "sfu": "Speculation: one instance per `<cue type=\"speculation\">` element (5,363; Konstantinova et al. "
           "2012 give 5,359); its scopes in another sentence than the cue are dropped (W150).",
}


def split_corpus(name: str, corpora: Path) -> Tuple[Dict[str, Any], Dict[str, Dict[str, int]], List[str]]:
    """Split one corpus and count per split.

    name (str): a key of CORPORA.
    corpora (Path): the corpora folder.
    RETURNS (Tuple[Dict[str, Any], Dict[str, Dict[str, int]], List[str]]): the split file
        content, the statistics per split (plus 'total') and the reader's warnings (skipped
        or repaired sentences), with paths relative to the corpora folder.
    """
    fmt, rel, stratified, on_error = CORPORA[name]
    docs, reader_warnings = read_corpus(fmt, corpora / rel, on_error, corpora)
    ids = document_ids(docs)
    strata = {d: d.split("/")[0] for d in ids} if stratified else None
    splits = make_document_split(ids, SEED, FRACTIONS, strata)
    content = {
        "corpus": name,
        "source": rel,
        "format": fmt,
        "seed": SEED,
        "fractions": list(FRACTIONS),
        "stratified_by": "domain folder" if stratified else None,
        "method": "spacy_negation.corpora.splits.make_document_split (scripts/make_splits.py)",
        "splits": splits,
    }
    if on_error != "raise":
        content["on_error"] = on_error
    stats = {split: corpus_statistics(select_documents(docs, splits[split])) for split in SPLIT_NAMES}
    stats["total"] = corpus_statistics(docs)
    return content, stats, reader_warnings


def read_corpus(fmt: str, path: Path, on_error: str, corpora: Path) -> Tuple[List[Doc], List[str]]:
    """The docs of a corpus (whole documents) and the reader's warnings, with paths relative
    to the corpora folder."""
    import spacy
    from spacy_negation.corpora.registry import get_reader

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        docs = list(get_reader(fmt)(path, spacy.blank("en").vocab, 0, on_error=on_error))
    prefix = f"{corpora}/"
    return docs, [str(w.message).replace(prefix, "") for w in caught]


def count_whole_corpus(name: str, corpora: Path) -> Tuple[Dict[str, Dict[str, int]], List[str]]:
    """Count a corpus without a split (a key of WHOLE_CORPORA) as a whole.

    name (str): the corpus.
    corpora (Path): the corpora folder.
    RETURNS (Tuple[Dict[str, Dict[str, int]], List[str]]): {'total': counts} and the reader's
        warnings.
    """
    fmt, rel, on_error = WHOLE_CORPORA[name]
    docs, reader_warnings = read_corpus(fmt, corpora / rel, on_error, corpora)
    return {"total": corpus_statistics(docs)}, reader_warnings


def render_markdown(all_stats: Dict[str, Dict[str, Dict[str, int]]],
                    reader_warnings: Optional[Dict[str, List[str]]] = None) -> str:
    """The statistics as a Markdown document.

    all_stats (Dict[str, Dict[str, Dict[str, int]]]): corpus -> split -> counts.
    reader_warnings (Optional[Dict[str, List[str]]]): corpus -> the reader's warnings.
    RETURNS (str): the Markdown text.
    """
    lines = [
        "# Corpus statistics per split",
        "",
        "Written by `scripts/make_splits.py` (document-level 80/10/10 splits, seed "
        f"{SEED}; ids in `spacy_negation/corpora/data/splits/`). Counted on the docs the readers build: a sentence "
        "with negation has at least one negation instance; an instance is one cue with its "
        "scope (BioScope: one distinct cue `ref`; SFU: one negation `<cue>` element); the same for "
        "speculation (`doc._.speculations`), and \"w/ scope\" counts the speculation instances whose "
        "scope holds a token. BioScope full papers has no split and is counted as a whole. "
        "BioScope clinical is read from its masked file with the words of the CMC 2007 "
        "challenge texts (`convert --format bioscope_clinical --on-error skip`).",
        "",
        "**Published per-split numbers:** none. The corpora's PROVENANCE.md files give no "
        "per-split figures (no \"Table 10\"), and none of the corpora has an official split; "
        "nothing is compared per split. The line under each table compares the whole corpus with the "
        "totals stated in PROVENANCE.md (counted there from the same files).",
        "",
    ]
    for name, stats in all_stats.items():
        ref = PROVENANCE_TOTALS.get(name, {})
        rows = []
        for split in (*SPLIT_NAMES, "total"):
            if split not in stats:
                continue
            s = stats[split]
            share = 100.0 * s["negation_sentences"] / s["sentences"] if s["sentences"] else 0.0
            spec_share = 100.0 * s["speculation_sentences"] / s["sentences"] if s["sentences"] else 0.0
            rows.append([split, f"{s['documents']:,}", f"{s['sentences']:,}", f"{s['tokens']:,}",
                         f"{s['negation_sentences']:,} ({share:.1f}%)", f"{s['negations']:,}",
                         f"{s['speculation_sentences']:,} ({spec_share:.1f}%)", f"{s['speculations']:,}",
                         f"{s['speculation_scopes']:,}"])
        lines += [f"## {name}", "", *markdown_table(["split", "documents", "sentences", "tokens",
                                                     "sentences w/ negation", "negation instances",
                                                     "sentences w/ speculation", "speculation instances",
                                                     "w/ scope"], rows)]
        checks = []
        for key, value in ref.items():
            ours = stats["total"][key]
            checks.append(f"{key} {ours:,} vs {value:,} ({'equal' if ours == value else 'DIFFERENT'})")
        lines += ["", "Whole corpus vs PROVENANCE.md: " + "; ".join(checks) + ".", ""]
        if name in PROVENANCE_NOTES:
            lines += [PROVENANCE_NOTES[name], ""]
        messages = (reader_warnings or {}).get(name, [])
        if messages:
            on_error = CORPORA[name][3] if name in CORPORA else WHOLE_CORPORA[name][2]
            lines += [f"Read with `on_error=\"{on_error}\"`; the reader's {len(messages)} warning(s):",
                      ""]
            lines += [f"- `{message}`" for message in messages]
            lines.append("")
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=REPO / ".." / "shared" / "corpora",
                        help="the corpora folder (default: ../shared/corpora)")
    parser.add_argument("--splits-dir", type=Path, default=REPO / "spacy_negation" / "corpora" / "data" / "splits")
    parser.add_argument("--results-dir", type=Path, default=REPO / "results")
    parser.add_argument("--check", action="store_true",
                        help="only compare the committed split files with a fresh split")
    args = parser.parse_args(argv)
    all_stats: Dict[str, Dict[str, Dict[str, int]]] = {}
    all_warnings: Dict[str, List[str]] = {}
    differ = []
    for name in CORPORA:
        content, stats, reader_warnings = split_corpus(name, args.corpora)
        all_stats[name] = stats
        all_warnings[name] = reader_warnings
        path = args.splits_dir / f"{name}.json"
        text = json.dumps(content, indent=1, ensure_ascii=False) + "\n"
        if args.check:
            if not path.exists() or json.loads(path.read_text(encoding="utf-8")) != content:
                differ.append(str(path))
        else:
            atomic_write_text(path, text)
        counts = {split: len(content["splits"][split]) for split in SPLIT_NAMES}
        print(f"{name}: {counts}", file=sys.stderr)
    if args.check:
        for path in differ:
            print(f"differs from a fresh split: {path}", file=sys.stderr)
        return 1 if differ else 0
    for name in WHOLE_CORPORA:
        all_stats[name], all_warnings[name] = count_whole_corpus(name, args.corpora)
    payload = {"seed": SEED, "fractions": list(FRACTIONS), "keys": list(CORPUS_KEYS),
               "whole_corpora": list(WHOLE_CORPORA),
               "provenance_totals": PROVENANCE_TOTALS, "published_per_split": None,
               "note": "PROVENANCE.md gives no per-split numbers (no 'Table 10'); provenance_totals are the "
                       "whole-corpus counts stated there.",
               "provenance_notes": PROVENANCE_NOTES,
               "reader_warnings": {name: messages for name, messages in all_warnings.items() if messages},
               "corpora": all_stats}
    atomic_write_text(args.results_dir / "corpus_stats.json", json.dumps(payload, indent=1) + "\n")
    atomic_write_text(args.results_dir / "corpus_stats.md", render_markdown(all_stats, all_warnings))
    print(f"wrote {args.results_dir / 'corpus_stats.md'} and .json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
