"""bench/bench_clinical.py end to end on a tiny trained model (the rule tools need their own
virtualenvs and run only in the real benchmark)."""
import json
from pathlib import Path
from types import ModuleType

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
