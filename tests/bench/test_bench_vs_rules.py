"""bench/bench_vs_rules.py: the entity-negation task, its counting and a run on a tiny model
(the rule tools need their own virtualenvs and run only in the real benchmark)."""
import json
from pathlib import Path
from types import ModuleType

import pytest
import spacy
from spacy.tokens import DocBin

from util import REPO, gold_sentences, load_module, make_reference

from spacy_negation import register_extensions


def _bench() -> ModuleType:
    return load_module(REPO / "bench" / "bench_vs_rules.py", "bench_vs_rules")


def test_task_sentences_and_counts():
    bench = _bench()
    register_extensions()
    vocab = spacy.blank("en").vocab
    w = ["The", "dog", "did", "not", "bark", "at", "strangers", "."]
    doc = make_reference(vocab, w, [{"cue": [(3, 0, 3)], "scope": [(i, 0, len(w[i])) for i in (1, 2, 4)]}])
    doc[1].tag_, doc[4].tag_, doc[6].tag_, doc[3].tag_ = "NN", "VB", "NNS", "RB"
    (rec,) = bench.task_sentences([doc], "bioscope")
    # content words not on the stop list, the cue 'not' left out
    assert [w[i] for i in rec["targets"]] == ["dog", "bark", "strangers"]
    assert rec["gold"] == [True, True, False]
    (rec,) = bench.task_sentences([doc], "cdsco")  # nouns by gold tag
    assert [w[i] for i in rec["targets"]] == ["dog", "strangers"] and rec["gold"] == [True, False]
    rows = bench.counts([[True, True, False], [False]], [[True, False, True], [True]])
    assert rows == [(1, 1, 1), (0, 1, 0)]
    with pytest.raises(ValueError, match="targets"):
        bench.counts([[True]], [[True, False]])
    e = bench.entry(rows, words=10, seconds=2.0)
    assert (e["tp"], e["fp"], e["fn"]) == (1, 2, 1) and e["p"] == pytest.approx(1 / 3)
    assert e["r"] == pytest.approx(0.5) and e["words_per_second"] == 5.0
    assert e["ci_low"] <= e["f"] <= e["ci_high"]


def test_bench_on_a_tiny_model(tmp_path: Path, trained_cnn_dir: Path):
    bench = _bench()
    nlp = spacy.blank("en")
    docs = [make_reference(nlp.vocab, words, negs) for words, negs in gold_sentences()]
    gold_path = tmp_path / "gold.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(gold_path)
    out = tmp_path / "results"
    with pytest.raises(SystemExit):
        bench.main(["--split", f"sfu={gold_path}", "--model", f"tiny={trained_cnn_dir}", "--repeat", "0"])
    assert bench.main(["--split", f"sfu={gold_path}", "--model", f"tiny={trained_cnn_dir}", "--repeat", "2",
                       "--recommend", "sfu=tiny", "--fast", "tiny", "--rules", "none", "--out-dir", str(out)]) == 0
    results = json.loads((out / "vs_rules.json").read_text())
    tiny = results["sfu"]["tiny"]
    # the tiny model reproduces its training sentences, so every target is answered right
    gold = [r["gold"] for r in bench.task_sentences(docs, "sfu")]
    n_negated = sum(sum(g) for g in gold)
    assert n_negated > 0
    assert (tiny["tp"], tiny["fp"], tiny["fn"]) == (n_negated, 0, 0)
    assert tiny["f"] == 1.0 and tiny["words_per_second"] > 0
    assert results["sfu"]["recommended"]["model"] == "tiny" and results["sfu"]["fast"]["model"] == "tiny"
    assert "| recommended (tiny) | 100.0 | 100.0 | 100.0 |" in (out / "vs_rules.md").read_text()
    assert tiny["timed_runs"] == 2 and "fastest of 2" in (out / "vs_rules.md").read_text()
    # --update keeps the systems this run does not measure, marked with their run
    results["sfu"]["old_model"] = {**tiny, "f": 0.5}
    results["cdsco"] = {"old_model": {**tiny, "run": "2026-01-01"}}
    (out / "vs_rules.json").write_text(json.dumps(results))
    assert bench.main(["--split", f"sfu={gold_path}", "--model", f"tiny={trained_cnn_dir}", "--rules", "none",
                       "--out-dir", str(out), "--update"]) == 0
    merged = json.loads((out / "vs_rules.json").read_text())
    assert merged["sfu"]["old_model"]["f"] == 0.5 and merged["cdsco"]["old_model"]["run"] == "2026-01-01"
    assert merged["sfu"]["tiny"]["run"] != "earlier run" and "updated" in (out / "vs_rules.md").read_text()
