"""bench/bench_host.py on a tiny model: the host component's cost is written, shaped as the
results file is, and its parts are consistent (timings themselves are not asserted)."""
import json
from pathlib import Path

import spacy
from spacy.tokens import DocBin

from util import REPO, gold_sentences, load_module, make_reference


def test_host_cost_on_a_tiny_model(tmp_path: Path, trained_cnn_dir: Path):
    bench = load_module(REPO / "bench" / "bench_host.py", "bench_host")
    nlp = spacy.blank("en")
    gold = tmp_path / "gold.spacy"
    DocBin(docs=[make_reference(nlp.vocab, w, n) for w, n in gold_sentences()], store_user_data=True).to_disk(gold)
    out = tmp_path / "out"
    assert bench.main(["--model", str(trained_cnn_dir), "--split", f"sfu={gold}", "--repeat", "1",
                       "--out-dir", str(out)]) == 0
    results = json.loads((out / "host_cost.json").read_text())
    r = results["sfu"]
    assert r["words"] > 0 and r["negations"] > 0
    assert all(r[f"{step}_seconds"] > 0 for step in bench.STEPS)
    assert r["component_share"] == 1.0
    assert r["overhead_share"] == (r["component_seconds"] - r["model_seconds"]) / r["component_seconds"]
    assert results["load"]["model_load_seconds"] > 0 and results["load"]["host_load_seconds"] > 0
    assert "| SFU Review |" in (out / "host_cost.md").read_text()
