"""scripts/model_card.py: the package meta with the model card, from the results files."""
import importlib.util
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def card():
    spec = importlib.util.spec_from_file_location("model_card", REPO / "scripts" / "model_card.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cross():
    scores = {"cdsco": 0.9, "bioscope": 0.3, "sfu": 0.5}
    return {"matrix": {"cdsco": {t: {"cues_b_f": v, "nis_ex_f": v, "st_f": v, "nis_tok_f": v}
                                 for t, v in scores.items()}}}


def test_english_card(card, tmp_path):
    model = tmp_path / "model"
    model.mkdir()
    (model / "meta.json").write_text(json.dumps({"lang": "en", "name": "pipeline", "version": "0.0.0",
                                                 "pipeline": ["negation_cue", "negation_scope"]}))
    (tmp_path / "cross.json").write_text(json.dumps(_cross()))
    (tmp_path / "scores.json").write_text(json.dumps({"speed": {"words_per_second": 3210.4}}))
    out = tmp_path / "meta_out.json"
    assert card.main([str(model), "--domain", "cdsco", "--name", "negation_cdsco", "--version", "1.2.3",
                      "--cross", str(tmp_path / "cross.json"), "--speed-from", str(tmp_path / "scores.json"),
                      "--out", str(out)]) == 0
    meta = json.loads(out.read_text())
    assert (meta["name"], meta["version"], meta["lang"]) == ("negation_cdsco", "1.2.3", "en")
    assert meta["pipeline"] == ["negation_cue", "negation_scope"]  # the model's own meta is kept
    assert meta["license"] == "CC BY-NC-SA 3.0"
    text = meta["description"]
    assert "| CD-SCO (in domain) | 90.00 | 90.00 | 90.00 | 90.00 |" in text
    assert "| BioScope abstracts | 30.00 |" in text
    assert "loses most on BioScope abstracts (NIS_tok F1 30.00)" in text
    assert "3,210 words per second" in text
    assert 'config={"model": "en_negation_cdsco"}' in text


def test_spanish_card(card):
    neges = {"test": {"overall": {"p": 0.9, "r": 0.8, "f": 0.85}}}
    meta = card.build_meta({"lang": "es"}, "neges", "negation_sfu", "0.1.0", None, neges, None)
    assert meta["lang"] == "es" and meta["license"] == "CC BY-NC-SA 4.0"
    assert "P 90.00, R 80.00, F1 85.00" in meta["description"]
    assert "es_negation_sfu" in meta["description"]


def test_missing_input_is_an_error(card, tmp_path, capsys):
    assert card.main([str(tmp_path), "--domain", "sfu", "--name", "x", "--version", "1", "--out",
                      str(tmp_path / "o.json")]) == 1
    assert "error:" in capsys.readouterr().err and not (tmp_path / "o.json").exists()
