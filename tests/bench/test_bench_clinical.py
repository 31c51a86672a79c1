"""bench/bench_clinical.py end to end on a tiny trained model (the rule tools need their own
virtualenvs and run only in the real benchmark)."""
import json
from pathlib import Path
from types import ModuleType

import pytest
import spacy

from util import REPO, gold_sentences, load_module, make_reference

from spacy_negation import register_extensions


def _bench() -> ModuleType:
    return load_module(REPO / "bench" / "bench_clinical.py", "bench_clinical")


def _hand_set(split: str) -> list:
    """The tiny model's training sentences as a concept set: 'No one' (cue and scope: negated
    by any token, not by all), 'the party' (in scope), 'dog' (no negation)."""
    register_extensions()
    vocab = spacy.blank("en").vocab
    by_text = {" ".join(w): (w, negs) for w, negs in gold_sentences()}
    records = []
    for k, (key, spans) in enumerate([("No one came to the party .", [(0, 2), (4, 6)]),
                                      ("The dog barked loudly .", [(1, 2)])]):
        doc = make_reference(vocab, *by_text[key])
        concepts = []
        for a, b in spans:
            span = doc[a:b]
            concepts.append({"start": span.start_char, "end": span.end_char, "text": span.text,
                             "negated": any(t._.negated for t in span)})
        records.append({"id": f"h{k}-01", "split": split, "pattern": "no-initial" if k == 0 else "plain-affirmed",
                        "text": doc.text, "concepts": concepts})
    return records


def test_bench_clinical_on_a_tiny_model(tmp_path: Path, trained_cnn_dir: Path):
    bench = _bench()
    data = tmp_path / "set.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in _hand_set("dev")), encoding="utf-8")
    out = tmp_path / "results"
    assert bench.main(["--split", "dev", "--data", str(data), "--model", f"tiny={trained_cnn_dir}",
                       "--rules", "none", "--out-dir", str(out)]) == 0
    results = json.loads((out / "clinical_invented_dev.json").read_text())
    assert set(results) == {"tiny", "tiny (all tokens)"}
    # the tiny model reproduces its training sentences; by the default span rule (NegEx's:
    # a cue outside the concept) 'the party' is negated and 'No one', which holds its own
    # cue, is not, while this hand set's gold counts any token in scope
    tiny = results["tiny"]
    assert (tiny["tp"], tiny["fp"], tiny["fn"]) == (1, 0, 1)
    # 'No' is the cue, not in the scope, so 'No one' is not negated by all its tokens
    strict = results["tiny (all tokens)"]
    assert (strict["tp"], strict["fp"], strict["fn"]) == (1, 0, 1)
    assert strict["errors_by_pattern"]["no-initial"] == {"concepts": 2, "negated": 2, "fp": 0, "fn": 1}
    md = (out / "clinical_invented_dev.md").read_text()
    assert "| tiny | 100.0 | 50.0 | 66.7 |" in md and "--split dev" in md
    assert not (out / "clinical_invented.json").exists()
    # the set labels negation only: "is this concept uncertain?" has no gold and says so
    assert all("uncertain" not in e for e in results.values())
    assert f"Absent: {bench.ABSENT_NO_GOLD}." in md


def _uncertain_set(split: str) -> list:
    """The hand set with concepts labelled uncertain: 'dog' (in the hedge 'The dog barked
    loudly'), the others not."""
    records = _hand_set(split)
    for rec in records:
        for con in rec["concepts"]:
            con["uncertain"] = con["text"] == "dog"
    return records


def test_bench_clinical_uncertain_gold():
    bench = _bench()
    sentences = bench.task_sentences(_uncertain_set("dev"), "dev")
    assert [s["uncertain_gold"] for s in sentences] == [[False, False], [True]]
    assert bench.labels_uncertainty(sentences)
    plain = bench.task_sentences(_hand_set("dev"), "dev")
    assert [s["uncertain_gold"] for s in plain] == [None, None] and not bench.labels_uncertainty(plain)
    mixed = _uncertain_set("dev")
    del mixed[0]["concepts"][1]["uncertain"]
    with pytest.raises(ValueError, match=r"h0-01: some concepts of split 'dev' are labelled \"uncertain\""):
        bench.task_sentences(mixed, "dev")
    mixed = _hand_set("dev") + [{**_uncertain_set("dev")[1], "id": "h9-01"}]
    with pytest.raises(ValueError, match="h0-01: some concepts"):
        bench.task_sentences(mixed, "dev")


def test_bench_clinical_uncertain_absent_for_a_model_without_speculation(tmp_path: Path, trained_cnn_dir: Path):
    bench = _bench()
    data = tmp_path / "set.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in _uncertain_set("dev")), encoding="utf-8")
    out = tmp_path / "results"
    assert bench.main(["--split", "dev", "--data", str(data), "--model", f"tiny={trained_cnn_dir}",
                       "--rules", "none", "--out-dir", str(out)]) == 0
    results = json.loads((out / "clinical_invented_dev.json").read_text())
    assert results["tiny"]["uncertain"] == {"absent": bench.ABSENT_MODEL}
    assert results["tiny (all tokens)"]["uncertain"] == {"absent": bench.ABSENT_MODEL}
    md = (out / "clinical_invented_dev.md").read_text()
    assert "| tiny | absent | absent | absent |" in md and f"- tiny: absent: {bench.ABSENT_MODEL}" in md


def test_bench_clinical_uncertain_for_a_model_with_speculation(tmp_path: Path, trained_cnn_dir: Path, monkeypatch):
    """A model that resolves speculation (the tiny model with 'loudly' hedging 'dog barked'
    written onto its docs) against ConText (faked: it runs only in its virtualenv)."""
    bench = _bench()
    bvr = bench.vs_rules()
    original = bvr.negation_docs

    def resolving(model, sentences, cue_patterns=None, repeat=1):
        docs, seconds = original(model, sentences, cue_patterns, repeat)
        for doc in docs:
            words = [t.text for t in doc]
            doc._.speculations = ([{"cue": [doc[3]], "scope": [doc[1], doc[2]]}]
                                  if words[:3] == ["The", "dog", "barked"] else [])
        return docs, seconds

    monkeypatch.setattr(bvr, "negation_docs", resolving)
    monkeypatch.setattr(bvr, "run_rule_tool", lambda tool, sentences, venv_dir, repeat=1: (
        [[False] * len(r["targets"]) for r in sentences], 0.5, 10, {"medspacy": "fake"}))
    seen = {}

    def fake_uncertain(tool, sentences, venv_dir, repeat=1, targets="spec_targets"):
        seen["targets"] = targets
        return [[True] * len(r[targets]) for r in sentences], 0.5, 10, {"medspacy": "fake"}

    monkeypatch.setattr(bvr, "run_uncertain_tool", fake_uncertain)
    monkeypatch.setattr(bench, "vs_rules", lambda: bvr)
    data = tmp_path / "set.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in _uncertain_set("dev")), encoding="utf-8")
    out = tmp_path / "results"
    assert bench.main(["--split", "dev", "--data", str(data), "--model", f"tiny={trained_cnn_dir}",
                       "--rules", "medspacy_context", "--out-dir", str(out)]) == 0
    assert seen["targets"] == "targets"  # the concepts themselves are ConText's entities
    results = json.loads((out / "clinical_invented_dev.json").read_text())
    context = results["medspacy_context"]["uncertain"]
    assert (context["tp"], context["fp"], context["fn"]) == (1, 2, 0) and context["words_per_second"] == 20.0
    tiny = results["tiny"]["uncertain"]
    assert (tiny["tp"], tiny["fp"], tiny["fn"], tiny["f"]) == (1, 0, 0, 1.0)
    vs = tiny["vs_context"]
    assert vs["diff"] == pytest.approx(1.0 - context["f"]) and vs["ci_low"] <= vs["diff"] <= vs["ci_high"]
    assert results["tiny (all tokens)"]["uncertain"]["tp"] == 1
    md = (out / "clinical_invented_dev.md").read_text()
    assert "## Is this clinical concept uncertain? (speculation)" in md and "| tiny | 100.0 | 100.0 | 100.0 |" in md
    assert "- tiny: +50.0" in md
