"""The cross-domain report and the NEGES 2018 cue report (scripts run as subprocesses),
the NEGES per-domain cue scores and --tag-punct's tagging (spacy_negation.analysis)."""
import json
from pathlib import Path
from typing import Any, Callable

import pytest
import spacy
from spacy.tokens import Doc, DocBin

from spacy_negation import set_negations
from spacy_negation.analysis.breakdowns import cue_scores_by_group, domain_of
from spacy_negation.analysis.evaluation import doc_sentences, tag_punct
from spacy_negation.corpora.docs import META_KEY
from spacy_negation.corpora.starsem_docs import doc_to_sentences

CORPORA = ("cdsco", "bioscope", "sfu")
#: Output key -> key of the scorer's flat scores.
MEASURES = {"cues_b_f": "neg_cue_b_f", "nis_ex_f": "neg_nis_ex_f", "st_f": "neg_st_f",
            "nis_tok_f": "neg_nis_tok_f"}


def _write_metrics(folder: Path) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    expected = {}
    for a, train in enumerate(CORPORA):
        for b, test in enumerate(CORPORA):
            value = 0.5 + 0.1 * a + 0.01 * b
            scores = {src: value for src in MEASURES.values()}
            scores["neg_cue_f"] = 0.0  # not a matrix measure
            (folder / f"{train}_on_{test}.json").write_text(json.dumps({"scores": scores}))
            expected.setdefault(train, {})[test] = {key: value for key in MEASURES}
    return expected


@pytest.fixture
def cross(run_script: Callable[..., Any]) -> Callable[..., Any]:
    """Run scripts/cross_domain.py; returns the completed process."""
    return lambda *args: run_script("cross_domain.py", *args)


def test_cross_domain_report(tmp_path, cross):
    expected = _write_metrics(tmp_path / "metrics")
    (tmp_path / "meta.json").write_text(json.dumps({"seed": 0, "max_steps": 1600}))
    out = tmp_path / "results"
    assert cross(*["--metrics-dir", str(tmp_path / "metrics"), "--meta", str(tmp_path / "meta.json"),
                       "--out-dir", str(out)]).returncode == 0
    doc = json.loads((out / "cross_domain.json").read_text())
    assert doc["matrix"] == expected
    assert set(doc["matrix"]) == {"cdsco", "bioscope", "sfu"}
    assert doc["meta"]["run"] == {"seed": 0, "max_steps": 1600}
    md = (out / "cross_domain.md").read_text()
    assert "| SFU Review (ours) | 70.00 | 71.00 | 72.00 |" in md  # rows: trained on; columns: tested on
    assert "| BioScope abstracts | 61.00 | 91.7 | -30.70 |" in md
    # published rows of Sineva et al. (2021), Table 3 / Table 8 (NIS_ex is their SCM-B)
    assert "| BioScope abstracts (NegBERT, published) | 51.1 | 87.2 | 58.6 |" in md
    assert "| SFU Review (DP-nested-synt, published) | 51.6 | 74.0 | 80.5 |" in md
    assert "| CD-SCO (BiLSTM-Tagger, published) | 70.0 | 17.7 | 9.0 |" in md.split("## NIS_ex F1")[1]
    assert "n/a" not in md
    assert (out / "cross_domain.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Hard negatives" not in md
    # the BioScope hard-negative setting, as timed.py records it, is stated when on
    for value, shown in (("0.1", True), ("null", False)):
        (tmp_path / "meta.json").write_text(json.dumps({"seed": 0, "bioscope_hard_negatives": value}))
        assert cross(*["--metrics-dir", str(tmp_path / "metrics"), "--meta", str(tmp_path / "meta.json"),
                           "--out-dir", str(out)]).returncode == 0
        md = (out / "cross_domain.md").read_text()
        assert ("`hard_negatives = 0.1`" in md) is shown
        assert "- **bioscope_hard_negatives**: " + value in md
    # BioScope's own step count, as timed.py records it, is listed after the shared one
    (tmp_path / "meta.json").write_text(json.dumps({"max_steps": "1600", "bioscope_max_steps": "2400"}))
    assert cross(*["--metrics-dir", str(tmp_path / "metrics"), "--meta", str(tmp_path / "meta.json"),
                       "--out-dir", str(out)]).returncode == 0
    md = (out / "cross_domain.md").read_text()
    assert "- **max_steps**: 1600\n- **bioscope_max_steps**: 2400\n" in md
    assert "Decoding" not in md
    # BioScope's decoding settings, as timed.py records them, are stated when on
    (tmp_path / "meta.json").write_text(json.dumps({
        "bioscope_min_word_precision": "0.1", "bioscope_contiguous": "true", "bioscope_scope_bias": "0.5"}))
    assert cross(*["--metrics-dir", str(tmp_path / "metrics"), "--meta", str(tmp_path / "meta.json"),
                       "--out-dir", str(out)]).returncode == 0
    md = (out / "cross_domain.md").read_text()
    assert "- **Decoding** (BioScope, chosen on its dev split): a predicted single-word cue" in md
    assert "(`contiguous`; every BioScope training scope does); 0.5 is subtracted" in md
    assert "- **bioscope_min_word_precision**: 0.1\n- **bioscope_contiguous**: true\n" \
           "- **bioscope_scope_bias**: 0.5\n" in md
    (tmp_path / "meta.json").write_text(json.dumps({
        "bioscope_min_word_precision": "null", "bioscope_contiguous": "false", "bioscope_scope_bias": "0.0"}))
    assert cross(*["--metrics-dir", str(tmp_path / "metrics"), "--meta", str(tmp_path / "meta.json"),
                       "--out-dir", str(out)]).returncode == 0
    assert "Decoding" not in (out / "cross_domain.md").read_text()


def test_cross_domain_report_missing_input_writes_nothing(tmp_path, cross):
    _write_metrics(tmp_path / "metrics")
    (tmp_path / "metrics" / "sfu_on_cdsco.json").unlink()
    out = tmp_path / "results"
    proc = cross("--metrics-dir", str(tmp_path / "metrics"), "--out-dir", str(out))
    assert proc.returncode == 1 and "sfu_on_cdsco.json" in proc.stderr
    assert not out.exists()
    (tmp_path / "metrics" / "sfu_on_cdsco.json").write_text(json.dumps({"scores": {"neg_st_f": 0.5}}))
    proc = cross("--metrics-dir", str(tmp_path / "metrics"), "--out-dir", str(out))
    assert proc.returncode == 1 and "neg_cue_b_f" in proc.stderr and not out.exists()


def _review(vocab, doc_id: str, words, cues) -> Doc:
    doc = Doc(vocab, words=words, sent_starts=[True] + [False] * (len(words) - 1),
              tags=["fc" if w in ".," else "xx" for w in words])
    set_negations(doc, [{"cue": [doc[i] for i in cue]} for cue in cues])
    doc.user_data[META_KEY] = {"doc_ids": [doc_id], "sent_nos": ["1"], "parse": ["_"] * len(words)}
    return doc


def test_neges_cue_scores_per_domain():
    vocab = spacy.blank("es").vocab
    coches = ["El", "coche", "no", "arranca", "."]
    libros = ["No", "me", "gustó", "nada", "."]
    hoteles = ["Volveré", "sin", "duda", "."]
    gold = [_review(vocab, "coches_no_1_1", coches, [[2]]),
            _review(vocab, "libros_no_2_3", libros, [[0, 3]]),
            _review(vocab, "hoteles_yes_5_2", hoteles, [])]
    system = [_review(vocab, "coches_no_1_1", coches, [[2]]),  # exact: TP
              _review(vocab, "libros_no_2_3", libros, [[0]]),  # partial: an FN only
              _review(vocab, "hoteles_yes_5_2", hoteles, [[1]])]  # spurious: FP
    result = cue_scores_by_group(doc_sentences(gold), doc_sentences(system))
    assert list(result["per_domain"]) == ["coches", "hoteles", "libros"]
    c, h, lib = (result["per_domain"][d] for d in ("coches", "hoteles", "libros"))
    assert (c["tp"], c["fp"], c["fn"], c["p"], c["r"], c["f"]) == (1, 0, 0, 1.0, 1.0, 1.0)
    assert (h["tp"], h["fp"], h["fn"], h["p"], h["r"], h["f"]) == (0, 1, 0, 0.0, 0.0, 0.0)
    assert (lib["tp"], lib["fp"], lib["fn"], lib["r"], lib["f"]) == (0, 0, 1, 0.0, 0.0)
    o = result["overall"]
    assert (o["tp"], o["fp"], o["fn"]) == (1, 1, 1)
    assert o["p"] == pytest.approx(0.5) and o["r"] == pytest.approx(0.5) and o["f"] == pytest.approx(0.5)
    assert domain_of("peliculas_yes_4_18") == "peliculas"


def test_tag_punct_tags_only_untagged_tokens():
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["No", ",", "thanks", "!"], tags=["DT", "", "", ""])
    tag_punct(doc)
    assert [t.tag_ for t in doc] == ["DT", ".", "XX", "."]


def test_neges_report_published_rows_and_domains(tmp_path, run_script):
    """The report of a pipeline that finds no cue: zero scores per domain, beside the
    published rows of Jiménez-Zafra et al. (2018)."""
    nlp = spacy.blank("es")
    nlp.to_disk(tmp_path / "model")
    db = DocBin(store_user_data=True)
    for doc_id, words, cues in (("ordenadores_no_1_1", ["No", "funciona", "."], [[0]]),
                                ("coches_no_1_1", ["El", "coche", "no", "arranca", "."], [[2]]),
                                ("coches_yes_2_1", ["Sin", "duda", "."], [[0]])):
        db.add(_review(nlp.vocab, doc_id, words, cues))
    db.to_disk(tmp_path / "test.spacy")
    proc = run_script("neges_report.py", tmp_path / "model", "--test", tmp_path / "test.spacy",
                      "--system-out", tmp_path / "system.txt", "--meta", tmp_path / "none.json",
                      "--out-dir", tmp_path / "results")
    assert proc.returncode == 0, proc.stderr
    md = (tmp_path / "results" / "neges2018.md").read_text(encoding="utf-8")
    assert "| Best participant (UPC, CRF), published | 91.48 | 82.18 | 86.45 | | | |" in md
    assert "| Second participant (UNED), published | 79.45 | 59.58 | 67.97 | | | |" in md
    assert "| ordenadores | 1 | 0.00 | 0.00 | 0.00 | 0 | 0 | 1 | 91.36 | - |" in md
    assert "| coches | 2 | 0.00 | 0.00 | 0.00 | 0 | 0 | 2 | 89.92 | 81.67 |" in md
    result = json.loads((tmp_path / "results" / "neges2018.json").read_text(encoding="utf-8"))
    assert result["test"]["overall"]["gold"] == 3 and "dev" not in result
