"""Document-level 80/10/10 splits of BioScope abstracts, BioScope clinical and the SFU Review
Corpus, the NUBes split by file, and per-split corpus statistics.

Writes spacy_negation/corpora/data/splits/bioscope_abstracts.json, bioscope_clinical.json,
sfu.json and nubes.json (the document ids of train/dev/test, seed and method),
results/corpus_stats.json and results/corpus_stats.md (documents, sentences, tokens, sentences
with negation, negation instances, sentences with speculation, speculation instances and those
with a scope per split; BioScope full papers and IULA+, which have no split, as a whole; NoReC_neg
per file of its shipped split).

    python scripts/make_splits.py [--corpora ../shared/corpora] [--check]

With --check nothing is written; the exit code is 1 if the committed split files differ
from what the seed gives.

Splits: :func:`spacy_negation.corpora.splits.make_document_split` with SEED. BioScope abstracts:
the 1,273 abstracts (DocIDs) as one stratum; BioScope clinical: the 1,954 radiology reports
(CMC DocIDs) as one stratum, read with on_error="skip" (the sentences that cannot be restored
from the challenge texts are skipped and listed in corpus_stats.*); SFU: stratified by domain
folder (8 × 50 reviews -> 40/5/5 per domain); NUBes: by file (a file holds one specialty and
report section of one sample), every file of SAMPLE-001 (double-annotated with a referee) in test,
the files of the other nine samples 8/9 train and 1/9 dev stratified by report section
(:func:`spacy_negation.corpora.nubes.make_nubes_split`). Statistics are counted on the docs the
readers build (:func:`spacy_negation.corpora.stats.corpus_statistics`).
"""
import argparse
import json
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from spacy.tokens import Doc

from spacy_negation.corpora.docs import document_ids
from spacy_negation.corpora.nubes import TEST_SAMPLE, TRAIN_DEV_FRACTIONS, make_nubes_split
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
    "nubes": ("nubes", "nubes/NUBes", False, "raise"),
}
#: The corpora split otherwise than by make_document_split: name -> (split function, the
#: split file's fields that describe it).
SPLITTERS: Dict[str, Tuple[Callable[[List[str], int], Dict[str, List[str]]], Dict[str, Any]]] = {
    "nubes": (make_nubes_split, {
        "fractions": None,
        "test": f"every file of {TEST_SAMPLE.upper()} (double-annotated with a referee)",
        "train_dev_fractions": [round(x, 6) for x in TRAIN_DEV_FRACTIONS[:2]],
        "stratified_by": "report section (train/dev, the files of SAMPLE-002 to SAMPLE-010)",
        "method": "spacy_negation.corpora.nubes.make_nubes_split (scripts/make_splits.py)",
    }),
}
#: Corpora without a split, counted as a whole: name -> (reader format, corpus path, on_error).
WHOLE_CORPORA: Dict[str, Tuple[str, str, str]] = {
    "bioscope_full_papers": ("bioscope", "bioscope/full_papers.xml", "raise"),
    "nubes_iula": ("nubes", "nubes/IULA+", "raise"),
}
#: Corpora with a shipped split, one file per split, counted per file: name -> (reader format,
#: split -> corpus path, on_error).
SHIPPED_SPLITS: Dict[str, Tuple[str, Dict[str, str], str]] = {
    "norec_neg": ("norec_neg", {split: f"norec-neg/data/negation_{split}.json" for split in SPLIT_NAMES}, "raise"),
}
#: The language of each format's docs (the vocab they are read with; English if not here).
LANGS = {"norec_neg": "nb", "nubes": "es"}

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
    "norec_neg": {"sentences": 11346, "negation_sentences": 2332, "negations": 2672, "affixal": 662,
                  "discontinuous": 21, "without_scope": 37},
    "nubes": {"documents": 608, "sentences": 29682, "negations": 9431, "negation_sentences": 7567,
              "speculation_sentences": 2219, "speculation_discontinuous": 95},
    "nubes_iula": {"documents": 7, "sentences": 3363, "negation_sentences": 1022, "speculation_sentences": 178,
                   "speculation_discontinuous": 20},
}
#: The corpora whose negation cue kinds are listed under their table, and the counts listed.
DETAIL_CORPORA = ("norec_neg", "nubes", "nubes_iula")
DETAIL_KEYS = ("affixal", "multiword", "discontinuous", "without_scope", "with_event")
#: The order of the corpora in corpus_stats.*.
REPORT_ORDER = ("bioscope_abstracts", "bioscope_clinical", "sfu", "bioscope_full_papers", "norec_neg", "nubes",
                "nubes_iula")
#: Per-split numbers stated in PROVENANCE.md (NoReC_neg: its README's table, checked there).
PUBLISHED_PER_SPLIT: Dict[str, Dict[str, Dict[str, int]]] = {
    "norec_neg": {
        "train": {"sentences": 8543, "negation_sentences": 1768, "negations": 2025, "affixal": 505},
        "dev": {"sentences": 1531, "negation_sentences": 301, "negations": 342, "affixal": 88},
        "test": {"sentences": 1272, "negation_sentences": 263, "negations": 305, "affixal": 69},
    },
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
    "norec_neg": "The shipped train/dev/test files, each counted as one split. \"affixal\" counts the cues "
                 "covering part of a spaCy token: the 662 affixal cues of the release and one non-affixal cue, "
                 "*Ikke* inside the run-together token `skjermIkke` (train 202043-05-01), so train has 506 "
                 "(README: 505). No events, no speculation (not annotated). The 5 scopes that hold their own "
                 "cue lose the cue's characters (W410, below).",
    "nubes": "Split by file: SAMPLE-001 (double-annotated with a referee) is test, the files of the other "
             "samples 8/9 train and 1/9 dev by report section. PROVENANCE.md counts 9,431 negation cue "
             "entities (NegSynMarker 6,635, NegLexMarker 1,824, NegMorMarker 972), each one instance; its "
             "2,575 uncertainty cue entities (UncertLexMarker 2,556, UncertSynMarker 19) are 2,480 speculation "
             "instances, since the 95 `DiscMarker` relations join two entities into one discontinuous cue. "
             "Sentences with negation or speculation and discontinuous uncertainty cues: README.md's table. "
             "Tokens are spaCy's Spanish ones (README.md: 518,068 brat tokens). \"affixal\" in the JSON counts "
             "the 25 cues that cover part of a spaCy token where the text lacks a space (e.g. `.No`).",
    "nubes_iula": "IULA+ (the IULA-SCRC texts annotated with the NUBes guidelines): an extra test set, no split, "
                  "read by the NUBes reader. Sentences with negation or speculation and discontinuous uncertainty "
                  "cues: NUBes's README.md table (its corrected counts). 13 entities are linked to no cue (W411).",
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
    content: Dict[str, Any] = {
        "corpus": name,
        "source": rel,
        "format": fmt,
        "seed": SEED,
        "fractions": list(FRACTIONS),
        "stratified_by": "domain folder" if stratified else None,
        "method": "spacy_negation.corpora.splits.make_document_split (scripts/make_splits.py)",
    }
    if name in SPLITTERS:
        splitter, fields = SPLITTERS[name]
        splits = splitter(ids, SEED)
        content.update(fields)
    else:
        splits = make_document_split(ids, SEED, FRACTIONS, strata)
    content["splits"] = splits
    if on_error != "raise":
        content["on_error"] = on_error
    stats = {split: corpus_statistics(select_documents(docs, splits[split])) for split in SPLIT_NAMES}
    stats["total"] = corpus_statistics(docs)
    if name in SPLITTERS:  # a split of its own: its sizes in the split file (all counts: corpus_stats.*)
        content["counts"] = {split: {"documents": len(splits[split]), "sentences": stats[split]["sentences"]}
                             for split in SPLIT_NAMES}
    return content, stats, reader_warnings


def read_corpus(fmt: str, path: Path, on_error: str, corpora: Path) -> Tuple[List[Doc], List[str]]:
    """The docs of a corpus (whole documents) and the reader's warnings, with paths relative
    to the corpora folder."""
    import spacy
    from spacy_negation.corpora.registry import get_reader

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        docs = list(get_reader(fmt)(path, spacy.blank(LANGS.get(fmt, "en")).vocab, 0, on_error=on_error))
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


def count_shipped_splits(name: str, corpora: Path) -> Tuple[Dict[str, Dict[str, int]], List[str]]:
    """Count a corpus with a shipped split (a key of SHIPPED_SPLITS) per split file and as a
    whole.

    name (str): the corpus.
    corpora (Path): the corpora folder.
    RETURNS (Tuple[Dict[str, Dict[str, int]], List[str]]): split -> counts (plus 'total') and
        the reader's warnings.
    """
    fmt, files, on_error = SHIPPED_SPLITS[name]
    stats: Dict[str, Dict[str, int]] = {}
    all_docs: List[Doc] = []
    all_warnings: List[str] = []
    for split in SPLIT_NAMES:
        docs, reader_warnings = read_corpus(fmt, corpora / files[split], on_error, corpora)
        stats[split] = corpus_statistics(docs)
        all_docs += docs
        all_warnings += reader_warnings
    stats["total"] = corpus_statistics(all_docs)
    return stats, all_warnings


def _on_error(name: str) -> str:
    """The on_error a corpus is read with."""
    if name in CORPORA:
        return CORPORA[name][3]
    if name in SHIPPED_SPLITS:
        return SHIPPED_SPLITS[name][2]
    return WHOLE_CORPORA[name][2]


def _comparison(ours: Dict[str, int], ref: Dict[str, int]) -> str:
    return "; ".join(f"{key} {ours[key]:,} vs {value:,} ({'equal' if ours[key] == value else 'DIFFERENT'})"
                     for key, value in ref.items())


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
        "**Norwegian and Spanish (issue #63).** NoReC_neg has a shipped split: each of its files "
        "(`negation_{train,dev,test}.json`) is counted as its split, and its README's per-split "
        "numbers (checked in its PROVENANCE.md) are compared under its table. NUBes is split by file "
        "(ids: file names; SAMPLE-001 is test, see `nubes.json`), and IULA+ is counted as a whole, an "
        "extra test set. An instance of NUBes is one cue (cue entities joined by `DiscMarker` are one "
        "cue), linked to its scope entities; uncertainty cues are speculation instances. The last line "
        "of these corpora gives per split the negation cues that are affixal (cover part of a spaCy "
        "token), multiword, discontinuous, without scope and with an event.",
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
        lines += ["", "Whole corpus vs PROVENANCE.md: " + _comparison(stats["total"], ref) + ".", ""]
        published = PUBLISHED_PER_SPLIT.get(name)
        if published:
            per_split = [f"{split}: {_comparison(stats[split], published[split])}" for split in SPLIT_NAMES]
            lines += ["Per split vs PROVENANCE.md: " + " — ".join(per_split) + ".", ""]
        if name in PROVENANCE_NOTES:
            lines += [PROVENANCE_NOTES[name], ""]
        if name in DETAIL_CORPORA:
            details = [f"{split} " + " / ".join(f"{stats[split][key]:,}" for key in DETAIL_KEYS)
                       for split in (*SPLIT_NAMES, "total") if split in stats]
            lines += ["Negation cues (" + " / ".join(DETAIL_KEYS) + "): " + "; ".join(details) + ".", ""]
        messages = (reader_warnings or {}).get(name, [])
        if messages:
            on_error = _on_error(name)
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
    for name in SHIPPED_SPLITS:
        all_stats[name], all_warnings[name] = count_shipped_splits(name, args.corpora)
    all_stats = {name: all_stats[name] for name in REPORT_ORDER}
    payload = {"seed": SEED, "fractions": list(FRACTIONS), "keys": list(CORPUS_KEYS),
               "whole_corpora": list(WHOLE_CORPORA), "shipped_splits": list(SHIPPED_SPLITS),
               "provenance_totals": PROVENANCE_TOTALS, "published_per_split": PUBLISHED_PER_SPLIT,
               "note": "The English corpora's PROVENANCE.md give no per-split numbers (no 'Table 10'); "
                       "provenance_totals are the whole-corpus counts stated there; published_per_split: "
                       "NoReC_neg's README table, checked in its PROVENANCE.md.",
               "provenance_notes": PROVENANCE_NOTES,
               "reader_warnings": {name: messages for name, messages in all_warnings.items() if messages},
               "corpora": all_stats}
    atomic_write_text(args.results_dir / "corpus_stats.json", json.dumps(payload, indent=1) + "\n")
    atomic_write_text(args.results_dir / "corpus_stats.md", render_markdown(all_stats, all_warnings))
    print(f"wrote {args.results_dir / 'corpus_stats.md'} and .json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
