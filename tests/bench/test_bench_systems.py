"""bench/bench_systems.py on a tiny trained pipeline: its --json is what the systems report
reads (scripts/systems_inputs.py, read_speed_bench)."""
import json
import subprocess
import sys
from pathlib import Path

import spacy
from spacy.tokens import DocBin

from spacy_negation import register_extensions

from systems_inputs import END_TO_END, read_speed_bench
from util import REPO, gold_sentences, make_reference


def test_bench_json_is_read_by_the_report(tmp_path: Path, trained_cnn_dir: Path) -> None:
    register_extensions()
    nlp = spacy.blank("en")
    docs = [make_reference(nlp.vocab, words, negs) for words, negs in gold_sentences()]
    data = tmp_path / "gold.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(data)
    out = tmp_path / "speed" / "speed.json"
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "bench_systems.py"), f"bilstm_tagger={trained_cnn_dir}",
                           "--data", str(data), "--repeat", "1", "--threads", "1", "--json", str(out)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    raw = json.loads(out.read_text(encoding="utf-8"))
    n_words = sum(len(d) for d in docs)
    n_cues = sum(len(negs) for _, negs in gold_sentences())
    assert (raw["words"], raw["docs"], raw["cue_instances"], raw["threads"]) == (n_words, len(docs), n_cues, 1)
    speed = read_speed_bench(out)
    stages = [row["stage"] for row in speed["systems"]["bilstm_tagger"]["stages"]]
    # end to end first, then each component; the scope component on the gold cues
    assert stages[0] == END_TO_END and "negation_cue" in stages and "negation_scope (gold cues)" in stages
    for row in speed["systems"]["bilstm_tagger"]["stages"]:
        assert row["words_per_second"] == n_words / row["wall_s"] > 0
    assert "words/CPU-s" in proc.stdout
