"""The clinical model's data path at a tiny scale: synthetic clinical sentences converted and
merged like `convert-clinical`, the tiny transformer config trained on them with the
`train-clinical` settings, and the copy `package-clinical` packages (en_clinical set in its
config) loaded with nlp.add_pipe("negation", config={"model": DIR})."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import spacy
from spacy.cli.train import train
from spacy.tokens import DocBin

from spacy_negation.corpora.clinical_synth import main as convert_main

from util import TRF_TINY

REPO = Path(__file__).resolve().parents[2]
SYNTH = REPO / "data" / "clinical_synth" / "train.jsonl"


def _slice(lines, start, end, path: Path) -> Path:
    path.write_text("".join(lines[start:end]), encoding="utf-8")
    return path


def _n_sents(path: Path) -> int:
    return sum(len(list(d.sents)) for d in DocBin().from_disk(path).get_docs(spacy.blank("en").vocab))


@pytest.mark.slow
def test_train_and_package_on_synthetic_clinical_sentences(tmp_path, tiny_bert_dir):
    lines = SYNTH.read_text(encoding="utf-8").splitlines(keepends=True)
    # two parts merged into one training file, as BioScope train and the synthetic file are
    for name, (start, end) in {"a": (0, 150), "b": (150, 300), "dev": (300, 360)}.items():
        assert convert_main([str(_slice(lines, start, end, tmp_path / f"{name}.jsonl")),
                             str(tmp_path / f"{name}.spacy")]) == 0
    subprocess.run([sys.executable, str(REPO / "scripts" / "concat_docbins.py"), str(tmp_path / "a.spacy"),
                    str(tmp_path / "b.spacy"), "--output", str(tmp_path / "train.spacy")], check=True)
    assert _n_sents(tmp_path / "train.spacy") == 300

    out = tmp_path / "training"
    overrides = {
        "paths.train": str(tmp_path / "train.spacy"), "paths.dev": str(tmp_path / "dev.spacy"),
        "components.transformer.model.name": str(tiny_bert_dir),
        "training.max_steps": 12, "training.eval_frequency": 6,
        # the train-clinical settings (project.yml)
        "corpora.train.unnegated_ratio": 1.0, "corpora.train.hard_negatives": 0.1,
        "components.negation_cue.decoder.min_word_precision": 0.1, "components.negation_scope.decoder.contiguous": True,
        "components.negation_scope.decoder.scope_bias": 0.5,
        "initialize.components": {"negation_cue": {"words_corpus": str(tmp_path / "train.spacy")}},
    }
    train(TRF_TINY, out, overrides=overrides)
    best = out / "model-best"
    meta = json.loads((best / "meta.json").read_text())
    assert 0.0 <= meta["performance"]["neg_nis_tok_f"] <= 1.0
    assert spacy.load(best).get_pipe("negation_cue").cue_patterns == []

    package_dir = tmp_path / "model-package"
    subprocess.run([sys.executable, str(REPO / "scripts" / "model_card.py"), str(best), "--domain", "clinical",
                    "--name", "negation_clinical", "--version", "0.0.1", "--cue-patterns", "en_clinical",
                    "--model-out", str(package_dir), "--out", str(tmp_path / "meta.json")], check=True)
    card_meta = json.loads((tmp_path / "meta.json").read_text())
    assert card_meta["name"] == "negation_clinical" and "en_clinical" in card_meta["description"]
    assert spacy.util.load_config(package_dir / "config.cfg")["components"]["negation_cue"]["cue_patterns"] == \
        "en_clinical"
    assert not list(tmp_path.glob(".model-package.*"))  # no temporary folder left

    host = spacy.blank("en")
    host.add_pipe("negation", config={"model": str(package_dir)})
    doc = host("The patient denies chest pain, fever, or chills.")
    # the cue comes from the en_clinical list of the packaged config, whatever the tiny model says
    assert "denies" in [" ".join(t.text for t in n.cue_tokens) for n in doc._.negations]
    assert any(span.text == "denies" for span in doc.spans["negation_patterns"])
    doc = host("No murmurs, gallops, rubs.")
    assert [n.cue_tokens[0].text for n in doc._.negations] == ["No"]
