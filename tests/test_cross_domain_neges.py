"""The cross-domain report, the NEGES 2018 cue report and evaluate_model's --tag-punct."""
import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest
import spacy
from spacy.tokens import Doc

from spacy_negation import set_negations
from spacy_negation.corpora.docs import META_KEY
from spacy_negation.corpora.starsem_docs import doc_to_sentences

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"{name}_script", SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cross() -> ModuleType:
    return _script("cross_domain")


def _write_metrics(folder: Path, cross: ModuleType) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    expected = {}
    for a, train in enumerate(cross.CORPORA):
        for b, test in enumerate(cross.CORPORA):
            value = 0.5 + 0.1 * a + 0.01 * b
            scores = {src: value for src in cross.MEASURES.values()}
            scores["neg_cue_f"] = 0.0  # not a matrix measure
            (folder / f"{train}_on_{test}.json").write_text(json.dumps({"scores": scores}))
            expected.setdefault(train, {})[test] = {key: value for key in cross.MEASURES}
    return expected


def test_cross_domain_report(tmp_path, cross):
    expected = _write_metrics(tmp_path / "metrics", cross)
    (tmp_path / "meta.json").write_text(json.dumps({"seed": 0, "max_steps": 1600}))
    out = tmp_path / "results"
    assert cross.main(["--metrics-dir", str(tmp_path / "metrics"), "--meta", str(tmp_path / "meta.json"),
                       "--out-dir", str(out)]) == 0
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
        assert cross.main(["--metrics-dir", str(tmp_path / "metrics"), "--meta", str(tmp_path / "meta.json"),
                           "--out-dir", str(out)]) == 0
        md = (out / "cross_domain.md").read_text()
        assert ("`hard_negatives = 0.1`" in md) is shown
        assert "- **bioscope_hard_negatives**: " + value in md
    # BioScope's own step count, as timed.py records it, is listed after the shared one
    (tmp_path / "meta.json").write_text(json.dumps({"max_steps": "1600", "bioscope_max_steps": "2400"}))
    assert cross.main(["--metrics-dir", str(tmp_path / "metrics"), "--meta", str(tmp_path / "meta.json"),
                       "--out-dir", str(out)]) == 0
    md = (out / "cross_domain.md").read_text()
    assert "- **max_steps**: 1600\n- **bioscope_max_steps**: 2400\n" in md
    assert "Decoding" not in md
    # BioScope's decoding settings, as timed.py records them, are stated when on
    (tmp_path / "meta.json").write_text(json.dumps({
        "bioscope_min_word_precision": "0.1", "bioscope_contiguous": "true", "bioscope_scope_bias": "0.5"}))
    assert cross.main(["--metrics-dir", str(tmp_path / "metrics"), "--meta", str(tmp_path / "meta.json"),
                       "--out-dir", str(out)]) == 0
    md = (out / "cross_domain.md").read_text()
    assert "- **Decoding** (BioScope, chosen on its dev split): a predicted single-word cue" in md
    assert "(`contiguous`; every BioScope training scope does); 0.5 is subtracted" in md
    assert "- **bioscope_min_word_precision**: 0.1\n- **bioscope_contiguous**: true\n" \
           "- **bioscope_scope_bias**: 0.5\n" in md
    (tmp_path / "meta.json").write_text(json.dumps({
        "bioscope_min_word_precision": "null", "bioscope_contiguous": "false", "bioscope_scope_bias": "0.0"}))
    assert cross.main(["--metrics-dir", str(tmp_path / "metrics"), "--meta", str(tmp_path / "meta.json"),
                       "--out-dir", str(out)]) == 0
    assert "Decoding" not in (out / "cross_domain.md").read_text()


def test_cross_domain_report_missing_input_writes_nothing(tmp_path, cross, capsys):
    _write_metrics(tmp_path / "metrics", cross)
    (tmp_path / "metrics" / "sfu_on_cdsco.json").unlink()
    out = tmp_path / "results"
    assert cross.main(["--metrics-dir", str(tmp_path / "metrics"), "--out-dir", str(out)]) == 1
    assert "sfu_on_cdsco.json" in capsys.readouterr().err
    assert not out.exists()
    (tmp_path / "metrics" / "sfu_on_cdsco.json").write_text(json.dumps({"scores": {"neg_st_f": 0.5}}))
    assert cross.main(["--metrics-dir", str(tmp_path / "metrics"), "--out-dir", str(out)]) == 1
    assert "neg_cue_b_f" in capsys.readouterr().err and not out.exists()


def _review(vocab, doc_id: str, words, cues) -> Doc:
    doc = Doc(vocab, words=words, sent_starts=[True] + [False] * (len(words) - 1),
              tags=["fc" if w in ".," else "xx" for w in words])
    set_negations(doc, [{"cue": [doc[i] for i in cue]} for cue in cues])
    doc.user_data[META_KEY] = {"doc_ids": [doc_id], "sent_nos": ["1"], "parse": ["_"] * len(words)}
    return doc


def test_neges_cue_scores_per_domain():
    neges = _script("neges_report")
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
    gs = [s for i, d in enumerate(gold) for s in doc_to_sentences(d, i)]
    ss = [s for i, d in enumerate(system) for s in doc_to_sentences(d, i)]
    result = neges.cue_scores(gs, ss)
    assert list(result["per_domain"]) == ["coches", "hoteles", "libros"]
    c, h, lib = (result["per_domain"][d] for d in ("coches", "hoteles", "libros"))
    assert (c["tp"], c["fp"], c["fn"], c["p"], c["r"], c["f"]) == (1, 0, 0, 1.0, 1.0, 1.0)
    assert (h["tp"], h["fp"], h["fn"], h["p"], h["r"], h["f"]) == (0, 1, 0, 0.0, 0.0, 0.0)
    assert (lib["tp"], lib["fp"], lib["fn"], lib["r"], lib["f"]) == (0, 0, 1, 0.0, 0.0)
    o = result["overall"]
    assert (o["tp"], o["fp"], o["fn"]) == (1, 1, 1)
    assert o["p"] == pytest.approx(0.5) and o["r"] == pytest.approx(0.5) and o["f"] == pytest.approx(0.5)
    assert neges.domain_of("peliculas_yes_4_18") == "peliculas"


def test_tag_punct_tags_only_untagged_tokens():
    evaluate_model = _script("evaluate_model")
    nlp = spacy.blank("en")
    doc = Doc(nlp.vocab, words=["No", ",", "thanks", "!"], tags=["DT", "", "", ""])
    evaluate_model.tag_punct(doc)
    assert [t.tag_ for t in doc] == ["DT", ".", "XX", "."]


def test_neges_markdown_published_rows():
    neges = _script("neges_report")
    row = {"p": 0.5, "r": 0.5, "f": 0.5, "tp": 1, "fp": 1, "fn": 1, "gold": 2}
    md = neges.render_markdown({"meta": {"citation": "x"}, "test": {
        "overall": row, "per_domain": {"ordenadores": row, "coches": row}}})
    assert "| Best participant (UPC, CRF), published | 91.48 | 82.18 | 86.45 | | | |" in md
    assert "| Second participant (UNED), published | 79.45 | 59.58 | 67.97 | | | |" in md
    assert "| ordenadores | 2 | 50.00 | 50.00 | 50.00 | 1 | 1 | 1 | 91.36 | - |" in md
    assert "| coches | 2 | 50.00 | 50.00 | 50.00 | 1 | 1 | 1 | 89.92 | 81.67 |" in md
