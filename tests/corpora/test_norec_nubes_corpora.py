"""NoReC_neg and NUBes/IULA+ read from ../shared/corpora: the counts of PROVENANCE.md (and of the
corpora's README tables it checked), counted here from the raw files with json and plain line
splitting, against the readers' docs and results/corpus_stats.json; the committed NUBes split.

Where a reader's count legitimately differs from PROVENANCE.md, the test says so:

- NoReC_neg "affixal": 662 cues are flagged ``Affixal`` (505 / 88 / 69), the statistics count
  663 (506 in train) cues that cover part of a spaCy token: the extra one is the non-affixal
  *Ikke* inside the run-together token ``skjermIkke`` (train 202043-05-01), which no tokenizer
  that keeps the corpus's tokens can make a whole token.
- NUBes uncertainty: PROVENANCE.md counts 2,575 uncertainty cue entities (UncertLexMarker 2,556,
  UncertSynMarker 19); the reader makes 2,480 speculation instances, because each of the 95
  ``DiscMarker`` relations joins two entities into one discontinuous cue (README.md: 95
  discontinuous uncertainty cues). The 9,431 negation cue entities are 9,431 instances (no
  ``DiscMarker`` joins negation cues).
"""
import collections
import json
from bisect import bisect_right
import warnings
from pathlib import Path
from typing import Dict, List

import pytest
import spacy
from spacy.tokens import Doc

from spacy_negation.corpora.docs import document_ids
from spacy_negation.corpora.norec import read_norec
from spacy_negation.corpora.nubes import make_nubes_split, read_nubes
from spacy_negation.corpora.splits import SPLIT_NAMES, select_split, split_file
from spacy_negation.corpora.stats import corpus_statistics

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
#: NoReC_neg per split (PROVENANCE.md, from its README's table): sentences, with negation, cues,
#: affixal cues.
NOREC = {"train": (8543, 1768, 2025, 505), "dev": (1531, 301, 342, 88), "test": (1272, 263, 305, 69)}
#: NUBes annotations (PROVENANCE.md).
NUBES_ANNOTATIONS = {"NegSynMarker": 6635, "NegLexMarker": 1824, "NegMorMarker": 972, "UncertLexMarker": 2556,
                     "UncertSynMarker": 19, "Scope": 10574, "DiscScope": 689, "DiscMarker": 95}


def corpus(shared_dir: Path, *parts: str) -> Path:
    path = shared_dir.joinpath("corpora", *parts)
    if not path.exists():
        pytest.skip(f"{path} not found")
    return path


def committed() -> Dict[str, Dict[str, Dict[str, int]]]:
    return json.loads((REPO / "results" / "corpus_stats.json").read_text(encoding="utf-8"))["corpora"]


def quietly(docs) -> List[Doc]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(docs)


@pytest.fixture(scope="module")
def norec(shared_dir) -> Dict[str, List[Doc]]:
    folder = corpus(shared_dir, "norec-neg", "data")
    vocab = spacy.blank("nb").vocab
    return {split: quietly(read_norec(folder / f"negation_{split}.json", vocab, 0)) for split in SPLIT_NAMES}


@pytest.fixture(scope="module")
def nubes(shared_dir) -> Dict[str, List[Doc]]:
    vocab = spacy.blank("es").vocab
    return {part: quietly(read_nubes(corpus(shared_dir, "nubes", part), vocab, 0)) for part in ("NUBes", "IULA+")}


@pytest.mark.parametrize("split", SPLIT_NAMES)
def test_norec_counts_equal_provenance(norec, shared_dir, split):
    raw = json.loads(corpus(shared_dir, "norec-neg", "data", f"negation_{split}.json").read_text(encoding="utf-8"))
    negations = [n for sent in raw for n in sent["negations"]]
    sentences, with_negation, cues, affixal = NOREC[split]
    assert (len(raw), sum(bool(s["negations"]) for s in raw), len(negations),
            sum(n["Affixal"] for n in negations)) == NOREC[split]  # the raw file, as PROVENANCE.md counts it
    stats = corpus_statistics(norec[split])
    assert (stats["sentences"], stats["negation_sentences"], stats["negations"]) == (sentences, with_negation, cues)
    assert stats["affixal"] == affixal + (split == "train")  # + skjermIkke (see the module docstring)
    assert stats == committed()["norec_neg"][split]


def test_norec_partial_cues_are_the_affixal_ones_and_skjermikke(norec, shared_dir):
    raw = json.loads(corpus(shared_dir, "norec-neg", "data", "negation_train.json").read_text(encoding="utf-8"))
    flagged = collections.Counter(s["sent_id"] for s in raw for n in s["negations"] if n["Affixal"])
    partial: Dict[str, int] = collections.Counter()
    for doc in norec["train"]:
        starts = [sent.start for sent in doc.sents]
        ids = doc.user_data["spacy_negation.starsem"]["sent_nos"]
        for neg in doc._.negations:
            if neg.is_affixal:
                partial[ids[bisect_right(starts, neg.cue[0].i) - 1]] += 1
    assert partial - flagged == {"202043-05-01": 1} and not flagged - partial
    total = corpus_statistics(norec["train"] + norec["dev"] + norec["test"])
    assert (total["sentences"], total["negations"], total["discontinuous"], total["without_scope"]) == (
        11346, 2672, 21, 37)
    assert total == committed()["norec_neg"]["total"]


def nubes_raw_counts(folder: Path) -> Dict[str, int]:
    """Annotation types, files and non-blank lines of a brat folder, counted from the raw files."""
    counts: Dict[str, int] = collections.Counter()
    for ann in folder.rglob("*.ann"):
        for line in ann.read_text(encoding="utf-8").splitlines():
            if line.strip():
                counts[line.split("\t")[1].split(" ")[0]] += 1
        counts["files"] += 1
        counts["sentences"] += sum(bool(x.strip()) for x in ann.with_suffix(".txt").read_text(encoding="utf-8")
                                   .splitlines())
    return counts


def test_nubes_counts_equal_provenance(nubes, shared_dir):
    raw = nubes_raw_counts(corpus(shared_dir, "nubes", "NUBes"))
    assert {key: raw[key] for key in NUBES_ANNOTATIONS} == NUBES_ANNOTATIONS
    assert (raw["files"], raw["sentences"]) == (608, 29682)
    stats = corpus_statistics(nubes["NUBes"])
    negation_cues = sum(NUBES_ANNOTATIONS[t] for t in ("NegSynMarker", "NegLexMarker", "NegMorMarker"))
    uncertainty_cues = NUBES_ANNOTATIONS["UncertLexMarker"] + NUBES_ANNOTATIONS["UncertSynMarker"]
    assert (negation_cues, uncertainty_cues) == (9431, 2575)  # the numbers
    assert stats["sentences"] == 29682 and stats["documents"] == 608
    assert stats["negations"] == negation_cues
    assert stats["speculations"] == uncertainty_cues - NUBES_ANNOTATIONS["DiscMarker"] == 2480
    assert stats["speculation_discontinuous"] == NUBES_ANNOTATIONS["DiscMarker"]
    # README.md's table: sentences affected by negation and by uncertainty
    assert (stats["negation_sentences"], stats["speculation_sentences"]) == (7567, 2219)
    assert stats == committed()["nubes"]["total"]


def test_iula_counts(nubes, shared_dir):
    raw = nubes_raw_counts(corpus(shared_dir, "nubes", "IULA+"))
    stats = corpus_statistics(nubes["IULA+"])
    assert (raw["files"], raw["sentences"]) == (stats["documents"], stats["sentences"]) == (7, 3363)
    assert stats["negations"] == raw["NegSynMarker"] + raw["NegLexMarker"] + raw["NegMorMarker"]
    assert stats["speculations"] == raw["UncertLexMarker"] + raw["UncertSynMarker"] - raw["DiscMarker"]
    assert (stats["negation_sentences"], stats["speculation_sentences"]) == (1022, 178)  # README.md (corrected)
    assert committed()["nubes_iula"] == {"total": stats}


def test_nubes_split_reproducible_and_stats_current(nubes, shared_dir):
    docs = nubes["NUBes"]
    data = json.loads(split_file("nubes").read_text(encoding="utf-8"))
    assert make_nubes_split(document_ids(docs), data["seed"]) == data["splits"]
    results = committed()["nubes"]
    for split in SPLIT_NAMES:
        part = select_split(docs, "nubes", split, corpus(shared_dir, "nubes", "NUBes"))
        assert corpus_statistics(part) == results[split]
    assert sum(results[s]["sentences"] for s in SPLIT_NAMES) == 29682
