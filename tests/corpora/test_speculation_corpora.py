"""The speculation counts of results/corpus_stats.json against the XML of the real corpora in
../shared/corpora, counted here independently with xml.etree: per corpus and split (by the
committed document splits; BioScope full papers as a whole), the speculation instances (a
BioScope instance is one distinct ``ref`` of a sentence's ``<cue type="speculation">``
elements, an SFU instance one such element) and the sentences with one; the ``<cue>``
elements of the BioScope parsers; and the negations of every doc as they were read before
speculation was (their number per corpus)."""
import collections
import json
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
import spacy

from spacy_negation.corpora.bioscope import parse_bioscope, read_bioscope
from spacy_negation.corpora.bioscope_clinical import parse_bioscope_clinical, read_bioscope_clinical
from spacy_negation.corpora.sfu import read_sfu
from spacy_negation.corpora.splits import SPLIT_NAMES, split_file

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SFU_DIR = ("sfu-review-en", "SFU_Review_Corpus_Negation_Speculation")
#: Per document id: (speculation <cue> elements, instances, sentences with one).
Counts = Dict[str, Tuple[int, int, int]]


def corpus(shared_dir: Path, *parts: str) -> Path:
    path = shared_dir.joinpath("corpora", *parts)
    if not path.exists():
        pytest.skip(f"{path} not found")
    return path


def bioscope_xml_counts(path: Path) -> Counts:
    """Per ``<DocID>``: the speculation cue elements, the distinct refs per sentence, and the
    sentences with a speculation cue."""
    counts: Dict[str, List[int]] = collections.defaultdict(lambda: [0, 0, 0])
    for document in ET.parse(path).getroot().iter("Document"):
        doc_id = (document.findtext("DocID") or "").strip()
        for sent in document.iter("sentence"):
            cues = [cue for cue in sent.iter("cue") if cue.get("type") == "speculation"]
            row = counts[doc_id]
            row[0] += len(cues)
            row[1] += len({cue.get("ref") for cue in cues})
            row[2] += bool(cues)
    return {doc_id: (row[0], row[1], row[2]) for doc_id, row in counts.items()}


def sfu_xml_counts(folder: Path) -> Counts:
    """Per review (``DOMAIN/stem``): the speculation cue elements (each an instance) and the
    sentences with one."""
    counts: Counts = {}
    for path in sorted(folder.rglob("*.xml")):
        elements = sentences = 0
        for sent in ET.parse(path).getroot().iter("SENTENCE"):
            n = sum(cue.get("type") == "speculation" for cue in sent.iter("cue"))
            elements += n
            sentences += bool(n)
        counts[f"{path.parent.name}/{path.stem}"] = (elements, elements, sentences)
    return counts


def xml_counts(shared_dir: Path, name: str) -> Counts:
    if name == "sfu":
        return sfu_xml_counts(corpus(shared_dir, *SFU_DIR))
    if name == "bioscope_clinical":
        return bioscope_xml_counts(corpus(shared_dir, "bioscope-clinical", "clinical_records_anon.xml"))
    part = {"bioscope_abstracts": "abstracts.xml", "bioscope_full_papers": "full_papers.xml"}[name]
    return bioscope_xml_counts(corpus(shared_dir, "bioscope", part))


def committed_stats() -> Dict[str, Dict[str, Dict[str, int]]]:
    return json.loads((REPO / "results" / "corpus_stats.json").read_text(encoding="utf-8"))["corpora"]


@pytest.mark.parametrize("name", ["bioscope_abstracts", "bioscope_clinical", "sfu", "bioscope_full_papers"])
def test_speculation_counts_per_split_equal_the_xml(shared_dir, name):
    xml = xml_counts(shared_dir, name)
    stats = committed_stats()[name]
    splits = {"total": list(xml)}
    if name != "bioscope_full_papers":  # no split: counted as a whole
        committed = json.loads(split_file(name).read_text(encoding="utf-8"))["splits"]
        splits.update({split: committed[split] for split in SPLIT_NAMES})
        assert sorted(d for split in SPLIT_NAMES for d in committed[split]) == sorted(xml)
    assert set(stats) == set(splits)
    for split, ids in splits.items():
        got = (stats[split]["speculations"], stats[split]["speculation_sentences"])
        assert got == (sum(xml[d][1] for d in ids), sum(xml[d][2] for d in ids)), split


def test_speculation_totals_of_the_issue(shared_dir):
    """The <cue type="speculation"> elements the issue counted (abstracts 2,694, full papers
    682, clinical 1,137, SFU about 5,360) and the instances they form."""
    totals = {name: tuple(map(sum, zip(*xml_counts(shared_dir, name).values())))
              for name in ("bioscope_abstracts", "bioscope_full_papers", "bioscope_clinical", "sfu")}
    assert totals == {"bioscope_abstracts": (2694, 2659, 2101), "bioscope_full_papers": (682, 668, 519),
                      "bioscope_clinical": (1137, 1111, 855), "sfu": (5363, 5363, 3912)}


def test_bioscope_parsers_keep_every_speculation_cue_element(shared_dir):
    for part, expected in (("abstracts.xml", 2694), ("full_papers.xml", 682)):
        sents = parse_bioscope(corpus(shared_dir, "bioscope", part))
        assert sum(s.n_cue_elements for sent in sents for s in sent.speculations) == expected
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sents = list(parse_bioscope_clinical(corpus(shared_dir, "bioscope-clinical"), on_error="skip"))
    assert sum(s.n_cue_elements for sent in sents for s in sent.speculations) == 1137


def test_the_negations_are_read_as_before(shared_dir):
    """Reading speculation changes no negation (checked once against the reader before
    speculation, every doc's negations equal; here their numbers and scopes)."""
    vocab = spacy.blank("en").vocab
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        docs = {
            "abstracts": list(read_bioscope(corpus(shared_dir, "bioscope", "abstracts.xml"), vocab, 10)),
            "full_papers": list(read_bioscope(corpus(shared_dir, "bioscope", "full_papers.xml"), vocab, 10)),
            "clinical": list(read_bioscope_clinical(corpus(shared_dir, "bioscope-clinical"), vocab, 10,
                                                    on_error="skip")),
            "sfu": list(read_sfu(corpus(shared_dir, *SFU_DIR), vocab, 10)),
        }
    got = {name: (len(d), sum(len(doc._.negations) for doc in d),
                  sum(len(n.scope) for doc in d for n in doc._.negations)) for name, d in docs.items()}
    assert got == EXPECTED_NEGATIONS


#: (docs of 10 sentences, negations, scope parts) of each corpus, as read before speculation was.
EXPECTED_NEGATIONS: Dict[str, Tuple[int, int, int]] = {
    "abstracts": (1676, 1719, 14991), "full_papers": (270, 376, 3048), "clinical": (1962, 870, 3372),
    "sfu": (1912, 3528, 18913),
}
