"""The project's helper scripts: asset fetching with checksums."""
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import srsly

REPO = Path(__file__).resolve().parents[2]


def _project(tmp_path: Path, content: bytes, checksum_of: bytes) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    srsly.write_yaml(root / "project.yml", {"assets": [{
        "dest": "assets/c/file.txt", "url": "http://127.0.0.1:9/unreachable.txt",
        "checksum": hashlib.md5(checksum_of).hexdigest()}]})
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "file.txt").write_bytes(content)
    return root


def _run(root: Path, mirror: Path):
    return subprocess.run([sys.executable, str(REPO / "scripts" / "get_assets.py"), "--root", str(root),
                           "--mirror", str(mirror)], capture_output=True, text=True)


def test_assets_from_mirror(tmp_path):
    root = _project(tmp_path, b"data\n", b"data\n")
    r = _run(root, tmp_path / "mirror")
    assert r.returncode == 0, r.stderr
    assert (root / "assets/c/file.txt").read_bytes() == b"data\n"
    assert "already there" in _run(root, tmp_path / "mirror").stderr


def test_altered_mirror_file_is_an_error_and_leaves_nothing(tmp_path):
    root = _project(tmp_path, b"altered\n", b"data\n")
    r = _run(root, tmp_path / "mirror")
    assert r.returncode != 0 and "checksum mismatch" in r.stderr
    assert list((root / "assets/c").iterdir()) == []


def test_missing_everywhere_is_an_error(tmp_path):
    root = _project(tmp_path, b"data\n", b"data\n")
    (tmp_path / "mirror" / "file.txt").unlink()
    r = _run(root, tmp_path / "mirror")
    assert r.returncode != 0 and "cannot be downloaded" in r.stderr
    assert not (root / "assets/c/file.txt").exists()


def test_concat_docbins_marks_each_input_with_its_convention(run_script, tmp_path):
    import spacy
    from spacy.tokens import DocBin

    from spacy_negation.negation import get_convention

    nlp = spacy.blank("en")
    DocBin(store_user_data=True, docs=[nlp("No fever.")]).to_disk(tmp_path / "a.spacy")
    DocBin(store_user_data=True, docs=[nlp("Not bad."), nlp("Good.")]).to_disk(tmp_path / "b.spacy")
    proc = run_script("concat_docbins.py", f"cdsco={tmp_path / 'a.spacy'}", str(tmp_path / "b.spacy"),
                      "--output", str(tmp_path / "out.spacy"))
    assert proc.returncode == 0, proc.stderr
    docs = list(DocBin().from_disk(tmp_path / "out.spacy").get_docs(nlp.vocab))
    assert [(d.text, get_convention(d)) for d in docs] == [("No fever.", "cdsco"), ("Not bad.", None),
                                                            ("Good.", None)]


def test_general_report_counts_cues_in_sentences_without_negation(run_script, tmp_path):
    import spacy
    from spacy.tokens import DocBin

    from spacy_negation.corpora.starsem_docs import write_starsem_docs
    from spacy_negation.negation import set_negations

    nlp = spacy.blank("en")
    gold = [nlp("He was not there ."), nlp("T cells grew .")]
    for doc in gold:
        doc[0].is_sent_start = True
    set_negations(gold[0], [{"cue": [gold[0][2]], "scope": [gold[0][0], gold[0][1], gold[0][3]]}])
    DocBin(store_user_data=True, docs=gold).to_disk(tmp_path / "gold.spacy")
    system = [nlp("He was not there ."), nlp("T cells grew .")]
    for doc in system:
        doc[0].is_sent_start = True
    set_negations(system[0], [{"cue": [system[0][2]], "scope": [system[0][3]]}])
    set_negations(system[1], [{"cue": [system[1][0]], "scope": [system[1][1]]}])
    (tmp_path / "general").mkdir()
    (tmp_path / "cross").mkdir()
    write_starsem_docs(system, tmp_path / "general" / "on_bioscope.txt")
    scores = {"scores": {"neg_cue_b_f": 0.5, "neg_scm_b_f": 0.0, "neg_st_f": 0.4, "neg_nis_tok_f": 0.875,
                         "neg_nis_ex_f": 0.1}}
    (tmp_path / "general" / "on_bioscope.json").write_text(json.dumps(scores))
    (tmp_path / "cross" / "bioscope_on_bioscope.json").write_text(
        json.dumps({"scores": {**scores["scores"], "neg_nis_tok_f": 0.9}}))
    proc = run_script("general_report.py", "--general-dir", str(tmp_path / "general"), "--cross-dir",
                      str(tmp_path / "cross"), "--gold", f"bioscope={tmp_path / 'gold.spacy'}",
                      "--out-dir", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp_path / "out" / "general.json").read_text())
    cues = report["bioscope"]["general"]["cues"]
    assert (cues["unnegated_sentences"], cues["sentences_with_false_cue"], cues["cues_in_unnegated"]) == (1, 1, 1)
    assert cues["top"] == [["t", 1]]
    assert "| BioScope abstracts | 87.50 | 90.00 | -2.50 |" in (tmp_path / "out" / "general.md").read_text()
    assert "fast" not in report["bioscope"]
    # the fast model's rows, when its outputs are given
    (tmp_path / "fast").mkdir()
    (tmp_path / "fast" / "on_bioscope.json").write_text(json.dumps({"scores": {**scores["scores"], "neg_nis_tok_f": 0.8}}))
    proc = run_script("general_report.py", "--general-dir", str(tmp_path / "general"), "--cross-dir",
                      str(tmp_path / "cross"), "--fast-dir", str(tmp_path / "fast"), "--out-dir", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp_path / "out" / "general.json").read_text())
    assert report["bioscope"]["fast"]["scores"]["nis_tok_f"] == 0.8
    assert "| BioScope abstracts | fast (en_negation_fast, CNN) | 50.00 |" in (tmp_path / "out" / "general.md").read_text()
