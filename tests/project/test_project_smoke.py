"""The spaCy project's smoke workflow end to end, and `spacy evaluate` with our scorer."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_smoke_workflow_and_spacy_evaluate(cdsco_dir, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(REPO / "project.yml", project)
    shutil.copytree(REPO / "configs", project / "configs")
    shutil.copytree(REPO / "scripts", project / "scripts")
    run = lambda *args: subprocess.run([sys.executable, "-m", *args], cwd=project, capture_output=True,
                                       text=True)
    r = run("spacy", "project", "run", "smoke", ".", "--vars.mirror", str(cdsco_dir))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    for name in ("train", "dev", "test", "test_cardboard", "test_circle"):
        assert (project / "corpus" / f"{name}.spacy").stat().st_size > 0
    scores = json.loads((project / "metrics" / "smoke_dev.json").read_text())["scores"]
    assert 0.0 <= scores["neg_cue_f"] <= 1.0 and scores["neg_cue_f"] > 0.2  # it learned some cues
    # a second run skips the steps whose outputs are there
    r = run("spacy", "project", "run", "smoke", ".", "--vars.mirror", str(cdsco_dir))
    assert r.returncode == 0 and "Skipping 'train-smoke'" in r.stdout
    out = project / "m.json"
    r = run("spacy", "evaluate", "training/smoke/model-best", "corpus/dev.spacy", "--output", str(out))
    assert r.returncode == 0, r.stderr[-3000:]
    result = json.loads(out.read_text())
    for key in ("neg_cue_f", "neg_nis_tok_f", "neg_nis_ex_f", "neg_scm_b_f", "neg_st_f", "neg_fair_f"):
        assert isinstance(result[key], float)
    assert set(result["neg_cue_per_type"]) == {"normal", "affixal", "multiword"}
