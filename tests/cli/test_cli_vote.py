"""``python -m spacy_negation vote`` and :mod:`spacy_negation.corpora.vote`: a majority
vote over system *SEM files, on the four-sentence case of test_metrics_compare, counted by
hand; min-votes, cells of affixal cues and events, bad input."""
from pathlib import Path
from typing import List

import pytest

from spacy_negation.cli import main
from spacy_negation.corpora.blocks import Instance
from spacy_negation.corpora.starsem import read_starsem
from spacy_negation.corpora.vote import default_min_votes, vote_instances, vote_sentences

from starsem_systems import GOLD, SYS_A, SYS_B, starsem_text


@pytest.fixture
def three(tmp_path: Path) -> List[Path]:
    paths = []
    for name, system in (("a.txt", SYS_A), ("b.txt", SYS_B), ("gold.txt", GOLD)):
        (tmp_path / name).write_text(starsem_text(system), encoding="utf-8")
        paths.append(tmp_path / name)
    return paths


def _vote(capsys: pytest.CaptureFixture, *args: object) -> int:
    code = main(["vote", *[str(a) for a in args]])
    capsys.readouterr()
    return code


def _instances(path: Path) -> List[List[Instance]]:
    return [s.instances for s in read_starsem(path)]


def test_vote_by_hand(three: List[Path], tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    # S1: all three agree. S2 ("No one came"): scopes {one}, {one, came}, {one, came} -> {one, came}.
    # S3 ("She never lies"): the cue in B and the gold (2 of 3); scopes {She} and {She, lies}:
    # "lies" has 1 of 2 votes, no strict majority -> {She}, as B. S4: no negation.
    out = tmp_path / "vote.txt"
    assert _vote(capsys, *three, "-o", out) == 0
    assert _instances(out) == _instances(three[1])
    assert [s.forms for s in read_starsem(out)] == [s.forms for s in read_starsem(three[2])]
    # all three files must have the cue: S3's instance is dropped
    assert _vote(capsys, *three, "-o", out, "--min-votes", 3) == 0
    voted = _instances(out)
    assert [len(v) for v in voted] == [1, 1, 0, 0] and voted[:2] == _instances(three[2])[:2]
    # a file given twice outvotes the third
    assert _vote(capsys, three[0], three[0], three[1], "-o", out) == 0
    assert _instances(out) == _instances(three[0])


def test_vote_instances_cells() -> None:
    un = Instance(cue=[(2, "un")], scope=[(0, "He"), (2, "happy")], event=[(2, "happy")])
    un_short = Instance(cue=[(2, "un")], scope=[(2, "happy")], event=[])
    whole = Instance(cue=[(2, "unhappy")], scope=[(0, "He")])
    multi = Instance(cue=[(5, "nor"), (3, "neither")], scope=[(4, "x")])
    # cells are votes by position and string: "un" and "unhappy" are different cues
    voted = vote_instances([[un, multi], [un_short, multi], [whole, un]], min_votes=2)
    assert voted == [Instance(cue=[(2, "un")], scope=[(0, "He"), (2, "happy")], event=[(2, "happy")]),
                     Instance(cue=[(3, "neither"), (5, "nor")], scope=[(4, "x")])]
    assert vote_instances([[whole], [un]], min_votes=1) == [un, whole]
    # one file counts once per cue
    assert vote_instances([[un, un], [whole]], min_votes=2) == []
    assert [default_min_votes(n) for n in (2, 3, 4, 5)] == [2, 2, 3, 3]


@pytest.mark.parametrize("extra,code,exit_code", [((), "E749", 1), (("--min-votes", 4), "E750", 1),
                                                  (("--min-votes", 0), "E971", 2)])
def test_bad_arguments_are_coded_errors(three: List[Path], tmp_path: Path, capsys: pytest.CaptureFixture,
                                        extra: tuple, code: str, exit_code: int) -> None:
    files = three[:1] if code == "E749" else three
    out = tmp_path / "vote.txt"
    assert main(["vote", *map(str, files), "-o", str(out), *map(str, extra)]) == exit_code
    assert f"[NEG-{code}]" in capsys.readouterr().err
    assert not out.exists()


def test_misaligned_files_are_coded_errors(three: List[Path], tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "vote.txt"
    shorter = tmp_path / "short.txt"
    shorter.write_text(starsem_text(GOLD).split("\n\n", 1)[1], encoding="utf-8")
    assert main(["vote", str(three[0]), str(shorter), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "[NEG-E751]" in err and str(shorter) in err and "3 sentences" in err
    changed = tmp_path / "changed.txt"
    changed.write_text(starsem_text(GOLD).replace("\tsun\tsun\t", "\tmoon\tmoon\t"), encoding="utf-8")
    assert main(["vote", str(three[0]), str(changed), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    # "sun": the second token of the fourth sentence, on line 18 (13 token lines, 3 blank lines)
    assert "[NEG-E752]" in err and f"{changed}:18:" in err
    assert not out.exists()
    with pytest.raises(ValueError, match=r"\[NEG-E749\]"):
        vote_sentences([read_starsem(three[0])])


def test_output_that_is_an_input_is_refused(three: List[Path], capsys: pytest.CaptureFixture) -> None:
    before = three[0].read_text(encoding="utf-8")
    assert main(["vote", *map(str, three), "-o", str(three[0])]) == 1
    assert "[NEG-E125]" in capsys.readouterr().err
    assert three[0].read_text(encoding="utf-8") == before
