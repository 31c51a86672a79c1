"""bench/bench_backends.py and bench/bench_profile.py on tiny models: the measurements are
written, shaped as the results files are, and consistent (timings themselves are not
asserted)."""
import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest
import spacy
from spacy.tokens import DocBin

from util import REPO, gold_sentences, load_module, make_reference


def _bench(name: str) -> ModuleType:
    # the scripts import their sibling bench_vs_rules: bench/ is on pytest's pythonpath (setup.cfg)
    return load_module(REPO / "bench" / f"{name}.py", name)


@pytest.fixture()
def gold_path(tmp_path: Path) -> Path:
    nlp = spacy.blank("en")
    docs = [make_reference(nlp.vocab, words, negs) for words, negs in gold_sentences()]
    path = tmp_path / "gold.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


def test_backends_on_a_tiny_bert(tmp_path: Path, gold_path: Path, tiny_bert_dir: Path):
    bench = _bench("bench_backends")
    out = tmp_path / "out"
    assert bench.main(["--backbone", str(tiny_bert_dir), "--split", f"sfu={gold_path}", "--repeat", "1",
                       "--threads", "1", "--out-dir", str(out)]) == 0
    rows = json.loads((out / "speed_backends.json").read_text())["sfu"]
    expected = {"torch-fp32", "torch-int8"}
    if importlib.util.find_spec("onnxruntime") and importlib.util.find_spec("onnx"):
        expected |= {"ort-fp32", "ort-int8", "ort-fused-int8"}
    assert set(rows) == expected
    assert all(r["pieces_per_second"] > 0 for r in rows.values())
    assert rows["torch-fp32"]["max_abs_diff"] == 0.0
    if "ort-fp32" in rows:  # the same float32 network in another runtime
        assert rows["ort-fp32"]["max_abs_diff"] < 1e-3
    assert "| torch-int8 |" in (out / "speed_backends.md").read_text()


def test_batches_are_sorted_and_bounded():
    bench = _bench("bench_backends")

    class Tokenizer:
        def __call__(self, words, **kwargs):
            return {"input_ids": [101] + [7] * len(words) + [102]}

    data, pieces = bench.batches([["a"] * 5, ["b"], ["c"] * 3, ["d"] * 3], Tokenizer(), bucket_pieces=12)
    assert pieces == 7 + 3 + 5 + 5
    assert [b["input_ids"].shape for b in data] == [(2, 5), (1, 5), (1, 7)]
    assert all(b["input_ids"].size <= 12 for b in data)
    assert data[0]["attention_mask"].tolist() == [[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]


def test_profile_on_a_tiny_model(tmp_path: Path, gold_path: Path, trained_cnn_dir: Path):
    bench = _bench("bench_profile")
    out = tmp_path / "out"
    assert bench.main(["--model", str(trained_cnn_dir), "--split", f"sfu={gold_path}", "--repeat", "1",
                       "--out-dir", str(out)]) == 0
    r = json.loads((out / "speed_profile.json").read_text())["sfu"]
    # a CNN: no transformer, no word pieces
    assert r["transformer_share"] == 0.0 and r["tokenizer_share"] == 0.0 and r["rest_share"] == pytest.approx(1.0)
    assert 0.0 < r["passing_share"] <= 1.0 and r["words_per_second"] > 0 and r["transformer_only_wps"] is None
    assert "| SFU Review |" in (out / "speed_profile.md").read_text()


def test_speed_table_without_the_baseline_setting():
    """`--setting combined --variant ...` alone: the changes are taken against the first
    setting measured (the run used to stop with a KeyError)."""
    speed = _bench("bench_speed")
    row = {"words_per_second": 1000.0, "e2e_words_per_second": 500.0, "f": 0.8, "p": 0.8, "r": 0.8,
           "nis_tok_f": 0.9}
    results = {"meta": {"model": "m", "machine": "2 CPU cores", "torch_threads": 2, "repeat": 1,
                        "splits": ["cdsco"], "variants": {"small": "path"}},
               "cdsco": {"combined": row, "small": {**row, "words_per_second": 1500.0, "f": 0.79}}}
    text = speed.render(results)
    assert "| combined | 1,000 | 1.00 |" in text
    assert "| small | 1,500 | 1.50 | 500 | 1.00 | 79.00 | -1.00 | 90.00 | +0.00 |" in text
    assert "## CD-SCO test" in text and "other models at the combined setting" in text
    results["meta"].update(part="dev", variant_setting="window")
    text = speed.render(results)
    assert "## CD-SCO dev" in text and "other models at the window setting" in text


def test_speed_settings_and_the_prefilter_window(tmp_path: Path, trained_cnn_dir: Path):
    """bench_speed.py's `prefilter` setting sends whole sentences; `window` and `combined`
    keep the model's prefilter_window."""
    speed = _bench("bench_speed")
    model = tmp_path / "windowed"
    spacy.load(trained_cnn_dir, config={"components": {"negation_cue": {"prefilter": True,
                                                                        "prefilter_window": [2, 3]}}}).to_disk(model)

    def cue(setting: str):
        return speed.host(str(model), setting).get_pipe("negation").negation_nlp.get_pipe("negation_cue")

    assert not cue("baseline").prefilter
    assert cue("prefilter").prefilter and cue("prefilter").prefilter_window is None
    assert cue("window").prefilter and cue("window").prefilter_window == (2, 3)
    assert cue("combined").prefilter_window == (2, 3)
