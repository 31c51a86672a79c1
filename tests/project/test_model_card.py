"""scripts/model_card.py (run as a subprocess): the package meta with the model card, from
the results files."""
import json

import pytest


@pytest.fixture
def card(run_script):
    """Run scripts/model_card.py; returns the completed process."""
    return lambda *args: run_script("model_card.py", *args)


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
    proc = card(str(model), "--domain", "cdsco", "--name", "negation_cdsco", "--version", "1.2.3",
                "--cross", str(tmp_path / "cross.json"), "--speed-from", str(tmp_path / "scores.json"),
                "--out", str(out))
    assert proc.returncode == 0, proc.stderr
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


def test_spanish_card(card, tmp_path):
    model = tmp_path / "model"
    model.mkdir()
    (model / "meta.json").write_text(json.dumps({"lang": "es"}))
    (tmp_path / "neges.json").write_text(json.dumps({"test": {"overall": {"p": 0.9, "r": 0.8, "f": 0.85}}}))
    proc = card(str(model), "--domain", "neges", "--name", "negation_sfu", "--version", "0.1.0",
                "--neges", str(tmp_path / "neges.json"), "--out", str(tmp_path / "meta.json"))
    assert proc.returncode == 0, proc.stderr
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta["lang"] == "es" and meta["license"] == "CC BY-NC-SA 4.0"
    assert "P 90.00, R 80.00, F1 85.00" in meta["description"]
    assert "es_negation_sfu" in meta["description"]


def test_missing_input_is_an_error(card, tmp_path):
    proc = card(str(tmp_path), "--domain", "sfu", "--name", "x", "--version", "1", "--out",
                str(tmp_path / "o.json"))
    assert proc.returncode == 1
    assert "error:" in proc.stderr and not (tmp_path / "o.json").exists()



@pytest.mark.parametrize("domain,name,split,lang,licence", [
    ("norec", "negation_norec", "norec", "nb", "CC BY-NC 4.0"),
    ("nubes", "negation_clinical", "nubes", "es", "CC BY-SA 3.0 ES"),
])
def test_norwegian_and_spanish_clinical_cards(card, tmp_path, domain, name, split, lang, licence):
    model = tmp_path / "model"
    model.mkdir()
    (model / "meta.json").write_text(json.dumps({"lang": lang}))
    keys = ("cue_b_f", "nis_ex_f", "st_f", "nis_tok_f")
    # the gold of both splits could hold speculations; only the clinical model resolves them
    scores = {**{f"neg_{k}": 0.9 for k in keys}, **{f"spec_{k}": 0.7 for k in keys}}
    kinds = '["negation", "speculation"]' if domain == "nubes" else '["negation"]'
    (model / "config.cfg").write_text(f"[components]\n\n[components.negation_cue]\nfactory = \"negation_cue\"\nkinds = {kinds}\n")
    (tmp_path / "scores.json").write_text(json.dumps({"scores": scores, "speed": {"words_per_second": 40000}}))
    proc = card(str(model), "--domain", domain, "--name", name, "--version", "0.1.0", "--scores",
                f"{split}={tmp_path / 'scores.json'}", "--speed-from", str(tmp_path / "scores.json"),
                "--out", str(tmp_path / "meta.json"))
    assert proc.returncode == 0, proc.stderr
    meta = json.loads((tmp_path / "meta.json").read_text())
    assert meta["lang"] == lang and meta["license"] == licence
    text = meta["description"]
    assert "| 90.00 | 90.00 | 90.00 | 90.00 |" in text
    assert ("speculation | 70.00 | 70.00 | 70.00 | 70.00 |" in text) == (domain == "nubes")
    assert "denies" not in text  # the English failure mode is not theirs
    assert f"{lang}_{name}" in text
