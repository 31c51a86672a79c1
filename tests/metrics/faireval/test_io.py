"""FairEval's file readers: span files and CoNLL files (stacked BIO tags, punctuation
removal as the reference does it or fixed), with coded errors."""
from typing import Any, List

import pytest

from spacy_negation.cli import main
from spacy_negation.metrics.faireval import FSpan
from spacy_negation.metrics.faireval.io import parse_faireval_lines, read_faireval_file

from util import assert_coded_error, cli_error, fspan


def _parse(text: str, **kw: Any) -> List[List[FSpan]]:
    return [s.spans for s in parse_faireval_lines(text.split("\n"), path="x.txt", **kw)]


def test_span_file_reader():
    text = ("A\t1\t3\t1, 3\nB\t5\t4\t\nC\t2\t2\t2,\n\n"
            "EMPTY\t999\t999\t999\n\n\n"
            "NONE\t1\t1\t1\nA\t2\t3\t2\n")
    assert _parse(text) == [[fspan("A", 1, 3, 1, 3), fspan("B", 4, 5), fspan("C", 2, 2)], [], [fspan("A", 2, 3, 2)]]
    assert _parse(text, exclude=[])[1] == [fspan("EMPTY", 999, 999)]
    assert _parse(text, labels=["A"]) == [[fspan("A", 1, 3, 1, 3)], [], [fspan("A", 2, 3, 2)]]


@pytest.mark.parametrize("text,code,line", [
    ("A\t1\t2\t1, 2\nfoo\n", "E257", 2),
    ("A 1 2 3\n", "E257", 1),
    ("A\t1\t2\t1\nIt PRP B-X\n", "E258", 2),
    ("\n\n\t1\t2\t1\n", "E259", 3),
    ("A\t0\t2\t1\n", "E260", 1),
    ("A\t1\tx\t1\n", "E260", 1),
    ("A\t1\t2\t1, b\n", "E261", 1),
    ("A\t1\t2\t1, 3\n", "E262", 1),
    ("It PRP B-X\nrained VBD X\n", "E263", 2),
    ("It PRP B-\n", "E263", 1),
    ("It PRP B-X|O\n", "E263", 1),
])
def test_reader_errors(tmp_path, text, code, line):
    path = tmp_path / "bad.txt"
    path.write_text(text, encoding="utf-8")
    assert_coded_error(read_faireval_file, path, code, line)


def test_reader_rejects_bad_utf8(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"A\t1\t1\t1\n\nA\t1\t1\t\xff\n")
    assert_coded_error(read_faireval_file, path, "E111", 3)


def test_conll_reader():
    conll = ("The DT B-NEG-SCOPE\nman NN I-NEG-SCOPE\nsaw VBD O\nit PRP I-X\n"
             "all DT I-Y\n. . O\n")
    # labels keep their '-'; I- after O starts a span; I-Y after X starts a new one
    assert _parse(conll) == [[fspan("NEG-SCOPE", 1, 2), fspan("X", 4, 4), fspan("Y", 5, 5)]]
    stacked = ("a x B-S|B-NP\nb x I-S|I-NP\nc x I-S|B-VP\nd x I-S\ne x O\n"
               "f x _\ng x B-S|I-NP\nh x I-S|I-NP\n")
    assert _parse(stacked) == [[fspan("NP", 1, 2), fspan("VP", 3, 3), fspan("S", 1, 4),
                                fspan("S", 7, 8), fspan("NP", 7, 8)]]
    assert parse_faireval_lines(["a\tx\tB-X"]).__next__().spans == [fspan("X", 1, 1)]
    assert next(parse_faireval_lines(["a x "])).spans == []


def test_conll_punctuation_removal():
    conll = ("`` `` B-Q\nHe PRP I-Q\nsaid VBD I-Q\n( -LRB- I-Q\n, , I-Q\n. . I-Q\n"
             "'' '' B-Z\n")
    assert _parse(conll) == [[fspan("Q", 1, 6), fspan("Z", 7, 7)]]
    assert _parse(conll, ignore_punct=True) == [[fspan("Q", 2, 3)]]
    # the reference: no PTB quotes/brackets, the end stays on the first trailing ','
    assert _parse(conll, ignore_punct=True, punct_compat=True) == [
        [fspan("Q", 1, 5, 1, 2, 3, 4), fspan("Z", 7, 7)]]
    only_punct = ". . B-P\n, , I-P\nx NN B-R\n"
    assert _parse(only_punct, ignore_punct=True) == [[fspan("R", 3, 3)]]
    assert _parse(only_punct, ignore_punct=True, punct_compat=True) == [[fspan("R", 3, 3)]]
    # span files are never changed by ignore_punct
    assert _parse("A\t1\t2\t1, 2\n", ignore_punct=True) == [[fspan("A", 1, 2)]]


def test_faireval_span_range_is_bounded(tmp_path, capsys):
    from spacy_negation.metrics.faireval.io import MAX_RANGE_TOKENS

    target = tmp_path / "gold.tsv"
    target.write_text("A\t1\t300000000\t\n", encoding="utf-8")
    err = cli_error(capsys, "faireval", target, target)
    assert "[NEG-E956]" in err and f"{target}:1" in err
    # a range at the limit is read; listed tokens are not limited by the range
    target.write_text(f"A\t1\t{MAX_RANGE_TOKENS}\t\nB\t1\t300000000\t1, 300000000\n", encoding="utf-8")
    assert main(["faireval", str(target), str(target), "--json"]) == 0
    assert '"f": 1.0' in capsys.readouterr().out
