"""Bad input to the BioScope, SFU Review and NEGES readers: broken references and
structure (coded errors with file and line), byte order marks, CR-only line endings,
control characters, and lenient reading (``on_error="skip"``)."""
import re
import warnings
from pathlib import Path
from typing import Callable, List

import pytest
import spacy
from spacy.tokens import Doc

from spacy_negation.cli import main as cli_main
from spacy_negation.corpora.bioscope import read_bioscope
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.neges2018 import read_neges2018
from spacy_negation.corpora.neges2019 import read_neges2019
from spacy_negation.corpora.sfu import read_sfu
from spacy_negation.errors import NegationFormatError

from . import test_bioscope_reader as bioscope
from . import test_neges_reader as neges
from . import test_sfu_reader as sfu
from util import negation_keys

Reader = Callable[..., List[Doc]]


def read_all(reader: Callable, path: Path, lang: str = "en", **kwargs) -> List[Doc]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(reader(path, spacy.blank(lang).vocab, 10, **kwargs))


def caught(reader: Callable, path: Path, lang: str = "en", **kwargs) -> List[str]:
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        list(reader(path, spacy.blank(lang).vocab, 10, **kwargs))
    return [str(w.message) for w in record]


def raises_at(reader: Callable, path: Path, code: str, line: int, lang: str = "en") -> None:
    with pytest.raises(NegationFormatError, match=rf"\[NEG-{code}\]") as err:
        read_all(reader, path, lang)
    assert err.value.line == line and f"{path}:{line}:" in str(err.value)


# --- SFU Review: structure and references (items 5, 8) ------------------------------------------
S_EXTRA = "<SENTENCE>" + sfu.W("Good") + "</SENTENCE>"


@pytest.mark.parametrize("edit,code,line", [
    # a <SENTENCE> inside a <SENTENCE> (was an IndexError)
    (lambda t: t.replace(sfu.W("."), S_EXTRA.replace("<SENTENCE>", "\n<SENTENCE>"), 1), "E450", 3),
    # <ref> directly in the sentence, outside any <xcope> (the whole sentence became the scope)
    (lambda t: t.replace(sfu.W("It"), '\n<ref ID="50" SRC="1"></ref>' + sfu.W("It"), 1), "E417", 5),
    # <W> outside any <SENTENCE> (was dropped)
    (lambda t: t.replace("<P></P><P>", "<P>\n" + sfu.W("stray") + "</P><P>", 1), "E417", 3),
    # a scope in sentence 3 linked to the negation cue 11 of sentence 2
    (lambda t: t.replace('SRC="1 99"', 'SRC="11"'), "E451", 4),
    # an unmapped C1 control character stays a control character
    (lambda t: t.replace("<W>cheap</W>", "<W>che\x81ap</W>"), "E405", 4),
])
def test_sfu_structure_errors(tmp_path, edit, code, line):
    raises_at(read_sfu, sfu.write(tmp_path, edit(sfu.SAMPLE)), code, line)


def test_sfu_dangling_ref_warns(tmp_path):
    """A <ref SRC> naming no cue cannot be an error: the release has 7 (e.g. MOVIES/no3done.xml
    SRC="3"); it warns with file and line and the cue keeps no scope from it."""
    path = sfu.write(tmp_path, sfu.SAMPLE.replace('<ref ID="3" SRC="1">', '<ref ID="3" SRC="999">'))
    messages = caught(read_sfu, path)
    assert any(m.startswith(f"[NEG-W404] {path}:2: <ref SRC='999'> names '999'") for m in messages)
    doc = read_all(read_sfu, path)[0]
    assert (doc._.negations[0].cue_text, doc._.negations[0].scope_text) == ("do n't", "")


# --- NEGES 2019: a token element without wd (item 8) ---------------------------------------------
def test_neges2019_token_without_wd(tmp_path):
    path = neges.write(tmp_path, neges.XML.replace('wd="freno"', ""), "libros/bad.xml")
    raises_at(read_neges2019, path, "E406", 7, "es")
    with pytest.raises(NegationFormatError, match=r"<v> element without the required attribute 'wd'"):
        read_all(read_neges2019, path, "es")


# --- byte order marks (item 7) ----------------------------------------------------------------
@pytest.mark.parametrize("name,reader,text,file,lang", [
    ("bioscope", read_bioscope, bioscope.SAMPLE, "abstracts.xml", "en"),
    ("sfu", read_sfu, sfu.SAMPLE, "BOOKS/no1done.xml", "en"),
    ("neges2018", read_neges2018, neges.CONLL, "train/x.txt", "es"),
    ("neges2019", read_neges2019, neges.XML, "libros/no_2_6.xml", "es"),
])
def test_bom_is_ignored(tmp_path, name, reader, text, file, lang):
    plain = tmp_path / "plain" / file
    bom = tmp_path / "bom" / file
    for path, prefix in ((plain, b""), (bom, b"\xef\xbb\xbf")):
        path.parent.mkdir(parents=True)
        path.write_bytes(prefix + text.encode("utf-8"))
    expected, got = read_all(reader, plain, lang), read_all(reader, bom, lang)
    assert [d.text for d in got] == [d.text for d in expected]
    assert [d.user_data for d in got] == [d.user_data for d in expected]
    assert [negation_keys(d) for d in got] == [negation_keys(d) for d in expected]


def test_neges2018_cr_only_line_endings(tmp_path):
    path = neges.write(tmp_path, neges.CONLL.replace("\n", "\r"), "cr.txt")
    raises_at(read_neges2018, path, "E113", 1, "es")


# --- lenient reading (item 13) ----------------------------------------------------------------
def test_bioscope_lenient(tmp_path):
    path = bioscope.write(tmp_path, bioscope.SAMPLE.replace('ref="X1.2.1">nor', 'ref="X9">nor'))
    raises_at(read_bioscope, path, "E407", 9)
    messages = caught(read_bioscope, path, on_error="skip")
    assert len(messages) == 1 and messages[0].startswith(f"[NEG-W402] {path}:9: skipped") and "[NEG-E407]" in messages[0]
    docs = read_all(read_bioscope, path, on_error="skip")
    assert [s.text for d in docs for s in d.sents][:2] == ["PMA, and not retinoic acid acts.", "No hedge: may be absent."]
    assert sum(len(d._.negations) for d in docs) == 3


def test_sfu_lenient(tmp_path):
    path = sfu.write(tmp_path, sfu.SAMPLE.replace("<W>never</W>", ""))
    messages = caught(read_sfu, path, on_error="skip")
    skipped = [m for m in messages if m.startswith("[NEG-W402]")]
    assert len(skipped) == 1 and skipped[0].startswith(f"[NEG-W402] {path}:3: skipped") and "[NEG-E409]" in skipped[0]
    (doc,) = read_all(read_sfu, path, on_error="skip")
    assert doc.user_data["spacy_negation.starsem"]["sent_nos"] == ["0", "2"]
    assert [n.cue_text for n in doc._.negations] == ["do n't", "is not"]


def test_neges2018_lenient_skip_and_repair(tmp_path):
    text = neges.CONLL.replace("\tNo\t-\t-\t-", "\tNO\t-\t-\t-", 1)  # cue cell in another case
    text = neges._replace_line(text, 3, "\t".join([neges.D, "1", "3", "tal", "tal", "rg"]))  # too few columns
    path = neges.write(tmp_path, text, "train/x.txt")
    raises_at(read_neges2018, path, "E411", 3, "es")
    messages = caught(read_neges2018, path, "es", on_error="skip")
    assert messages[0].startswith(f"[NEG-W402] {path}:1: skipped") and "[NEG-E411]" in messages[0]
    assert messages[1].startswith(f"[NEG-W403] {path}:6: repaired the cue cell 'NO' to 'No'")
    docs = read_all(read_neges2018, path, "es", on_error="skip")
    assert docs[0].user_data["spacy_negation.starsem"]["sent_nos"] == ["2", "3"]
    assert [n.cue_text for n in docs[0]._.negations] == ["No nada", "sin", "nunca"]


def test_neges2019_lenient(tmp_path):
    path = neges.write(tmp_path, neges.XML.replace('wd="freno"', ""), "libros/no_2_6.xml")
    messages = caught(read_neges2019, path, "es", on_error="skip")
    assert messages[0].startswith(f"[NEG-W402] {path}:2: skipped") and "[NEG-E406]" in messages[0]
    (doc,) = read_all(read_neges2019, path, "es", on_error="skip")
    assert doc.user_data["spacy_negation.starsem"]["sent_nos"] == ["2", "3"]


def test_convert_lenient_report_for_readers(tmp_path, capsys):
    src = sfu.write(tmp_path, sfu.SAMPLE.replace("<W>never</W>", ""))
    out = tmp_path / "out.spacy"
    assert cli_main(["convert", "--quiet", "--format", "sfu", str(src), str(out)]) == 1
    assert "[NEG-E409]" in capsys.readouterr().err and not out.exists()
    assert cli_main(["convert", "--quiet", "--format", "sfu", "--on-error", "skip", str(src), str(out)]) == 0
    err = capsys.readouterr().err
    assert re.search(rf"warning: \[NEG-W402\] {re.escape(str(src))}:3: skipped .*\[NEG-E409\]", err)
    assert f"warning: [NEG-W404] {src}:4:" in err
    assert err.strip().endswith("1 sentence(s) skipped, 0 cell(s) repaired")
    assert [len(list(d.sents)) for d in read_docbin(out)] == [2]


def test_invalid_on_error(tmp_path):
    with pytest.raises(ValueError, match=r"\[NEG-E115\]"):
        read_all(read_sfu, sfu.write(tmp_path, sfu.SAMPLE), on_error="warn")


@pytest.mark.parametrize("fmt,text,file,lang", [
    ("bioscope", bioscope.SAMPLE, "abstracts.xml", "en"),
    ("sfu", sfu.SAMPLE, "BOOKS/no1done.xml", "en"),
    ("neges2018", neges.CONLL, "train/x.txt", "es"),
    ("neges2019", neges.XML, "libros/no_2_6.xml", "es"),
])
def test_every_format_converts_leniently(tmp_path, capsys, fmt, text, file, lang):
    src = tmp_path / "in" / file
    src.parent.mkdir(parents=True)
    src.write_text(text, encoding="utf-8")
    strict, lenient = tmp_path / "strict.spacy", tmp_path / "lenient.spacy"
    assert cli_main(["convert", "--quiet", "--format", fmt, "--lang", lang, str(src), str(strict)]) == 0
    assert cli_main(["convert", "--quiet", "--format", fmt, "--lang", lang, "--on-error", "skip", str(src),
                     str(lenient)]) == 0
    assert "0 sentence(s) skipped, 0 cell(s) repaired" in capsys.readouterr().err
    assert [negation_keys(d) for d in read_docbin(lenient, lang)] == [negation_keys(d) for d in read_docbin(strict, lang)]
