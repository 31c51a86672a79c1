"""The NUBes reader (format ``nubes``, brat standoff) on tiny files written here: negation and
uncertainty cues, Scope/DiscScope/DiscMarker relations, events, morphological cues, CRLF and a
byte order mark; bad input with file and line (E467, E470-E480), entities linked to nothing
(W411), lenient reading (W402); the committed split by file."""
import re
import warnings
from pathlib import Path
from typing import Any, List, Optional, Tuple

import pytest
import spacy

from spacy_negation.cli import main as cli_main
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.docs import META_KEY
from spacy_negation.corpora.nubes import make_nubes_split, read_nubes
from spacy_negation.corpora.splits import SPLIT_NAMES, read_split_ids
from spacy_negation.errors import NegationFormatError
from spacy_negation.negation import get_convention

from util import negation_keys

LINES = ["Sin fiebre ni tos .", "Posible neumonía .", "Dolor no muy claro , afebril .", "Fiebre no presenta ."]
#: (id, type, line, text): entities located by their text in a line of LINES.
ENTITIES = [
    ("T1", "NegSynMarker", 1, "Sin"), ("T2", "DISO", 1, "fiebre"), ("T3", "CoordItem", 1, "ni"),
    ("T4", "DISO", 1, "tos"), ("T5", "Phrase", 1, "fiebre ni tos"),
    ("T6", "UncertLexMarker", 2, "Posible"), ("T7", "DISO", 2, "neumonía"),
    ("T8", "UncertLexMarker", 3, "no"), ("T9", "UncertLexMarker", 3, "claro"), ("T10", "DISO", 3, "Dolor"),
    ("T11", "NegMorMarker", 3, "afebril"),
    ("T12", "NegSynMarker", 4, "no"), ("T13", "DISO", 4, "Fiebre"), ("T14", "Phrase", 4, "presenta"),
]
RELATIONS = [("R1", "Scope", "T1", "T5"), ("R2", "Scope", "T6", "T7"), ("R3", "DiscMarker", "T8", "T9"),
             ("R4", "Scope", "T9", "T10"), ("R5", "DiscScope", "T12", "T13"), ("R6", "DiscScope", "T12", "T14")]


def offsets(lines: List[str], line: int, text: str, newline: str = "\n", lead: int = 0) -> Tuple[int, int]:
    start = lead + sum(len(x) + len(newline) for x in lines[: line - 1]) + lines[line - 1].index(text)
    return start, start + len(text)


def ann_text(lines: List[str], newline: str = "\n", lead: int = 0, extra: str = "") -> str:
    rows = []
    for ident, etype, line, text in ENTITIES:
        start, end = offsets(lines, line, text, newline, lead)
        rows.append(f"{ident}\t{etype} {start} {end}\t{text}")
    rows += [f"{ident}\t{rtype} Arg1:{a} Arg2:{b}\t" for ident, rtype, a, b in RELATIONS]
    return "\n".join(rows) + "\n" + extra


def write(folder: Path, ann: Optional[str] = None, name: str = "sample-002.neuro.progr", newline: str = "\n",
          bom: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = ("\ufeff" if bom else "") + newline.join(LINES)
    (folder / f"{name}.txt").write_bytes(text.encode("utf-8"))
    path = folder / f"{name}.ann"
    path.write_text(ann if ann is not None else ann_text(LINES, newline, int(bom)), encoding="utf-8")
    return path


def read(path: Path, n_sents: int = 10, **kwargs: Any) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(read_nubes(path, spacy.blank("es").vocab, n_sents, **kwargs))


def caught(path: Path, **kwargs: Any) -> List[str]:
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        list(read_nubes(path, spacy.blank("es").vocab, 10, **kwargs))
    return [str(w.message) for w in record]


def instances(doc) -> List[Tuple[str, str, str]]:
    return ([("neg", n.cue_text, n.scope_text, n.event_text) for n in doc._.negations]
            + [("spec", s.cue_text, s.scope_text) for s in doc._.speculations])


EXPECTED = [("neg", "Sin", "fiebre ni tos", "fiebre tos"), ("neg", "afebril", "", ""),
            ("neg", "no", "Fiebre presenta", "Fiebre"), ("spec", "Posible", "neumonía"), ("spec", "no claro", "Dolor")]


@pytest.mark.parametrize("newline,bom", [("\n", False), ("\r\n", False), ("\r\n", True)])
def test_cues_scopes_events_and_ids(tmp_path, newline, bom):
    path = write(tmp_path, newline=newline, bom=bom)
    assert caught(path) == []
    (doc,) = read(path)
    assert sorted(instances(doc)) == sorted(EXPECTED)
    assert doc.user_data[META_KEY]["doc_ids"] == ["sample-002.neuro.progr"] * 4
    assert doc.user_data[META_KEY]["sent_nos"] == ["1", "2", "3", "4"]
    assert get_convention(doc) == "nubes" and len(list(doc.sents)) == 4
    (disc,) = [s for s in doc._.speculations if s.cue_text == "no claro"]
    assert disc.is_discontinuous
    assert read(path.with_suffix(".txt"), n_sents=1)[2].text == LINES[2]  # a .txt names its pair too


def test_cue_inside_its_scope_is_left_out_with_w410(tmp_path):
    ann = ann_text(LINES).replace("R2\tScope Arg1:T6 Arg2:T7", "R2\tScope Arg1:T6 Arg2:T15")
    start, end = offsets(LINES, 2, "Posible neumonía")
    path = write(tmp_path, ann + f"T15\tPhrase {start} {end}\tPosible neumonía\n")
    messages = caught(path)
    assert messages == [f"[NEG-W410] {path}:6: sentence 2, speculation 0: the scope holds characters of its own "
                        "cue ('Posible'); they are left out of the scope (a cue is never part of its scope)."]
    assert ("spec", "Posible", "neumonía") in instances(read(path)[0])


def test_entity_linked_to_nothing_warns_w411(tmp_path):
    start, end = offsets(LINES, 3, "muy")
    path = write(tmp_path, ann_text(LINES, extra=f"T15\tOTHER {start} {end}\tmuy\n"))
    assert caught(path) == [f"[NEG-W411] {path}:21: entity T15 (OTHER, 'muy') is linked to no cue and lies in no "
                            "linked scope; it is not read."]


def edited(line: str, old: str = "", new: str = "") -> str:
    """The sample's .ann with a line added (old == "") or one replaced."""
    text = ann_text(LINES)
    return text.replace(old, new, 1) if old else text + line + "\n"


S1 = offsets(LINES, 1, "tos")[0]
S2 = offsets(LINES, 2, "Posible")
#: (the .ann, the code, the .ann line, the sentences skipped with on_error="skip"; None: all)
BAD = [
    (edited("T99 DISO 1 2 x"), "E470", 21, None),
    (edited("A1\tNegated T1"), "E470", 21, None),
    (edited("T99\tDISO 500 510\tx"), "E471", 21, None),
    (edited("", "T2\tDISO 4 10\tfiebre", "T2\tDISO 4 10\tfiebra"), "E472", 2, [1]),
    (edited(f"T99\tPhrase {S1} {S1 + 3};{S2[0]} {S2[1]}\ttos Posible"), "E473", 21, [1, 2]),
    (edited("T99\tNegation 0 3\tSin"), "E474", 21, [1]),
    (edited("R99\tCause Arg1:T1 Arg2:T2"), "E475", 21, [1]),
    (edited("R99\tScope Arg1:T1 Arg2:T77"), "E476", 21, [1]),
    (edited("R99\tScope Arg1:T2 Arg2:T5"), "E477", 21, [1]),
    (edited("R99\tDiscMarker Arg1:T11 Arg2:T8"), "E477", 21, [3]),
    (edited("T2\tDISO 4 10\tfiebre"), "E478", 21, [1]),
    (edited("R99\tScope Arg1:T1 Arg2:T7"), "E480", 21, [1, 2]),
]


@pytest.mark.parametrize("ann,code,line,skipped", BAD)
def test_bad_annotation_is_a_coded_error_and_skipped(tmp_path, ann, code, line, skipped):
    path = write(tmp_path, ann)
    with pytest.raises(NegationFormatError, match=rf"\[NEG-{code}\]") as err:
        read(path)
    assert err.value.line == line and str(err.value).startswith(f"[NEG-{code}] {path}:{line}:")
    messages = [m for m in caught(path, on_error="skip") if m.startswith("[NEG-W402]")]
    skipped = skipped or [1, 2, 3, 4]
    txt = path.with_suffix(".txt")
    assert [m.split(": skipped")[0] for m in messages] == [f"[NEG-W402] {txt}:{n}" for n in skipped]
    assert all(f"[NEG-{code}] {path}:{line}:" in m for m in messages)
    docs = read(path, on_error="skip")
    assert [s for d in docs for s in d.user_data[META_KEY]["sent_nos"]] == [
        str(n) for n in range(1, 5) if n not in skipped]


def test_two_ranges_of_one_token_are_e467(tmp_path):
    folder = tmp_path / "split"
    folder.mkdir()
    (folder / "x.txt").write_text("Sin fiebre", encoding="utf-8")
    ann = folder / "x.ann"
    ann.write_text("T1\tNegSynMarker 0 3\tSin\nT2\tOTHER 4 6\tfi\nT3\tOTHER 7 10\tbre\n"
                   "R1\tDiscScope Arg1:T1 Arg2:T2\nR2\tDiscScope Arg1:T1 Arg2:T3\n", encoding="utf-8")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E467\] .*x.ann:1: sentence 1, negation 0: its scope "
                                                  r"covers two separate character ranges of the token 'fiebre'"):
        read(ann)
    assert read(ann, on_error="skip") == []


def test_a_file_without_its_pair_is_e479(tmp_path):
    path = write(tmp_path / "corpus")
    path.with_suffix(".txt").unlink()
    with pytest.raises(NegationFormatError, match=r"\[NEG-E479\] .*sample-002.neuro.progr.ann: no "
                                                  r"sample-002.neuro.progr.txt beside it"):
        read(tmp_path / "corpus")
    path.unlink()
    (tmp_path / "corpus" / "other.txt").write_text("Sin fiebre", encoding="utf-8")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E479\] .*other.txt: no other.ann beside it"):
        read(tmp_path / "corpus")


def test_convert_strict_and_lenient(tmp_path, capsys):
    src = write(tmp_path / "in", edited("R99\tCause Arg1:T1 Arg2:T2"))
    out = tmp_path / "out.spacy"
    args = ["convert", "--quiet", "--format", "nubes", "--lang", "es", str(src.parent), str(out)]
    assert cli_main(args) == 1
    assert "[NEG-E475]" in capsys.readouterr().err and not out.exists()
    assert cli_main(args[:-2] + ["--on-error", "skip"] + args[-2:]) == 0
    err = capsys.readouterr().err
    assert re.search(rf"warning: \[NEG-W402\] {re.escape(str(src.with_suffix('.txt')))}:1: skipped .*\[NEG-E475\]",
                     err)
    assert err.strip().endswith("1 sentence(s) skipped, 0 cell(s) repaired")
    (doc,) = read_docbin(out, "es")
    assert len(list(doc.sents)) == 3 and len(doc._.speculations) == 2
    good = write(tmp_path / "good")
    assert [negation_keys(d) for d in read(good)] == [negation_keys(d) for d in read(good, on_error="skip")]


def test_nubes_split_by_file():
    ids = [f"sample-{s:03d}.{spec}.{sect}" for s in range(1, 11) for spec in ("anaes", "cardi", "neuro")
           for sect in ("chico", "progr", "recom")]
    split = make_nubes_split(ids, seed=5)
    assert split["test"] == [d for d in ids if d.startswith("sample-001.")]
    assert sorted(split["train"] + split["dev"] + split["test"]) == sorted(ids)
    for sect in ("chico", "progr", "recom"):  # 9 samples x 3 specialties = 27 files per section
        assert [sum(d.endswith(sect) for d in split[s]) for s in ("train", "dev")] == [24, 3]
    assert make_nubes_split(ids, seed=5) == split and make_nubes_split(ids, seed=6) != split


def test_committed_nubes_split():
    """608 files: SAMPLE-001's 96 in test, the other 512 in train and dev (8/9, 1/9 per section)."""
    parts = {name: read_split_ids("nubes", name) for name in SPLIT_NAMES}
    assert [len(parts[name]) for name in SPLIT_NAMES] == [455, 57, 96]
    assert len(set(sum(parts.values(), []))) == 608
    assert all(d.startswith("sample-001.") for d in parts["test"])
    assert not any(d.startswith("sample-001.") for d in parts["train"] + parts["dev"])
