"""NEGES 2018 CoNLL and NEGES 2019 XML readers (SFU ReviewSP-NEG) on hand-made excerpts."""
import warnings
from pathlib import Path
from typing import List

import pytest
import spacy
from spacy.tokens import Doc

from spacy_negation.cli import main as cli_main
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.docs import META_KEY
from spacy_negation.corpora.neges2018 import parse_neges_conll, read_neges2018
from spacy_negation.corpora.neges2019 import parse_neges_xml, read_neges2019
from spacy_negation.corpora.spaces import SPANISH, guess_spaces
from spacy_negation.corpora.starsem_docs import read_starsem_docs, write_starsem_docs
from spacy_negation.errors import NegationFormatError

from util import assert_coded_error, negation_keys


def row(doc: str, s: int, t: int, form: str, lemma: str, pos: str, ptype: str, *cells: str) -> str:
    return "\t".join([doc, str(s), str(t), form, lemma, pos, ptype, *cells]) + "\t"


D = "hoteles_no_1_4"
CONLL = "\n".join([
    row(D, 1, 1, "¿", "¿", "fia", "-", "***"),
    row(D, 1, 2, "Qué", "qué", "pt000000", "interrogative", "***"),
    row(D, 1, 3, "tal", "tal", "rg", "-", "***"),
    row(D, 1, 4, "?", "?", "fit", "-", "***"),
    "",
    row(D, 2, 1, "No", "no", "rn", "negative", "No", "-", "-", "-", "-", "-"),
    row(D, 2, 2, "me", "me", "pp1cs000", "personal", "-", "-", "-", "-", "-", "-"),
    row(D, 2, 3, "gusta", "gustar", "vmip3s0", "main", "-", "-", "-", "-", "-", "-"),
    row(D, 2, 4, "nada", "nada", "pi0cs000", "indefinite", "nada", "-", "-", "-", "-", "-"),
    row(D, 2, 5, ",", ",", "fc", "-", "-", "-", "-", "-", "-", "-"),
    row(D, 2, 6, "sin", "sin", "sps00", "preposition", "-", "-", "-", "sin", "-", "-"),
    row(D, 2, 7, "duda", "duda", "ncfs000", "common", "-", "-", "-", "-", "-", "-"),
    row(D, 2, 8, ".", ".", "fp", "-", "-", "-", "-", "-", "-", "-"),
    "",
    # a triple without cue word (dropped, W400), a token-number gap, a form with a trailing space
    row(D, 3, 1, "JULIA_NAVARRO ", "julia_navarro", "np00000", "proper", "-", "-", "-", "-", "-", "-"),
    row(D, 3, 2, "nunca", "nunca", "rg", "-", "-", "-", "-", "nunca", "-", "-"),
    row(D, 3, 4, "falla", "fallar", "vmip3s0", "main", "-", "-", "-", "-", "-", "-"),
    "",
    row("libros_yes_4_1", 1, 1, "Bien", "bien", "rg", "-", "***"),
    row("libros_yes_4_1", 1, 2, ".", ".", "fp", "-", "***"),
    "",
])
TEST_INPUT = "\n".join(["libros_yes_4_1\t1\t1\tSin\tsin\tsps00\tpreposition",
                        "libros_yes_4_1\t1\t2\tduda\tduda\tncfs000\tcommon", ""])


def write(folder: Path, text: str, name: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def read18(path: Path, n_sents: int = 10) -> List[Doc]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(read_neges2018(path, spacy.blank("es").vocab, n_sents))


def read19(path: Path, n_sents: int = 10, **kwargs) -> List[Doc]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(read_neges2019(path, spacy.blank("es").vocab, n_sents, **kwargs))


# --- NEGES 2018 CoNLL ------------------------------------------------------------------------
def test_conll_reader(tmp_path):
    path = write(tmp_path, CONLL, "train/train_hoteles_task2.txt")
    with pytest.warns(UserWarning, match=r"\[NEG-W400\].*train_hoteles_task2.txt:15: negation instance 1 "
                                         r"\(columns 8-10\)"):
        docs = list(read_neges2018(path, spacy.blank("es").vocab, 10))
    assert len(docs) == 2
    doc = docs[0]
    assert doc.text == "¿Qué tal? No me gusta nada, sin duda. JULIA_NAVARRO nunca falla"
    assert doc[4].lemma_ == "no" and doc[4].tag_ == "rn"
    no_nada, sin, nunca = doc._.negations
    assert no_nada.cue_text == "No nada" and no_nada.is_discontinuous and no_nada.scope == ()
    assert sin.cue_text == "sin" and nunca.cue_text == "nunca"
    meta = doc.user_data[META_KEY]
    assert meta["doc_ids"] == [D] * 3 and meta["sent_nos"] == ["1", "2", "3"]
    assert docs[1].user_data[META_KEY]["doc_ids"] == ["libros_yes_4_1"] and not docs[1]._.negations


def test_conll_parse_keeps_cueless_triples(tmp_path):
    sents = parse_neges_conll(write(tmp_path, CONLL, "a.txt"))
    assert [len(s.instances) for s in sents] == [0, 2, 2, 0]
    assert sents[2].instances[0].cue == [] and sents[2].instances[1].cue == [(1, "nunca")]
    assert sents[2].rows[0].form == "JULIA_NAVARRO" and sents[2].rows[0].line == 15


def test_conll_test_input_without_annotation(tmp_path):
    (doc,) = read18(write(tmp_path, TEST_INPUT, "test/test_libros_task2.txt"))
    assert doc.text == "Sin duda" and not doc._.negations
    assert parse_neges_conll(tmp_path / "test/test_libros_task2.txt")[0].annotated is False


def test_conll_folder_and_round_trip(tmp_path):
    write(tmp_path, CONLL, "train/train_hoteles_task2.txt")
    write(tmp_path, TEST_INPUT, "test/test_libros_task2.txt")
    write(tmp_path, "not read", "README.md")
    docs = read18(tmp_path, n_sents=2)
    assert [d.user_data[META_KEY]["doc_ids"][0] for d in docs] == ["libros_yes_4_1", D, D, "libros_yes_4_1"]
    out = tmp_path / "out.txt"
    write_starsem_docs(docs, out)
    assert f"{D}\t2\t0\tNo\tno\trn\t_\tNo\t_\t_\t_\t_\t_" in out.read_text(encoding="utf-8").splitlines()
    back = read_starsem_docs(out, spacy.blank("es").vocab, n_sents=2)
    assert [negation_keys(d) for d in back] == [negation_keys(d) for d in docs]


def test_spanish_spaces():
    assert guess_spaces(["¿", "Qué", "?", "¡", "Ya", "!", "(", "sí", ")", "y", "«", "no", "»"], SPANISH) == [
        False, False, True, False, False, True, False, False, True, True, False, False, True]


def _replace_line(text: str, n: int, new: str) -> str:
    lines = text.split("\n")
    lines[n - 1] = new
    return "\n".join(lines)


@pytest.mark.parametrize("edit,code,line", [
    (lambda t: _replace_line(t, 2, row(D, 1, 2, "Qué", "qué", "pt000000", "interrogative", "***", "x")),
     "E411", 2),
    (lambda t: _replace_line(t, 3, "\t".join([D, "1", "3", "tal", "tal", "rg"])), "E411", 3),
    (lambda t: _replace_line(t, 7, row(D, 2, 2, "me", "me", "pp1cs000", "personal", "-", "-", "-")), "E102", 7),
    (lambda t: _replace_line(t, 3, row(D, 1, "x", "tal", "tal", "rg", "-", "***")), "E413", 3),
    (lambda t: _replace_line(t, 3, row(D, 9, 3, "tal", "tal", "rg", "-", "***")), "E109", 3),
    (lambda t: _replace_line(t, 7, row(D, 2, 2, "me", "me", "pp1cs000", "personal", "***", "-", "-",
                                       "-", "-", "-")), "E104", 7),
    (lambda t: _replace_line(t, 4, row(D, 1, 4, "?", "?", "fit", "-", "no")), "E411", 4),
    (lambda t: _replace_line(t, 8, row(D, 2, 3, "gusta", "gustar", "vmip3s0", "main", "no", "-", "-",
                                       "-", "-", "-")), "E107", 8),
    (lambda t: _replace_line(t, 2, row(D, 1, 2, "Qu é", "qué", "pt000000", "interrogative", "***")),
     "E405", 2),
    (lambda t: "\n\n", "E108", None),
])
def test_conll_bad_input(tmp_path, edit, code, line):
    path = write(tmp_path, edit(CONLL), "bad.txt")
    assert_coded_error(read18, path, code, line)


def test_conll_not_utf8(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(CONLL.encode("utf-8").replace("gusta".encode(), b"gust\xe1"))
    with pytest.raises(NegationFormatError, match=r"\[NEG-E111\].*bad.txt:8:"):
        read18(path)


# --- NEGES 2019 XML --------------------------------------------------------------------------
def tok(tag: str, wd: str, lem: str, pos: str) -> str:
    return f'<{tag} lem="{lem}" pos="{pos}" wd="{wd}"/>'


XML = "\n".join([
    '<?xml version="1.0" encoding="UTF-8"?><review polarity="negative">',
    "  <sentence>",
    "    " + tok("p", "Yo", "yo", "pp1cs000"),
    '    <neg_structure polarity="negative" value="neg">',
    "      <scope>",
    '        <negexp discid="1n">' + tok("r", "no", "no", "rn") + "</negexp>",
    "        <event>" + tok("v", "freno", "frenar", "vmip1s0") + "</event>",
    '        <negexp discid="1c">' + tok("r", "nunca", "nunca", "rg") + "</negexp>",
    "      </scope>",
    "    </neg_structure>",
    "    " + tok("f", ".", ".", "fp"),
    "  </sentence>",
    '  <sentence complex="yes">',
    '    <neg_structure value="neg">',
    "      <negexp>" + tok("r", "No", "no", "rn") + "</negexp>",
    "      <scope>",
    "        <event>" + tok("v", "quiero", "querer", "vmip1s0") + "</event>",
    "        " + tok("v", "ir", "ir", "vmn0000"),
    '        <neg_structure value="neg"><scope>',
    "          <negexp>" + tok("s", "sin", "sin", "sps00") + "</negexp>",
    "          <event>" + tok("v", "descansar", "descansar", "vmn0000") + "</event>",
    "        </scope></neg_structure>",
    "      </scope>",
    "    </neg_structure>",
    "    " + tok("f", ".", ".", "fp"),
    "  </sentence>",
    "  <sentence>",
    '    <neg_structure value="noneg"><scope><negexp>' + tok("r", "no", "no", "rn")
    + "</negexp></scope></neg_structure>",
    "    " + tok("f", "?", "?", "fit"),
    '    <neg_structure value="neg"><scope><negexp>' + tok("p", "Nada", "nada", "pi0cs000")
    + '</negexp><event><word elliptic="yes"/></event></scope></neg_structure>',
    '    <neg_structure value="neg"><scope>' + tok("p", "algo", "algo", "pi0cs000") + "</scope></neg_structure>",
    '    <s lem="en" pos="sps00" wd="en">' + tok("n", "concreto", "concreto", "ncms000") + "</s>",
    "  </sentence>",
    "</review>",
    "",
])


def test_xml_reader(tmp_path):
    path = write(tmp_path, XML, "train/libros/no_2_6.xml")
    with pytest.warns(UserWarning, match=r"\[NEG-W401\].*no_2_6.xml:31:"):
        (doc,) = list(read_neges2019(path, spacy.blank("es").vocab, 10))
    assert doc.text == "Yo no freno nunca. No quiero ir sin descansar. no? Nada algo en concreto"
    assert doc[1].lemma_ == "no" and doc[2].tag_ == "vmip1s0"
    got = [(n.cue_text, n.scope_text, n.event_text, n.is_discontinuous) for n in doc._.negations]
    assert got == [
        ("no nunca", "freno", "freno", True),            # cue excluded from the scope
        ("No", "quiero ir sin descansar", "quiero", False),  # nested structure inside the scope
        ("sin", "descansar", "descansar", False),
        ("Nada", "", "", False),                          # elliptic event: no token
    ]
    meta = doc.user_data[META_KEY]
    assert meta["doc_ids"] == ["libros_no_2_6"] * 3 and meta["sent_nos"] == ["1", "2", "3"]


def test_xml_values_and_parse(tmp_path):
    path = write(tmp_path, XML, "train/libros/no_2_6.xml")
    (doc,) = read19(path, values=("neg", "noneg"))
    assert [n.cue_text for n in doc._.negations] == ["no nunca", "No", "sin", "no", "Nada"]
    sents = parse_neges_xml(path)
    assert [[(s.value, s.n_negexp, len(s.cue), len(s.scope)) for s in sent.structures] for sent in sents] == [
        [("neg", 2, 2, 3)], [("neg", 1, 1, 4), ("neg", 1, 1, 2)], [("noneg", 1, 1, 1), ("neg", 1, 1, 1),
                                                                 ("neg", 0, 0, 1)]]
    assert [t.form for t in sents[2].tokens] == ["no", "?", "Nada", "algo", "en", "concreto"]


def test_xml_test_file_ids_from_map(tmp_path):
    write(tmp_path, XML, "test/coches/1.xml")
    write(tmp_path, XML, "test/coches/2.xml")
    write(tmp_path, XML, "test/coches/10.xml")
    write(tmp_path, "test/coches/1.xml\tcoches_yes_4_20\ntest/coches/10.xml\tcoches_no_2_14\n",
          "DERIVED_test_filename_map.tsv")
    docs = read19(tmp_path / "test", n_sents=0)
    assert [d.user_data[META_KEY]["doc_ids"][0] for d in docs] == ["coches_yes_4_20", "coches_2", "coches_no_2_14"]


def test_xml_round_trip(tmp_path):
    docs = read19(write(tmp_path, XML, "dev/libros/no_2_6.xml"), n_sents=2)
    out = tmp_path / "out.txt"
    write_starsem_docs(docs, out)
    assert "libros_no_2_6\t2\t0\tNo\tno\trn\t_\tNo\t_\t_\t_\t_\t_" in out.read_text(encoding="utf-8")
    back = read_starsem_docs(out, spacy.blank("es").vocab, n_sents=2)
    assert [negation_keys(d) for d in back] == [negation_keys(d) for d in docs]


@pytest.mark.parametrize("edit,code,line", [
    (lambda t: t.replace("</scope>\n    </neg_structure>", "</scop>\n    </neg_structure>", 1), "E400", 9),
    (lambda t: t.replace("<review ", "<document ").replace("</review>", "</document>"), "E404", 1),
    (lambda t: t.replace("    " + tok("f", "?", "?", "fit"), "    <negexp>" + tok("f", "?", "?", "fit") + "</negexp>"),
     "E417", 29),
    (lambda t: t.replace("  <sentence>\n", "  " + tok("f", "x", "x", "fp") + "\n  <sentence>\n", 1), "E417", 2),
    (lambda t: t.replace('wd="freno"', 'wd="fre no"'), "E405", 7),
    (lambda t: '<?xml version="1.0"?><review></review>', "E108", None),
])
def test_xml_bad_input(tmp_path, edit, code, line):
    path = write(tmp_path, edit(XML), "libros/bad.xml")
    assert_coded_error(read19, path, code, line)


def test_cli_convert_both_formats(tmp_path, capsys):
    conll = write(tmp_path, CONLL, "c/train_hoteles_task2.txt")
    xml = write(tmp_path, XML, "x/libros/no_2_6.xml")
    for fmt, path, reader in (("neges2018", conll, read18), ("neges2019", xml, read19)):
        out = tmp_path / f"{fmt}.spacy"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert cli_main(["convert", "--format", fmt, "--lang", "es", "--quiet", str(path), str(out)]) == 0
        assert [negation_keys(d) for d in read_docbin(out, lang="es")] == [negation_keys(d) for d in reader(path)]
    bad = write(tmp_path, XML.replace("<review ", "<document ").replace("</review>", "</document>"), "bad.xml")
    assert cli_main(["convert", "--format", "neges2019", "--quiet", str(bad), str(tmp_path / "b.spacy")]) == 1
    assert "[NEG-E404]" in capsys.readouterr().err and not (tmp_path / "b.spacy").exists()
