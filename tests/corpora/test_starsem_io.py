"""*SEM 2012 CoNLL reader and writer: docs, round trips, bad input (sentences refused or
repaired, docs the writer refuses), corpus statistics."""
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Tuple

import pytest
import spacy
from spacy.tokens import Doc, DocBin

from spacy_negation import register_extensions
from spacy_negation.cli import main as cli_main
from spacy_negation.corpora.docs import META_KEY
from spacy_negation.corpora.spaces import guess_spaces
from spacy_negation.corpora.starsem import parse_starsem, read_starsem, write_starsem
from spacy_negation.corpora.starsem_docs import CDSCO_FILES, doc_to_sentences, read_starsem_docs, sentences_to_doc, write_starsem_docs
from spacy_negation.errors import NegationFormatError

from util import assert_coded_error

SAMPLE = """\
ch1\t0\t0\tHe\the\tPRP\t(S(NP*)\t_\tHe\t_\t_\t_\t_
ch1\t0\t1\tis\tbe\tVBZ\t(VP*\t_\tis\t_\t_\t_\t_
ch1\t0\t2\tneither\tneither\tCC\t(ADJP*\tneither\t_\t_\t_\t_\t_
ch1\t0\t3\tunhappy\tunhappy\tJJ\t*\t_\t_\t_\tun\thappy\thappy
ch1\t0\t4\tnor\tnor\tCC\t*\tnor\t_\t_\t_\t_\t_
ch1\t0\t5\trestless\trestless\tJJ\t*)\t_\trestless\trestless\t_\t_\t_
ch1\t0\t6\t.\t.\t.\t*)\t_\t_\t_\t_\t_\t_

ch1\t1\t0\tFine\tfine\tJJ\t(S*\t***
ch1\t1\t1\t.\t.\t.\t*)\t***
"""


def write(tmp_path: Path, text: str, name: str = "in.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_reader_builds_docs(tmp_path):
    docs = read_starsem_docs(write(tmp_path, SAMPLE))
    assert len(docs) == 1
    doc = docs[0]
    assert doc.text == "He is neither unhappy nor restless. Fine."
    assert [s.text for s in doc.sents] == ["He is neither unhappy nor restless.", "Fine."]
    assert doc[1].lemma_ == "be" and doc[1].tag_ == "VBZ"
    assert doc.user_data[META_KEY]["doc_ids"] == ["ch1", "ch1"]
    assert doc.user_data[META_KEY]["sent_nos"] == ["0", "1"]
    neither, un = doc._.negations
    assert neither.cue_text == "neither nor" and neither.is_discontinuous
    assert neither.scope_text == "He is restless" and neither.event_text == "restless"
    assert un.cue_text == "un" and un.scope_text == "happy" and un.event_text == "happy"
    assert un.scope[0].start == 2 and un.cue_offsets == [(14, 16)]


def test_writer_round_trip_in_memory(tmp_path):
    docs = read_starsem_docs(write(tmp_path, SAMPLE))
    out = io.StringIO()
    write_starsem_docs(docs, out)
    assert out.getvalue() == SAMPLE


def test_n_sents_and_document_boundaries(tmp_path):
    text = SAMPLE + "\n" + SAMPLE.replace("ch1", "ch2")
    assert [len(list(d.sents)) for d in read_starsem_docs(write(tmp_path, text), n_sents=1)] == [1, 1, 1, 1]
    assert [len(list(d.sents)) for d in read_starsem_docs(write(tmp_path, text), n_sents=10)] == [2, 2]
    assert [len(list(d.sents)) for d in read_starsem_docs(write(tmp_path, text), n_sents=0)] == [2, 2]


def test_writer_without_metadata_and_with_spacy_tokens():
    nlp = spacy.blank("en")
    doc = nlp("I  do not like it.")
    doc._.negations = [{"cue": [doc[3]], "scope": [doc[0], doc[2], doc[4], doc[5]]}]
    (sent,) = doc_to_sentences(doc, 3)
    assert [r.form for r in sent.rows] == ["I", "do", "not", "like", "it", "."]  # space token skipped
    assert sent.doc_id == "doc3" and sent.instances[0].cue == [(2, "not")]
    assert sent.instances[0].scope == [(0, "I"), (1, "do"), (3, "like"), (4, "it")]


def test_spaces_heuristics():
    assert guess_spaces(["“", "I", "do", "n’t", "know", ",", "”", "he", "said", "."]) == [
        False, True, False, True, False, False, True, True, False, True]


BAD_CASES = {
    "wrong_column_count": ("a\t0\t0\tHe\the\tPRP\t*\t_\t_\n", "E101", 1),
    "too_few_columns": ("a\t0\t0\tHe\the\tPRP\t*\n", "E101", 1),
    "disagreeing_columns": ("a\t0\t0\tHe\the\tPRP\t*\t_\t_\t_\na\t0\t1\tnot\tnot\tRB\t*\tnot\t_\t_\t_\t_\t_\n", "E102", 2),
    "instance_without_cue": ("a\t0\t0\tHe\the\tPRP\t*\t_\tHe\t_\na\t0\t1\tgoes\tgo\tVBZ\t*\t_\tgoes\t_\n", "E103", 2),
    "stars_mixed": ("a\t0\t0\tHe\the\tPRP\t*\t***\na\t0\t1\tnot\tnot\tRB\t*\tnot\n", "E104", 2),
    "stars_in_instance": ("a\t0\t0\tnot\tnot\tRB\t*\tnot\t_\t_\na\t0\t1\tHe\the\tPRP\t*\t***\t_\t_\n", "E104", 2),
    "non_integer_token_number": ("a\t0\tx\tHe\the\tPRP\t*\t***\n", "E105", 1),
    "negative_token_number": ("a\t0\t-1\tHe\the\tPRP\t*\t***\n", "E105", 1),
    "token_number_gap": ("a\t0\t0\tHe\the\tPRP\t*\t***\na\t0\t2\tis\tbe\tVBZ\t*\t***\n", "E106", 2),
    "affix_not_substring": ("a\t0\t0\tunhappy\tunhappy\tJJ\t*\tim\thappy\t_\n", "E107", 1),
    "scope_not_substring": ("a\t0\t0\tunhappy\tunhappy\tJJ\t*\tun\tjoy\t_\n", "E107", 1),
    "empty_file": ("", "E108", None),
    "blank_lines_only": ("\n\n\n", "E108", None),
    "truncated_line": ("a\t0\t0\tHe\the\tPRP\t*\t_\tHe\t_\na\t0\t1\tnot\tnot\tRB\t*\tnot\t_\n", "E101", 2),
    "mixed_sentence_ids": ("a\t0\t0\tHe\the\tPRP\t*\t***\nb\t0\t1\tis\tbe\tVBZ\t*\t***\n", "E109", 2),
    "empty_form": ("a\t0\t0\t\the\tPRP\t*\t***\n", "E110", 1),
}


@pytest.mark.parametrize("name", sorted(BAD_CASES))
def test_bad_input(tmp_path, name):
    text, code, line = BAD_CASES[name]
    assert_coded_error(read_starsem, write(tmp_path, text), code, line)


def test_invalid_utf8(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"a\t0\t0\tHe\the\tPRP\t*\t***\na\t0\t1\t\xff\tx\tNN\t*\t***\n")
    assert_coded_error(read_starsem, path, "E111", 2)


@pytest.mark.parametrize("name", ["wrong_column_count", "affix_not_substring", "empty_file"])
def test_cli_bad_input_leaves_no_output(tmp_path, capsys, name):
    text, code, line = BAD_CASES[name]
    src = write(tmp_path, text)
    out = tmp_path / "out.spacy"
    assert cli_main(["convert", str(src), str(out)]) == 1
    err = capsys.readouterr().err
    assert f"[NEG-{code}]" in err and str(src) in err
    assert not out.exists() and list(tmp_path.iterdir()) == [src]


def test_cli_help_lists_commands():
    r = subprocess.run([sys.executable, "-m", "spacy_negation", "--help"], capture_output=True, text=True)
    assert r.returncode == 0
    from spacy_negation.cli import COMMANDS
    for name in COMMANDS:
        assert re.search(rf"^\s+{name}\s", r.stdout, re.M), name


def test_cli_round_trip_sample(tmp_path):
    src = write(tmp_path, SAMPLE)
    assert cli_main(["convert", "--format", "starsem", str(src), str(tmp_path / "x.spacy")]) == 0
    assert cli_main(["export", str(tmp_path / "x.spacy"), str(tmp_path / "x.txt")]) == 0
    assert (tmp_path / "x.txt").read_bytes() == src.read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize("split", sorted(CDSCO_FILES))
def test_cdsco_byte_round_trip_through_cli(cdsco_dir, tmp_path, split):
    src = cdsco_dir / CDSCO_FILES[split]
    for args in (("convert", "--format", "starsem", "--quiet", src, tmp_path / "c.spacy"),
                 ("export", tmp_path / "c.spacy", tmp_path / "c.txt")):
        assert cli_main([str(a) for a in args]) == 0
    original, written = src.read_bytes(), (tmp_path / "c.txt").read_bytes()
    # the one allowed difference: a missing or extra empty line at the very end
    assert written.rstrip(b"\n") == original.rstrip(b"\n")
    assert written.endswith(b"\n") and not written.endswith(b"\n\n")


def _provenance_stats(cdsco_dir: Path):
    text = (cdsco_dir / "PROVENANCE.md").read_text(encoding="utf-8")
    table = text[text.index("| split | sentences |"):].split("\n\n")[0].strip().splitlines()
    header = [c.strip() for c in table[0].strip("|").split("|")]
    rows = {}
    for line in table[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = {h: int(c.replace(",", "")) for h, c in zip(header[1:], cells[1:])}
    return rows


def _stats(docs):
    negs = [n for d in docs for n in d._.negations]
    return {
        "sentences": sum(len(list(d.sents)) for d in docs),
        "tokens": sum(len(d) for d in docs),
        "sentences w/ negation": len({(d_i, n.sent.start) for d_i, d in enumerate(docs) for n in d._.negations}),
        "negation instances": len(negs),
        "affixal cues": sum(n.is_affixal for n in negs),
        "multiword cues": sum(n.is_multiword for n in negs),
        "discontinuous cues": sum(n.is_discontinuous for n in negs),
        "instances w/o scope": sum(not n.scope for n in negs),
        "instances w/ event": sum(bool(n.event) for n in negs),
    }


@pytest.mark.slow
def test_cdsco_statistics_match_provenance(cdsco_dir):
    expected = _provenance_stats(cdsco_dir)
    splits = {"training": ["training"], "dev": ["dev"], "test cardboard": ["cardboard"],
              "test circle": ["circle"], "test (both)": ["cardboard", "circle"]}
    assert set(expected) == set(splits)
    for name, files in splits.items():
        docs = [d for f in files for d in read_starsem_docs(cdsco_dir / CDSCO_FILES[f])]
        assert _stats(docs) == expected[name], name


# --- sentences the reader refuses or repairs, docs the writer refuses ---------------------
def _row(doc: str, sent: int, tok: int, form: str, *cells: str) -> str:
    return "\t".join([doc, str(sent), str(tok), form, form.lower(), "NN", "_", *cells])


def _sentence(sent: int, scope_of_not: str = "_", doc: str = "ch1") -> str:
    rows = [_row(doc, sent, 0, "He", "_", "He", "_"), _row(doc, sent, 1, "did", "_", "did", "_"),
            _row(doc, sent, 2, "not", "not", scope_of_not, "_"), _row(doc, sent, 3, "go", "_", "go", "go"),
            _row(doc, sent, 4, ".", "_", "_", "_")]
    return "\n".join(rows)


PLAIN = "\n".join(_row("ch1", 9, k, w, "***") for k, w in enumerate(["It", "rained", "."]))


def _write_blocks(path: Path, *blocks: str, end: str = "\n") -> Path:
    path.write_text("\n\n".join(blocks) + end, encoding="utf-8")
    return path


def _convert(capsys, *args) -> Tuple[int, str]:
    code = cli_main(["convert", "--quiet", *map(str, args)])
    return code, capsys.readouterr().err


def test_scope_holding_its_own_cue_is_refused_with_its_line(tmp_path, capsys):
    path = _write_blocks(tmp_path / "in.txt", _sentence(0), _sentence(1, scope_of_not="not"), PLAIN)
    with pytest.raises(NegationFormatError, match=r"\[NEG-E958\] .*in.txt:9: .*'not'"):
        read_starsem_docs(path)
    code, err = _convert(capsys, path, tmp_path / "out.spacy")
    assert code == 1 and "[NEG-E958]" in err and not (tmp_path / "out.spacy").exists()
    # --on-error skip: skipped, and said so with the line
    with pytest.warns(UserWarning, match=r"\[NEG-W402\] .*in.txt:7: .*\[NEG-E958\]"):
        docs = read_starsem_docs(path, on_error="skip", n_sents=0)
    assert [len(list(d.sents)) for d in docs] == [2]
    for doc in docs:  # what is read passes the data model's own check (E015)
        doc._.negations = doc._.negations


def test_an_affixal_cue_inside_a_whole_token_scope_is_kept_with_a_warning(tmp_path):
    rows = [_row("ch1", 0, 0, "An", "_", "An", "_"), _row("ch1", 0, 1, "infinite", "in", "infinite", "_"),
            _row("ch1", 0, 2, "sea", "_", "sea", "_")]
    path = _write_blocks(tmp_path / "in.txt", "\n".join(rows))
    with pytest.warns(UserWarning, match=r"\[NEG-W951\] .*in.txt:2: .*'infinite'.* kept as annotated.* 'finite'"):
        (doc,) = read_starsem_docs(path)
    (neg,) = doc._.negations
    assert neg.cue_text == "in" and [(p.i, p.start, p.end) for p in neg.scope] == [(0, 0, 2), (1, 0, 8), (2, 0, 3)]


def test_a_repeated_sentence_is_refused(tmp_path, capsys):
    path = _write_blocks(tmp_path / "in.txt", _sentence(0), _sentence(1), _sentence(0))
    with pytest.raises(NegationFormatError, match=r"\[NEG-E959\] .*in.txt:13: .*'ch1' sentence '0'.* line 1"):
        read_starsem_docs(path)
    with pytest.warns(UserWarning, match=r"\[NEG-W402\] .*in.txt:13: .*\[NEG-E959\]"):
        docs = read_starsem_docs(path, on_error="skip", n_sents=0)
    assert sum(len(list(d.sents)) for d in docs) == 2
    # the same sentence numbers in another document, or files joined together, are fine
    ok = _write_blocks(tmp_path / "ok.txt", _sentence(0), _sentence(1), _sentence(0, doc="ch2"),
                _sentence(0, doc="ch1"))
    assert sum(len(list(d.sents)) for d in read_starsem_docs(ok, n_sents=0)) == 4


def test_a_last_line_without_a_line_end_reads_alike_in_convert_and_evaluate(tmp_path, capsys):
    """One rule for both readers: the last line counts whether or not a line end follows."""
    last = "\n".join([_row("ch1", 1, 0, "He", "_", "He", "_"), _row("ch1", 1, 1, "is", "_", "is", "_"),
                      _row("ch1", 1, 2, "not", "not", "_", "_"), _row("ch1", 1, 3, "going", "_", "going", "going")])
    ended = _write_blocks(tmp_path / "ended.txt", _sentence(0), last)
    open_end = _write_blocks(tmp_path / "open.txt", _sentence(0), last, end="")
    assert not open_end.read_text(encoding="utf-8").endswith("\n")
    docs = read_starsem_docs(open_end, n_sents=0)
    assert [[t.text for t in d] for d in docs] == [[t.text for t in d] for d in read_starsem_docs(ended, n_sents=0)]
    assert [n.event_text for n in docs[0]._.negations] == ["go", "going"]
    code, err = _convert(capsys, open_end, tmp_path / "out.spacy")
    assert code == 0 and err == "" and (tmp_path / "out.spacy").exists()
    assert cli_main(["evaluate", str(ended), str(open_end), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["nis"]["nis_tok"]["f"] == 1.0 and scores["starsem"]["cues_b"]["f"] == 1.0


TAB_LINE_CASES = {
    # (the file's lines, 1-based, with the tab-only line at a known place)
    "inside a sentence": ([_sentence(0).split("\n")[k] for k in range(2)] + ["\t"]
                          + _sentence(0).split("\n")[2:], 3),
    "between sentences": (_sentence(0).split("\n") + ["\t"] + _sentence(1).split("\n"), 6),
    "between blank lines": (_sentence(0).split("\n") + ["", "\t\t", ""] + _sentence(1).split("\n"), 7),
    "at the end": (_sentence(0).split("\n") + ["", "\t"], 7),
}


@pytest.mark.parametrize("case", sorted(TAB_LINE_CASES))
def test_a_tab_only_line_is_refused_with_its_own_line_number(tmp_path, capsys, case):
    """A line holding only tabs is a row of empty cells, not a sentence break: convert and
    evaluate refuse it naming that line (not the half sentence before or after it)."""
    lines, line = TAB_LINE_CASES[case]
    path = tmp_path / "tabs.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert lines[line - 1].strip("\t") == ""
    with pytest.raises(NegationFormatError, match=rf"\[NEG-E101\] .*tabs.txt:{line}: .*found \d") as err:
        read_starsem_docs(path)
    assert err.value.line == line
    code, out = _convert(capsys, path, tmp_path / "out.spacy")
    assert code == 1 and f"[NEG-E101] {path}:{line}:" in out and not (tmp_path / "out.spacy").exists()
    assert cli_main(["evaluate", str(path), str(path)]) == 1
    assert f"[NEG-E101] {path}:{line}:" in capsys.readouterr().err
    with pytest.warns(UserWarning, match=rf"\[NEG-W402\] .*\[NEG-E101\] .*tabs.txt:{line}:"):
        read_starsem_docs(path, on_error="skip")


def test_a_line_of_spaces_still_separates_sentences(tmp_path, capsys):
    path = tmp_path / "spaces.txt"
    path.write_text(_sentence(0) + "\n   \n" + _sentence(1) + "\n", encoding="utf-8")
    assert len(read_starsem(path)) == 2
    assert cli_main(["evaluate", str(path), str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nis"]["nis_tok"]["f"] == 1.0


def test_export_of_a_whitespace_cue_is_a_coded_error(tmp_path, capsys):
    register_extensions()
    doc = Doc(spacy.blank("en").vocab, words=["He", "\n", "left", "."], spaces=[False, False, False, False])
    doc._.negations = [{"cue": [doc[1]], "scope": [doc[0], doc[2]]}]
    with pytest.raises(ValueError, match=r"\[NEG-E961\] Doc 0: .*whitespace token 1"):
        write_starsem_docs([doc], tmp_path / "out.txt")
    assert not (tmp_path / "out.txt").exists()
    DocBin(docs=[doc], store_user_data=True).to_disk(tmp_path / "in.spacy")
    assert cli_main(["export", str(tmp_path / "in.spacy"), str(tmp_path / "out.txt")]) == 1
    assert "[NEG-E961]" in capsys.readouterr().err and not (tmp_path / "out.txt").exists()
