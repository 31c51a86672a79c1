"""Bad input to convert and export and to the *SEM reader: coded errors with file and line,
nothing half-written, inputs never overwritten; the atomic writer; lenient reading
(``--on-error skip``)."""
import errno
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import List, Tuple

import pytest

from spacy_negation.cli import main as cli_main
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.starsem import read_starsem
from spacy_negation.corpora.starsem_docs import read_starsem_docs
from spacy_negation.errors import NegationFormatError
from spacy_negation.util import atomic_write_text

from full_disk import FullDisk

SAMPLE = """\
ch1\t0\t0\tHe\the\tPRP\t(S(NP*)\t_\tHe\t_
ch1\t0\t1\tdid\tdo\tVBD\t(VP*\t_\tdid\t_
ch1\t0\t2\tnot\tnot\tRB\t*\tnot\t_\t_
ch1\t0\t3\tgo\tgo\tVB\t*)\t_\tgo\tgo
ch1\t0\t4\t.\t.\t.\t*)\t_\t_\t_

ch1\t1\t0\tFine\tfine\tJJ\t(S*\t***
ch1\t1\t1\t.\t.\t.\t*)\t***
"""
GOOD2 = "ch1\t2\t0\tYes\tyes\tUH\t(S*\t***\nch1\t2\t1\t.\t.\t.\t*)\t***\n"


def write(tmp_path: Path, text: str, name: str = "in.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def convert(*args: str) -> int:
    return cli_main(["convert", "--quiet", *args])


def replace_row(text: str, line: int, **cells: str) -> str:
    """The text with columns of one (1-based) line replaced: form=, cue=, scope=."""
    lines = text.split("\n")
    cols = lines[line - 1].split("\t")
    for name, value in cells.items():
        cols[{"form": 3, "cue": 7, "scope": 8, "event": 9}[name]] = value
    lines[line - 1] = "\t".join(cols)
    return "\n".join(lines)


# --- output paths (items 5, 6) ------------------------------------------------------------
def test_output_is_a_directory(tmp_path, capsys):
    src = write(tmp_path, SAMPLE)
    (tmp_path / "out").mkdir()
    assert convert(str(src), str(tmp_path / "out")) == 2  # a usage error: before any work
    err = capsys.readouterr().err
    assert "[NEG-E123]" in err and "is a directory" in err and str(tmp_path / "out") in err


def test_output_parent_is_a_file(tmp_path, capsys):
    src = write(tmp_path, SAMPLE)
    out = tmp_path / "in.txt" / "sub" / "out.spacy"
    assert convert(str(src), str(out)) == 2
    err = capsys.readouterr().err
    assert "[NEG-E123]" in err and f"{src} is not a directory" in err
    assert src.read_text(encoding="utf-8") == SAMPLE


def test_export_output_errors(tmp_path, capsys):
    src = write(tmp_path, SAMPLE)
    assert convert(str(src), str(tmp_path / "x.spacy")) == 0
    (tmp_path / "dir").mkdir()
    assert cli_main(["export", str(tmp_path / "x.spacy"), str(tmp_path / "dir")]) == 2
    assert "[NEG-E123]" in capsys.readouterr().err


def test_export_names_the_file_of_an_unwritable_doc(tmp_path, capsys):
    """A .spacy file made elsewhere can hold a token with a space; export names the file."""
    import spacy
    from spacy.tokens import Doc, DocBin

    doc = Doc(spacy.blank("en").vocab, words=["New York", "is", "big"])
    src = tmp_path / "x.spacy"
    src.write_bytes(DocBin(docs=[doc]).to_bytes())
    out = tmp_path / "x.txt"
    assert cli_main(["export", str(src), str(out)]) == 1
    err = capsys.readouterr().err
    assert f"[NEG-E127] {src}: its docs cannot be written" in err and not out.exists()
    assert "[NEG-E120] Doc 0 token 0 ('New York') contains whitespace" in err


def test_export_of_a_part_outside_the_sentence_of_its_cue_is_a_coded_error(tmp_path, capsys):
    """One *SEM sentence holds a whole instance: a scope part in another sentence than its
    cue cannot be written (E121), and export names the file (E127)."""
    import spacy
    from spacy.tokens import Doc, DocBin

    from spacy_negation import register_extensions
    from spacy_negation.corpora.starsem_docs import write_starsem_docs

    register_extensions()
    doc = Doc(spacy.blank("en").vocab, words=["Not", "so", ".", "He", "left", "."],
              sent_starts=[True, False, False, True, False, False])
    doc._.negations = [{"cue": [doc[0]], "scope": [doc[1], doc[4]]}]
    with pytest.raises(ValueError, match=r"\[NEG-E121\] Doc 0: negation 0 has a scope part on token 4"):
        write_starsem_docs([doc], tmp_path / "direct.txt")
    src = tmp_path / "x.spacy"
    src.write_bytes(DocBin(docs=[doc], store_user_data=True).to_bytes())
    out = tmp_path / "x.txt"
    assert cli_main(["export", str(src), str(out)]) == 1
    err = capsys.readouterr().err
    assert f"[NEG-E127] {src}" in err and "[NEG-E121]" in err and not out.exists()


def test_reading_a_file_that_is_not_a_docbin_is_a_coded_error(tmp_path, capsys):
    src = write(tmp_path, "not a DocBin\n", name="x.spacy")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E132\] .*x\.spacy: not a \.spacy \(DocBin\) file"):
        read_docbin(src)
    assert cli_main(["export", str(src), str(tmp_path / "x.txt")]) == 1
    assert "[NEG-E132]" in capsys.readouterr().err and not (tmp_path / "x.txt").exists()


@pytest.mark.parametrize("command", ["convert", "export"])
def test_unknown_language(tmp_path, capsys, command):
    src = write(tmp_path, SAMPLE)
    if command == "export":
        assert convert(str(src), str(tmp_path / "x.spacy")) == 0
        src = tmp_path / "x.spacy"
    out = tmp_path / "out"
    assert cli_main([command, "--lang", "klingon", str(src), str(out)]) == 1
    err = capsys.readouterr().err
    assert "[NEG-E126]" in err and "'klingon'" in err and "Traceback" not in err
    assert not out.exists()


def test_long_output_name(tmp_path):
    """A 245-character name is legal; the temporary file name beside it must stay within
    255 bytes too (also for multi-byte characters)."""
    src = write(tmp_path, SAMPLE)
    for name in ["x" * 239 + ".spacy", "é" * 124 + ".spacy"]:
        assert len(os.fsencode(name)) <= 255
        out = tmp_path / name
        assert convert(str(src), str(out)) == 0
        assert len(read_docbin(out)) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["in.txt", "x" * 239 + ".spacy",
                                                                 "é" * 124 + ".spacy"])


def test_symlink_output_writes_the_target(tmp_path):
    target = tmp_path / "real.txt"
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(target.name)
    atomic_write_text(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text(encoding="utf-8") == "new\n"
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to("made.txt")
    atomic_write_text(dangling, "made\n")
    assert dangling.is_symlink() and (tmp_path / "made.txt").read_text(encoding="utf-8") == "made\n"


def test_symlink_output_through_cli(tmp_path):
    src = write(tmp_path, SAMPLE)
    assert convert(str(src), str(tmp_path / "x.spacy")) == 0
    target = tmp_path / "target.txt"
    target.write_text("old\n", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(target)
    assert cli_main(["export", str(tmp_path / "x.spacy"), str(tmp_path / "link.txt")]) == 0
    assert (tmp_path / "link.txt").is_symlink() and target.read_text(encoding="utf-8") == SAMPLE


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_output_is_refused(tmp_path, capsys):
    src = write(tmp_path, SAMPLE)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert convert(str(src), str(fifo)) == 2
    assert "[NEG-E124]" in capsys.readouterr().err
    assert fifo.exists() and not fifo.is_file()
    (tmp_path / "link").symlink_to(fifo)
    with pytest.raises(NegationFormatError, match=r"\[NEG-E124\].*a FIFO"):
        atomic_write_text(tmp_path / "link", "x")
    assert (tmp_path / "link").is_symlink() and not fifo.is_file()


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EDQUOT])
def test_a_full_disk_stops_the_write_with_a_coded_error_and_leaves_nothing(tmp_path, monkeypatch, err):
    out = tmp_path / "out.txt"
    out.write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(os, "fdopen", FullDisk(err))
    with pytest.raises(NegationFormatError, match=rf"\[NEG-E972\] Cannot write {re.escape(str(out))}: "
                                                  rf"{os.strerror(err)}: the disk \(or the quota\) is full"):
        atomic_write_text(out, "new content, longer than the room left\n")
    assert out.read_text(encoding="utf-8") == "old\n"  # the old file is kept whole
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]  # no temporary file left


def test_convert_stops_on_a_full_disk(tmp_path, monkeypatch, capsys):
    src = write(tmp_path, SAMPLE)
    monkeypatch.setattr(os, "fdopen", FullDisk(errno.ENOSPC))
    assert convert(str(src), str(tmp_path / "out.spacy")) == 1
    err = capsys.readouterr().err
    assert f"[NEG-E972] Cannot write {tmp_path / 'out.spacy'}" in err and "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["in.txt"]


def _same_file_paths(tmp_path: Path, src: Path) -> List[Tuple[str, str]]:
    (tmp_path / "link.txt").symlink_to(src)
    os.link(src, tmp_path / "hard.txt")
    return [("same", str(src)), ("symlink", str(tmp_path / "link.txt")),
            ("hardlink", str(tmp_path / "hard.txt")), ("relative", os.path.relpath(src))]


@pytest.mark.parametrize("kind", ["same", "symlink", "hardlink", "relative"])
def test_convert_refuses_to_overwrite_its_input(tmp_path, capsys, kind):
    src = write(tmp_path, SAMPLE)
    out = dict(_same_file_paths(tmp_path, src))[kind]
    assert convert(str(src), out) == 1
    assert "[NEG-E125]" in capsys.readouterr().err
    assert src.read_text(encoding="utf-8") == SAMPLE


@pytest.mark.parametrize("kind", ["same", "symlink", "hardlink", "relative"])
def test_export_refuses_to_overwrite_its_input(tmp_path, capsys, kind):
    src = write(tmp_path, SAMPLE)
    spacy_file = tmp_path / "x.spacy"
    assert convert(str(src), str(spacy_file)) == 0
    data = spacy_file.read_bytes()
    out = dict(_same_file_paths(tmp_path, spacy_file))[kind]
    assert cli_main(["export", str(spacy_file), out]) == 1
    assert "[NEG-E125]" in capsys.readouterr().err
    assert spacy_file.read_bytes() == data


# --- encodings and line endings (items 7, 12) ---------------------------------------------
def test_bom_is_ignored(tmp_path):
    src = tmp_path / "bom.txt"
    src.write_bytes(b"\xef\xbb\xbf" + (SAMPLE + "\n" + GOOD2).encode("utf-8"))
    (doc,) = read_starsem_docs(src, n_sents=0)
    assert len(list(doc.sents)) == 3 and doc[0].text == "He"
    assert convert("--n-sents", "0", str(src), str(tmp_path / "x.spacy")) == 0
    (doc,) = read_docbin(tmp_path / "x.spacy")
    assert len(list(doc.sents)) == 3 and doc._.negations[0].cue_text == "not"


def test_crlf_reads_like_lf(tmp_path):
    crlf = write(tmp_path, SAMPLE.replace("\n", "\r\n"), "crlf.txt")
    assert [s.forms for s in read_starsem(crlf)] == [s.forms for s in read_starsem(write(tmp_path, SAMPLE))]


def test_cr_only_line_endings(tmp_path, capsys):
    src = write(tmp_path, SAMPLE.replace("\n", "\r"))
    with pytest.raises(NegationFormatError, match=r"\[NEG-E113\].*CR-only line endings") as err:
        read_starsem(src)
    assert err.value.line == 1
    stray = write(tmp_path, SAMPLE.replace("\tnot\tnot", "\tno\rt\tnot"), "stray.txt")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E113\]") as err:
        read_starsem(stray)
    assert err.value.line == 3
    assert convert(str(src), str(tmp_path / "out.spacy")) == 1
    assert "[NEG-E113]" in capsys.readouterr().err and not (tmp_path / "out.spacy").exists()


# --- n_sents (item 12) -----------------------------------------------------------------------
def test_negative_n_sents(tmp_path):
    src = write(tmp_path, SAMPLE)
    r = subprocess.run([sys.executable, "-m", "spacy_negation", "convert", "--n-sents", "-1", str(src),
                        str(tmp_path / "out.spacy")], capture_output=True, text=True)
    assert r.returncode == 2 and "[NEG-E971] --n-sents must be a whole number from 0 to" in r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "out.spacy").exists()
    with pytest.raises(ValueError, match=r"\[NEG-E116\]"):
        read_starsem_docs(src, n_sents=-1)


# --- cells and forms (items 9, 10) ---------------------------------------------------------
BAD_CELLS = {
    "empty_cue_cell": (replace_row(SAMPLE, 3, cue=""), "E114", 3),
    "empty_scope_cell": (replace_row(SAMPLE, 1, scope=""), "E114", 1),
    "empty_event_cell": (replace_row(SAMPLE, 4, event=""), "E114", 4),
    "form_with_space": (replace_row(SAMPLE, 4, form="go on", scope="go on", event="go"), "E405", 4),
    "form_only_nbsp": (replace_row(SAMPLE, 7, form="\u00a0"), "E405", 7),
    "form_with_nul": (replace_row(SAMPLE, 7, form="Fi\x00ne"), "E405", 7),
}


@pytest.mark.parametrize("name", sorted(BAD_CELLS))
def test_convert_bad_cells_and_forms(tmp_path, capsys, name):
    text, code, line = BAD_CELLS[name]
    src = write(tmp_path, text)
    with pytest.raises(NegationFormatError, match=rf"\[NEG-{code}\]") as err:
        read_starsem_docs(src)
    assert err.value.line == line and f"{src}:{line}:" in str(err.value)
    out = tmp_path / "out.spacy"
    assert convert(str(src), str(out)) == 1
    assert f"[NEG-{code}] {src}:{line}:" in capsys.readouterr().err
    assert not out.exists()


# --- lenient reading (item 13) ---------------------------------------------------------------
def lenient_input(tmp_path: Path) -> Path:
    bad_scope = replace_row(SAMPLE, 1, scope="love")  # sentence 0: not a substring, skipped
    text = (bad_scope + "\n" + GOOD2 + "\n"
            + "ch1\t3\t0\tPlayStation\tplaystation\tNN\t(S*\t_\tPlaystation\t_\n"
            + "ch1\t3\t1\tisn't\tbe\tVBZ\t*\tn't\t_\t_\n"
            + "ch1\t3\t2\tfun\tfun\tJJ\t*)\t_\tfun\tfun\n\n"
            + "ch1\t4\t0\tNo\tno\tDT\t(S*\tNo\t_\t_\n"
            + "ch1\t4\t1\tway\tway\tNN\t*)\t_\t\tway\n")  # empty scope cell: skipped
    return write(tmp_path, text)


def test_strict_is_the_default(tmp_path, capsys):
    src = lenient_input(tmp_path)
    with pytest.raises(NegationFormatError, match=r"\[NEG-E107\]"):
        read_starsem_docs(src)
    assert convert(str(src), str(tmp_path / "out.spacy")) == 1
    assert "[NEG-E107]" in capsys.readouterr().err


def test_lenient_python_api(tmp_path):
    src = lenient_input(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (doc,) = read_starsem_docs(src, n_sents=0, on_error="skip")
    messages = [str(w.message) for w in caught]
    assert len(messages) == 3
    assert messages[0].startswith(f"[NEG-W402] {src}:1: skipped") and "[NEG-E107]" in messages[0] and "'love'" in messages[0]
    assert messages[1].startswith(f"[NEG-W403] {src}:13: repaired the scope cell 'Playstation' to 'PlayStation'")
    assert messages[2].startswith(f"[NEG-W402] {src}:17: skipped") and f"[NEG-E114] {src}:18:" in messages[2]
    assert [s.text for s in doc.sents] == ["Fine.", "Yes.", "PlayStation isn't fun"]
    negs = doc._.negations
    assert [(n.cue_text, n.scope_text) for n in negs] == [("n't", "PlayStation fun")]
    with pytest.raises(ValueError, match=r"\[NEG-E115\]"):
        read_starsem_docs(src, on_error="ignore")


def test_lenient_cli_reports_and_counts(tmp_path, capsys):
    src = lenient_input(tmp_path)
    out = tmp_path / "out.spacy"
    assert convert("--on-error", "skip", "--n-sents", "0", str(src), str(out)) == 0
    err = capsys.readouterr().err
    assert f"warning: [NEG-W402] {src}:1:" in err and f"warning: [NEG-W403] {src}:13:" in err
    assert f"warning: [NEG-W402] {src}:17:" in err
    assert err.strip().endswith("2 sentence(s) skipped, 1 cell(s) repaired")
    (doc,) = read_docbin(out)
    assert len(list(doc.sents)) == 3
    assert cli_main(["export", str(out), str(tmp_path / "back.txt")]) == 0
    back = read_starsem(tmp_path / "back.txt")
    assert [s.sent_no for s in back] == ["1", "2", "3"] and back[2].instances[0].scope[0] == (0, "PlayStation")


def test_lenient_does_not_skip_file_errors(tmp_path):
    src = tmp_path / "bad.txt"
    src.write_bytes(b"a\t0\t0\t\xff\tx\tNN\t*\t***\n")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E111\]"):
        read_starsem_docs(src, on_error="skip")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E113\]"):
        read_starsem_docs(write(tmp_path, SAMPLE.replace("\n", "\r")), on_error="skip")
