"""The NoReC_neg reader (format ``norec_neg``) on tiny files written here: affixal cues and the
rest of their token, discontinuous cues and scopes, negations without scope, a cue inside its
own scope (W410), the convention mark and ids; bad input with file and line (E460-E467) and
lenient reading (W402)."""
import json
import re
import warnings
from pathlib import Path
from typing import Any, Dict, List

import pytest
import spacy

from spacy_negation.cli import main as cli_main
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.docs import META_KEY
from spacy_negation.corpora.norec import parse_norec, read_norec
from spacy_negation.corpora.registry import get_reader
from spacy_negation.errors import NegationFormatError
from spacy_negation.negation import get_convention

from util import negation_keys

#: Three sentences of two reviews: an affixal cue (u-) with its token's rest in the scope, a
#: discontinuous cue (verken ... eller) with a discontinuous scope, and a cue without scope.
RECORDS: List[Dict[str, Any]] = [
    {"sent_id": "100-01-01", "text": "Filmen er ulik alt annet .",
     "negations": [{"Cue": [["u"], ["10:11"]], "Scope": [["Filmen er", "lik alt annet"], ["0:9", "11:24"]],
                    "Affixal": True}]},
    {"sent_id": "100-01-02", "text": "Den er verken god eller dårlig .",
     "negations": [{"Cue": [["verken", "eller"], ["7:13", "18:23"]],
                    "Scope": [["Den er", "god", "dårlig"], ["0:6", "14:17", "24:30"]], "Affixal": False}]},
    {"sent_id": "200-01-01", "text": "Nei .",
     "negations": [{"Cue": [["Nei"], ["0:3"]], "Scope": [[], []], "Affixal": False}]},
]


def write(folder: Path, records: Any, name: str = "negation_dev.json", indent: int = 4) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records, indent=indent, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def read(path: Path, **kwargs: Any) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(read_norec(path, spacy.blank("nb").vocab, 10, **kwargs))


def caught(path: Path, **kwargs: Any) -> List[str]:
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        list(read_norec(path, spacy.blank("nb").vocab, 10, **kwargs))
    return [str(w.message) for w in record]


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def test_negations_parts_and_ids(tmp_path):
    docs = read(write(tmp_path, RECORDS))
    assert len(docs) == 2  # docs never cross reviews
    first, second = docs
    assert first.user_data[META_KEY]["doc_ids"] == ["100", "100"]
    assert first.user_data[META_KEY]["sent_nos"] == ["100-01-01", "100-01-02"]
    assert get_convention(first) == "cdsco"
    affixal, either = first._.negations
    assert affixal.is_affixal and affixal.cue_text == "u"
    assert [(first[p.i].text, p.start, p.end) for p in affixal.scope] == [
        ("Filmen", 0, 6), ("er", 0, 2), ("ulik", 1, 4), ("alt", 0, 3), ("annet", 0, 5)]
    assert either.is_discontinuous and either.cue_text == "verken eller"
    assert [first[p.i].text for p in either.scope] == ["Den", "er", "god", "dårlig"]
    assert not either.event
    (bare,) = second._.negations
    assert bare.cue_text == "Nei" and not bare.scope
    assert second.text == "Nei ." and second._.speculations == []


def test_registered_and_unmarked(tmp_path):
    path = write(tmp_path, RECORDS)
    assert get_reader("norec_neg") is read_norec
    assert get_convention(read(path, convention=None)[0]) is None


def test_cue_inside_its_scope_is_left_out_with_w410(tmp_path):
    records = [{"sent_id": "300-01-01", "text": "Ingen kom .",
                "negations": [{"Cue": [["Ingen"], ["0:5"]], "Scope": [["Ingen kom"], ["0:9"]], "Affixal": False}]}]
    path = write(tmp_path, records)
    messages = caught(path)
    line = line_of(path, '"Cue"') - 1
    assert messages == [f"[NEG-W410] {path}:{line}: sentence '300-01-01', negation 0: the "
                        "scope holds characters of its own cue ('Ingen'); they are left out of the scope (a cue is "
                        "never part of its scope)."]
    (neg,) = read(path)[0]._.negations
    assert (neg.cue_text, neg.scope_text) == ("Ingen", "kom")


def test_scope_ending_inside_a_token_is_a_partial_part(tmp_path):
    """A range that ends inside a token that holds no cue (a missing space in the text) is kept
    as annotated, as a partial part (3 such scope ranges in the release)."""
    records = [{"sent_id": "400-01-01", "text": "Ikke veldig elegantKresent",
                "negations": [{"Cue": [["Ikke"], ["0:4"]], "Scope": [["veldig elegant"], ["5:19"]],
                               "Affixal": False}]}]
    (neg,) = read(write(tmp_path, records))[0]._.negations
    assert neg.scope_text == "veldig elegant" and not neg.is_affixal


def bad(path: Path, code: str, line: int) -> None:
    with pytest.raises(NegationFormatError, match=rf"\[NEG-{code}\]") as err:
        read(path)
    assert err.value.line == line and f"{path}:{line}:" in str(err.value)


def test_malformed_json_is_e460_with_its_line(tmp_path):
    text = json.dumps(RECORDS, indent=4, ensure_ascii=False)
    path = tmp_path / "negation_dev.json"
    path.write_text(text.replace('"text": "Nei ."', '"text": "Nei ." oops'), encoding="utf-8")
    bad(path, "E460", line_of(path, "oops"))
    path.write_text(text + "\n[]\n", encoding="utf-8")
    bad(path, "E460", text.count("\n") + 2)
    with pytest.raises(NegationFormatError, match=r"\[NEG-E460\]"):  # not skipped: the list cannot be read on
        list(read_norec(path, on_error="skip"))


def test_a_file_that_is_no_list_is_e461(tmp_path):
    bad(write(tmp_path, RECORDS[0]), "E461", 1)


def nth_line(path: Path, needle: str, n: int) -> int:
    """The line of the n-th (from 1) line holding ``needle``."""
    lines = [k for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line]
    return lines[n - 1]


@pytest.mark.parametrize("edit,code,needle", [
    # the second record, or its negation: the line of its opening bracket (before its first key)
    (lambda r: r.__setitem__(1, ["not", "an", "object"]), "E462", ('"not"', 1)),
    (lambda r: r[1].__setitem__("sent_id", "100 01"), "E462", ('"sent_id"', 2)),
    (lambda r: r[1].__setitem__("language", "nb"), "E462", ('"sent_id"', 2)),
    (lambda r: r[1]["negations"][0].__setitem__("Scope", [["Den er"], ["0:6", "14:17"]]), "E462", ('"Cue"', 2)),
    (lambda r: r[1]["negations"][0]["Cue"].__setitem__(1, ["7-13", "18:23"]), "E462", ('"Cue"', 2)),
    (lambda r: r[1]["negations"][0]["Cue"].__setitem__(1, ["7:13", "18:99"]), "E463", ('"Cue"', 2)),
    (lambda r: r[1]["negations"][0]["Cue"].__setitem__(1, ["7:13", "19:24"]), "E464", ('"Cue"', 2)),
    (lambda r: r[1]["negations"][0].__setitem__("Cue", [[], []]), "E465", ('"Cue"', 2)),
    (lambda r: r[1].__setitem__("sent_id", "100-01-01"), "E466", ('"sent_id"', 2)),
])
def test_bad_records_are_coded_errors_and_skipped(tmp_path, edit, code, needle):
    records = json.loads(json.dumps(RECORDS))
    edit(records)
    path = write(tmp_path, records)
    bad(path, code, nth_line(path, *needle) - 1)
    messages = caught(path, on_error="skip")
    skipped = [m for m in messages if m.startswith("[NEG-W402]")]
    assert len(skipped) == 1 and f"[NEG-{code}]" in skipped[0]
    record_line = nth_line(path, '"not"', 1) - 1 if needle[0] == '"not"' else nth_line(path, '"sent_id"', 2) - 1
    assert skipped[0].startswith(f"[NEG-W402] {path}:{record_line}:")
    docs = read(path, on_error="skip")
    assert [d.user_data[META_KEY]["sent_nos"] for d in docs] == [["100-01-01"], ["200-01-01"]]


def test_two_ranges_of_one_token_are_e467(tmp_path):
    records = [{"sent_id": "500-01-01", "text": "uforståelig .",
                "negations": [{"Cue": [["u"], ["0:1"]], "Scope": [["for", "lig"], ["1:4", "8:11"]],
                               "Affixal": True}]}]
    path = write(tmp_path, records)
    with pytest.raises(NegationFormatError, match=r"\[NEG-E467\].*scope covers two separate character ranges "
                                                  r"of the token 'uforståelig'"):
        read(path)


def test_convert_strict_and_lenient(tmp_path, capsys):
    records = json.loads(json.dumps(RECORDS))
    records[1]["negations"][0]["Cue"][1] = ["7:13", "19:24"]
    src, out = write(tmp_path, records), tmp_path / "out.spacy"
    assert cli_main(["convert", "--quiet", "--format", "norec_neg", "--lang", "nb", str(src), str(out)]) == 1
    assert "[NEG-E464]" in capsys.readouterr().err and not out.exists()
    assert cli_main(["convert", "--quiet", "--format", "norec_neg", "--lang", "nb", "--on-error", "skip", str(src),
                     str(out)]) == 0
    err = capsys.readouterr().err
    assert re.search(rf"warning: \[NEG-W402\] {re.escape(str(src))}:\d+: skipped .*\[NEG-E464\]", err)
    assert err.strip().endswith("1 sentence(s) skipped, 0 cell(s) repaired")
    docs = read_docbin(out, "nb")
    assert [len(list(d.sents)) for d in docs] == [1, 1] and get_convention(docs[0]) == "cdsco"
    good = write(tmp_path, RECORDS, "good.json")
    assert [negation_keys(d) for d in read(good)] == [negation_keys(d) for d in read(good, on_error="skip")]


def test_parse_norec_lines_follow_the_layout(tmp_path):
    """One record per line (JSON Lines inside a list) gives each record its own line."""
    path = tmp_path / "one_per_line.json"
    path.write_text("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in RECORDS) + "\n]\n",
                    encoding="utf-8")
    assert [r.line for r in parse_norec(path)] == [2, 3, 4]
