"""Resuming ``annotate`` from its work folder (spacy_negation.annotate.workdir): the model
that made the finished shards is checked (its path is not enough), and a truncated, foreign
or edited shard is annotated again; a --work-dir that cannot be a folder is a coded error."""
import json
import os
import re
import shutil

import pytest

from spacy_negation.annotate.workdir import model_identity

from util import annotate_quietly, corpus_texts, read_jsonl, write_text


def test_resume_refuses_another_model_at_the_same_path(trained_cnn_dir, tmp_path):
    model = tmp_path / "model"
    shutil.copytree(trained_cnn_dir, model)
    inp = write_text(tmp_path / "in.txt", corpus_texts(6))
    out = tmp_path / "out.jsonl"
    annotate_quietly(inp, out, str(model), shard_size=2, keep_shards=True)
    identity = model_identity(str(model))
    assert identity.startswith("en_") and " config=" in identity and " files=" in identity
    # the same model, saved again at the same path with other weights (here: other files)
    weights = sorted(p for p in model.rglob("model") if p.is_file())[0]
    os.utime(weights, ns=(weights.stat().st_atime_ns, weights.stat().st_mtime_ns + 10**9))
    assert model_identity(str(model)) != identity
    with pytest.raises(ValueError, match=r"\[NEG-E504\] .*model_identity"):
        annotate_quietly(inp, out, str(model), shard_size=2)
    meta = json.loads((model / "meta.json").read_text(encoding="utf-8"))
    meta["version"] = "9.9.9"
    (model / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    assert " 9.9.9 " in model_identity(str(model))
    assert model_identity("not_a_model_or_path") == "not_a_model_or_path"


def test_resume_redoes_a_truncated_or_foreign_shard(trained_cnn_dir, tmp_path):
    inp = write_text(tmp_path / "in.txt", corpus_texts(9))
    out = tmp_path / "out.jsonl"
    fresh = tmp_path / "fresh.jsonl"
    annotate_quietly(inp, fresh, str(trained_cnn_dir), shard_size=3)
    annotate_quietly(inp, out, str(trained_cnn_dir), shard_size=3, keep_shards=True)
    work = tmp_path / "out.jsonl.shards"
    shard = work / "shard-00001.jsonl"
    done = json.loads((work / "shard-00001.done.json").read_text(encoding="utf-8"))
    assert done["records"] == [3, 6, done["records"][2]] and done["bytes"] == shard.stat().st_size
    shard.write_bytes(shard.read_bytes()[:-20])  # truncated inside its last record
    record = json.loads((work / "shard-00002.done.json").read_text(encoding="utf-8"))
    record["records"] = [0, 3, 0]  # a record that does not belong to its shard
    (work / "shard-00002.done.json").write_text(json.dumps(record), encoding="utf-8")
    out.unlink()
    with pytest.warns(UserWarning, match=r"\[NEG-W950\]") as caught:
        summary = annotate_quietly(inp, out, str(trained_cnn_dir), shard_size=3)
    messages = [str(w.message) for w in caught if "[NEG-W950]" in str(w.message)]
    assert len(messages) == 2 and "shard-00001.jsonl" in messages[0] and "bytes" in messages[0]
    assert "shard-00002.jsonl" in messages[1] and "covers records" in messages[1]
    assert sorted(summary.redone) == [1, 2] and summary.resumed == 1 and summary.n_docs == 9
    assert out.read_bytes() == fresh.read_bytes()
    assert [r["id"] for r in read_jsonl(out)] == list(range(1, 10))


def test_resume_redoes_an_edited_shard_of_the_same_size(trained_cnn_dir, tmp_path):
    inp = write_text(tmp_path / "in.txt", corpus_texts(4))
    out = tmp_path / "out.jsonl"
    annotate_quietly(inp, out, str(trained_cnn_dir), shard_size=2, keep_shards=True)
    expected = out.read_bytes()
    shard = tmp_path / "out.jsonl.shards" / "shard-00000.jsonl"
    data = shard.read_bytes()
    shard.write_bytes(data.replace(b'"id": 1', b'"id": 7'))
    out.unlink()
    with pytest.warns(UserWarning, match=r"\[NEG-W950\] .*SHA-256"):
        summary = annotate_quietly(inp, out, str(trained_cnn_dir), shard_size=2)
    assert summary.redone and out.read_bytes() == expected


@pytest.mark.parametrize("kind", ["dangling symlink", "regular file", "below a file"])
def test_a_work_dir_that_cannot_be_a_folder_is_a_coded_error(tmp_path, capsys, kind):
    """Not "[Errno 17] File exists": the command says what is at the path, before any work."""
    from spacy_negation.cli import main
    from spacy_negation.errors import NegationFormatError

    inp = write_text(tmp_path / "in.txt", ["No."])
    out = tmp_path / "out.jsonl"
    work = tmp_path / "work"
    if kind == "dangling symlink":
        work.symlink_to(tmp_path / "gone")
        what = f"is a dangling symbolic link (to {tmp_path / 'gone'})"
    elif kind == "regular file":
        work.write_text("x", encoding="utf-8")
        what = "is a regular file, not a folder"
    else:
        (tmp_path / "file").write_text("x", encoding="utf-8")
        work = tmp_path / "file" / "work"
        what = f"cannot be made: {tmp_path / 'file'} is a regular file"
    message = f"[NEG-E520] The work folder {work} {what}; --work-dir is a folder"
    assert main(["annotate", str(inp), str(out), "--model", "no-model", "--work-dir", str(work)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Errno" not in err and "Traceback" not in err
    with pytest.raises(NegationFormatError, match=re.escape(message)):
        annotate_quietly(inp, out, "no-model", work_dir=work)
    assert not out.exists()
