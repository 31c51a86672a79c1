"""`spacy train` with the tiny test configs on the first CD-SCO training sentences."""
import json
from pathlib import Path

import pytest
import spacy
from spacy.cli.train import train

from spacy_negation.cli import main as negation_cli
from spacy_negation.corpora.starsem_docs import CDSCO_FILES

from util import CNN_TINY, TRF_TINY

N_SENTS = 30


@pytest.fixture(scope="module")
def cdsco_spacy(cdsco_dir, tmp_path_factory) -> Path:
    """The first 30 sentences of the CD-SCO training file, converted to .spacy with the
    package's command line."""
    lines = []
    n = 0
    with open(cdsco_dir / CDSCO_FILES["training"], encoding="utf8") as f:
        for line in f:
            lines.append(line)
            if not line.strip():
                n += 1
                if n == N_SENTS:
                    break
    folder = tmp_path_factory.mktemp("cdsco")
    (folder / "train.txt").write_text("".join(lines), encoding="utf8")
    assert negation_cli(["convert", "--quiet", "--n-sents", "10",
                         str(folder / "train.txt"), str(folder / "train.spacy")]) == 0
    return folder / "train.spacy"


@pytest.mark.slow
@pytest.mark.parametrize("config", ["cnn", "trf"])
def test_spacy_train(config, cdsco_spacy, tmp_path, request):
    overrides = {"paths.train": str(cdsco_spacy), "paths.dev": str(cdsco_spacy),
                 "training.max_steps": 36, "training.eval_frequency": 12}
    if config == "trf":
        overrides["components.transformer.model.name"] = str(request.getfixturevalue("tiny_bert_dir"))
    train(CNN_TINY if config == "cnn" else TRF_TINY, tmp_path, overrides=overrides)
    best = tmp_path / "model-best"
    meta = json.loads((best / "meta.json").read_text())
    for key in ("neg_cue_f", "neg_nis_tok_f"):
        assert 0.0 <= meta["performance"][key] <= 1.0
    if config == "cnn":  # the small CNN learns the training cues quickly (scored on them)
        assert meta["performance"]["neg_cue_f"] >= 0.5
    nlp = spacy.load(best)
    doc = nlp("Sherlock Holmes was not unhappy.")
    assert isinstance(doc._.negations, list)
    host = spacy.blank("en")
    host.add_pipe("negation", config={"model": str(best)})
    assert [len(d) for d in host.pipe(["It was not him.", ""])] == [5, 0]
