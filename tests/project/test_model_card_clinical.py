"""scripts/model_card.py for the clinical model: BioScope test and clinical dev scores from
their files, the cue list option (the written copy is checked in
tests/project/test_clinical_synth_train.py)."""
import json

import pytest

from util import REPO, load_module


@pytest.fixture(scope="module")
def card():
    return load_module(REPO / "scripts" / "model_card.py", "model_card")


def test_clinical_card(card):
    scores = {"scores": {"neg_cue_b_f": 0.951, "neg_nis_ex_f": 0.8, "neg_st_f": 0.9, "neg_nis_tok_f": 0.925}}
    clinical = {"clinical + en_clinical": {"p": 0.96, "r": 0.94, "f": 0.95, "ci_low": 0.9, "ci_high": 0.98},
                "negspacy_en": {"p": 0.97, "r": 0.82, "f": 0.89, "ci_low": 0.84, "ci_high": 0.94}}
    meta = card.build_meta({"lang": "en"}, "clinical", "negation_clinical", "0.1.0", None, None, None,
                           clinical=clinical, split_scores={"bioscope_clinical": scores, "bioscope": scores})
    text = meta["description"]
    assert meta["license"] == "research use" and len(meta["sources"]) == 2
    assert "| BioScope abstracts | 95.10 | 80.00 | 90.00 | 92.50 |" in text
    assert "| BioScope clinical | 95.10 | 80.00 | 90.00 | 92.50 |" in text and "metrics/clinical/on_*.json" in text
    assert "| clinical + en_clinical | 96.00 | 94.00 | 95.00 (90.00-98.00) |" in text
    assert "| negspacy_en | 97.00 | 82.00 | 89.00 (84.00-94.00) |" in text
    assert 'config={"model": "en_negation_clinical"}' in text and "`en_clinical`" in text
    assert "denial verbs such as 'denies') are not found" not in text  # trained on clinical denials


def test_cue_patterns_needs_model_out(card, tmp_path):
    with pytest.raises(SystemExit):
        card.main([str(tmp_path), "--domain", "clinical", "--name", "x", "--version", "1",
                   "--cue-patterns", "en_clinical", "--out", str(tmp_path / "o.json")])


def test_bad_model_writes_nothing(card, tmp_path, capsys):
    model = tmp_path / "model"
    model.mkdir()
    (model / "meta.json").write_text(json.dumps({"lang": "en"}))  # no config.cfg: not a pipeline
    out, copy = tmp_path / "o.json", tmp_path / "copy"
    assert card.main([str(model), "--domain", "clinical", "--name", "x", "--version", "1",
                      "--cue-patterns", "en_clinical", "--model-out", str(copy), "--out", str(out)]) == 1
    assert "error:" in capsys.readouterr().err
    assert not out.exists() and not copy.exists() and not list(tmp_path.glob(".copy.*"))
