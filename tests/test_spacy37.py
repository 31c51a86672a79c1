"""The package and a transformer negation model trained on spaCy 3.8 run on spaCy 3.7 beside
medspaCy 1.3.1 (which needs spaCy < 3.8), with the same predictions as on spaCy 3.8.

A virtualenv with spaCy 3.7.5, spacy-transformers 1.3, torch 2.13.0 (CPU) and medspaCy 1.3.1
is built once from the package registry (under ~/.cache/spacy-negation-bench, as the rule
tools' environments of bench/bench_vs_rules.py); this checkout is installed into it *with*
its dependencies, so the test also fails when setup.cfg's requirements would replace spaCy
3.7 with 3.8.
"""
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest

from util import REPO, TRF_TINY, load_test_nlp, make_examples

pytestmark = pytest.mark.slow

VENV = Path.home() / ".cache" / "spacy-negation-bench" / "spacy37-medspacy"
#: Installed in this order: torch first, the exact CPU build (a loose requirement resolved
#: with the others pulls CUDA packages).
REQUIREMENTS = (["torch==2.13.0"], ["spacy==3.7.5", "medspacy==1.3.1", "spacy-transformers>=1.3.4,<1.4.0"])
TEXTS = ["The patient denies chest pain and has no fever.", "He was not unhappy.", "",
         "Extremities are without edema. Lungs are clear."]

SCRIPT = r"""
import json, sys
import spacy

mode, model = sys.argv[1], sys.argv[2]
texts = json.loads(sys.argv[3])
if mode == "medspacy":
    import medspacy
    from medspacy.target_matcher import TargetRule
    nlp = medspacy.load(medspacy_enable=["medspacy_pyrush", "medspacy_target_matcher"])
    nlp.get_pipe("medspacy_target_matcher").add(
        [TargetRule(t, "PROBLEM") for t in ("chest pain", "fever", "edema")])
else:
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
# the clinical cue list finds the cues whatever the tiny model predicts; scopes are the model's
nlp.add_pipe("negation", config={"model": model, "cue_patterns": "en_clinical"})
out = {"spacy": spacy.__version__, "docs": []}
for doc in nlp.pipe(texts):
    out["docs"].append({
        "negations": [[[[p.i, p.start, p.end] for p in n.cue], [[p.i, p.start, p.end] for p in n.scope]] for n in doc._.negations],
        "ents": [[e.text, bool(e._.negated)] for e in doc.ents]})
print(json.dumps(out))
"""


def _venv_python() -> Path:
    python = VENV / "bin" / "python"
    stamp = VENV / ".requirements"
    wanted = json.dumps(REQUIREMENTS)
    if not (stamp.is_file() and stamp.read_text() == wanted):
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
        for group in REQUIREMENTS:
            subprocess.run([str(python), "-m", "pip", "install", "--quiet", *group], check=True)
        stamp.write_text(wanted)
    # this checkout (a local folder is always reinstalled), with its dependencies: they must
    # accept the spaCy 3.7 already there
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(REPO)], check=True)
    return python


def _run(python: Path, mode: str, model: Path, texts: List[str]) -> dict:
    env = {**os.environ, "PYTHONPATH": "", "OMP_NUM_THREADS": "1"}
    proc = subprocess.run([str(python), "-c", SCRIPT, mode, str(model), json.dumps(texts)],
                          capture_output=True, text=True, env=env, cwd=str(model.parent), timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def tiny_trf_model(tiny_bert_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny transformer negation pipeline trained a few steps on the gold sentences
    (spaCy 3.8), saved to disk."""
    nlp = load_test_nlp(TRF_TINY, {"components.transformer.model.name": str(tiny_bert_dir)})
    examples = make_examples(nlp)
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(5):
        nlp.update(examples, sgd=optimizer)
    out = tmp_path_factory.mktemp("negation_trf_37") / "model"
    nlp.to_disk(out)
    return out


def test_a_model_trained_on_spacy_38_runs_on_spacy_37_with_medspacy(tiny_trf_model: Path) -> None:
    python = _venv_python()
    here = _run(Path(sys.executable), "blank", tiny_trf_model, TEXTS)
    there = _run(python, "blank", tiny_trf_model, TEXTS)
    assert here["spacy"].startswith("3.8") and there["spacy"] == "3.7.5"
    assert sum(len(doc["negations"]) for doc in here["docs"]) >= 3
    assert there["docs"] == here["docs"]  # the same cues and scopes on both spaCy versions
    med = _run(python, "medspacy", tiny_trf_model, TEXTS)
    assert med["spacy"] == "3.7.5" and len(med["docs"]) == len(TEXTS)
    ents = [e for doc in med["docs"] for e in doc["ents"]]
    assert [text for text, _ in ents] == ["chest pain", "fever", "edema"]
    # ent._.negated follows the negations the component found in the medspaCy pipeline
    assert all(isinstance(negated, bool) for _, negated in ents)
