"""*SEM 2012 metrics: the perl scorer's counts and printout on every reference case,
the deliberate differences (Q-2, exact F1), alignment checks and properties."""
from pathlib import Path
from typing import Dict, List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spacy_negation.errors import NegationFormatError
from spacy_negation.metrics.starsem.evaluation import (
    B_ROWS, MAIN_ROWS, StarsemCounts, check_alignment, count_starsem,
    format_starsem_table, normalize_scope_cell, starsem_scores,
)
from spacy_negation.corpora.starsem import Sentence, parse_starsem, read_starsem

from starsem_cases import CASES, GOLD, PERL_CASES
from starsem_strategies import corpora, mutated

PERL_LABELS = {label.rstrip(":"): key for key, label, _ in MAIN_ROWS}
PERL_LABELS.update({label.rstrip(":"): key for key, _, label, _ in B_ROWS})


def _counts(refdir: Path, case: str) -> StarsemCounts:
    d = refdir / "starsem" / case
    gold, system = read_starsem(d / "gold.txt"), read_starsem(d / "system.txt")
    return count_starsem(gold, system, gold_path=str(d / "gold.txt"),
                         system_path=str(d / "system.txt"))


def _table_rows(text: str) -> Dict[str, List[str]]:
    """Parse a printed table into {row label: [gold, system, tp, fp, fn, P, R, F1]}."""
    rows = {}
    for line in text.splitlines():
        if "|" not in line or line.startswith("-") or line.startswith(" "):
            continue
        label, rest = line.split(":", 1) if line.split("|")[0].count(":") else (None, None)
        cells = [c.strip() for c in rest.split("|")]
        rows[label.strip()] = cells
    return rows


def test_row_label_mapping_covers_every_perl_row(refdir: Path, expected_micro: Dict) -> None:
    perl_rows = expected_micro[CASES[0]]["perl_eval_cd_sco_v2_2"]["rows"]
    assert set(perl_rows) == set(PERL_LABELS)


@pytest.mark.parametrize("case", PERL_CASES)
def test_counts_equal_perl(refdir: Path, expected_micro: Dict, case: str) -> None:
    counts = _counts(refdir, case)
    ref = expected_micro[case]["perl_eval_cd_sco_v2_2"]
    assert ref["rc"] == 0
    for label, row in ref["rows"].items():
        key = PERL_LABELS[label]
        base = key[:-2] if key.endswith("_b") else key
        c = counts.row(base)
        assert (c.gold, c.system, c.fp, c.fn) == (row["gold"], row["system"], row["fp"], row["fn"]), label
        if base == "scopes_no_cue_match":  # perl prints the SCM tp here
            assert counts.scopes_cue_match.tp == row["tp"], label
        else:
            assert c.tp == row["tp"], label
    trailer = ref["trailer"]
    assert counts.sentences == int(trailer["# sentences"])
    assert counts.negation_sentences == int(trailer["# negation sentences"])
    assert counts.error_negation_sentences == int(trailer["# negation sentences with errors"])


@pytest.mark.parametrize("case", PERL_CASES)
def test_compat_printout_equals_perl(refdir: Path, expected_micro: Dict, case: str) -> None:
    counts = _counts(refdir, case)
    out = format_starsem_table(counts, compat=True)
    assert out == (refdir / "starsem" / case / "out_perl.txt").read_text(encoding="utf-8")
    # and the P/R/F1 strings of expected.json, row by row
    rows = _table_rows(out)
    for label, row in expected_micro[case]["perl_eval_cd_sco_v2_2"]["rows"].items():
        assert rows[label][5:] == [row["P"], row["R"], row["F1"]], label


@pytest.mark.parametrize("case", PERL_CASES)
def test_exact_scores_consistent_with_perl(refdir: Path, expected_micro: Dict, case: str) -> None:
    """Exact P and R round to perl's printed values (F1 may differ by Q-3)."""
    scores = starsem_scores(_counts(refdir, case))
    for label, row in expected_micro[case]["perl_eval_cd_sco_v2_2"]["rows"].items():
        s = scores[PERL_LABELS[label]]
        assert "%.2f" % (s["p"] * 100) == row["P"], label
        assert "%.2f" % (s["r"] * 100) == row["R"], label
        assert abs(s["f"] * 100 - float(row["F1"])) <= 0.0100001, label


def test_m14_reads_last_line_unlike_perl(refdir: Path, expected_micro: Dict) -> None:
    """Q-2 is not reproduced: the file-final token line counts. Our m14 counts equal
    perl's m15 counts (same content, file ends with a blank line); dropping the last line
    from both files gives perl's m14 counts."""
    counts = _counts(refdir, "m14_eof_last_token")
    perl14 = expected_micro["m14_eof_last_token"]["perl_eval_cd_sco_v2_2"]["rows"]
    perl15 = (refdir / "starsem" / "m15_eof_last_token_with_blank" / "out_perl.txt").read_text()
    assert format_starsem_table(counts, compat=True) == perl15
    # exactly these rows differ from perl's m14 printout, because 'know' (scope + event) counts
    assert (perl14["Scope tokens(no cue match)"]["gold"], counts.scope_tokens.gold) == (2, 3)
    assert (counts.scope_tokens.tp, counts.scope_tokens.fn) == (2, 1)
    assert (perl14["Scopes(cue match)"]["tp"], counts.scopes_cue_match.tp) == (1, 0)
    assert counts.scopes_cue_match.fn == 1 and counts.scopes_no_cue_match.fn == 1
    assert (perl14["Negated(no cue match)"]["gold"], counts.negated.gold) == (0, 1)
    assert counts.negated.tp == 1
    assert (perl14["Full negation"]["tp"], counts.full_negation.tp) == (1, 0)
    assert counts.error_negation_sentences == 1
    assert counts.cues.tp == perl14["Cues"]["tp"] == 1
    d = refdir / "starsem" / "m14_eof_last_token"
    gl = d.joinpath("gold.txt").read_text().split("\n")
    sl = d.joinpath("system.txt").read_text().split("\n")
    assert gl[-1] == "" and gl[-2] != ""  # ends with a newline, no blank line

    def drop_last(lines: List[str]) -> List[Sentence]:
        return list(parse_starsem(lines[:-2]))

    truncated = count_starsem(drop_last(gl), drop_last(sl))
    assert format_starsem_table(truncated, compat=True) == d.joinpath("out_perl.txt").read_text()


def test_default_table_exact_f1_and_true_tp(refdir: Path) -> None:
    # m01: perl shows tp 0 in the "no cue match" rows; the TP used there is 1
    counts = _counts(refdir, "m01_partial_multiword_cue")
    assert counts.scopes_no_cue_match.tp == 1 and counts.scopes_cue_match.tp == 0
    table = format_starsem_table(counts)
    rows = _table_rows(table)
    assert rows["Scopes(no cue match)"][2] == "1"
    assert rows["Scopes B (no cue match)"][2] == "1"
    compat_rows = _table_rows(format_starsem_table(counts, compat=True))
    assert compat_rows["Scopes(no cue match)"][2] == "0"
    # P=100.00, R=16.67 -> perl F1 28.58 (from rounded values); exact 28.57
    c = StarsemCounts()
    c.cues.gold, c.cues.system, c.cues.tp, c.cues.fn = 6, 1, 1, 5
    c.sentences = c.negation_sentences = 1
    assert _table_rows(format_starsem_table(c, compat=True))["Cues"][5:] == ["100.00", "16.67", "28.58"]
    assert _table_rows(format_starsem_table(c))["Cues"][5:] == ["100.00", "16.67", "28.57"]


def test_json_scores_b_rows_and_sentences(refdir: Path) -> None:
    scores = starsem_scores(_counts(refdir, "m12_greedy_order_partial_first"))
    assert set(scores) == {"cues", "cues_b", "scopes_cue_match", "scopes_cue_match_b",
                           "scopes_no_cue_match", "scopes_no_cue_match_b", "scope_tokens",
                           "negated", "negated_b", "full_negation", "full_negation_b", "sentences"}
    st_ = scores["scope_tokens"]
    assert (st_["tp"], st_["fp"], st_["fn"]) == (1, 4, 3)
    assert st_["p"] == pytest.approx(0.2) and st_["r"] == pytest.approx(0.25)
    assert scores["sentences"] == {"total": 2, "negation": 1, "negation_with_errors": 1,
                                   "correct_pct": 50.0, "correct_negation_pct": 0.0}
    scores = starsem_scores(_counts(refdir, "m16_negated_partial_not_last"))
    assert scores["negated_b"]["p"] == 0.5 and scores["negated"]["p"] == 1.0


def test_empty_corpus_gives_zeros() -> None:
    scores = starsem_scores(StarsemCounts())
    for key, value in scores.items():
        if key != "sentences":
            assert value["p"] == value["r"] == value["f"] == 0.0
    out = format_starsem_table(StarsemCounts(), compat=True)
    assert " % correct negation sentences: 100.00" in out


@pytest.mark.parametrize("cell,expected", [
    ("Mr.", "Mr"), ("Dr.", "Dr"), ("U.S.", "U"), ("3.5", "3"), ("Mr", "Mr"), (".", "."),
    ("élan.", "élan."), ("a_b.c", "a_b"), ("'s.", "'s."),
])
def test_abbreviation_rule(cell: str, expected: str) -> None:
    assert normalize_scope_cell(cell) == expected


# --- alignment --------------------------------------------------------------------------------
def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_alignment_error_names_first_mismatching_line(tmp_path: Path) -> None:
    gold = read_starsem(_write(tmp_path, "gold.txt", GOLD))
    system_text = GOLD.replace("d\t1\t1\t.", "d\t1\t1\t!")
    system = read_starsem(_write(tmp_path, "sys.txt", system_text))
    with pytest.raises(NegationFormatError, match=r"\[NEG-E200\]") as exc:
        count_starsem(gold, system, gold_path="gold.txt", system_path="sys.txt")
    assert "gold.txt:8" in str(exc.value) and "sys.txt:8" in str(exc.value)
    assert exc.value.line == 8


def test_alignment_error_on_missing_token_and_sentence(tmp_path: Path) -> None:
    gold = read_starsem(_write(tmp_path, "gold.txt", GOLD))
    lines = GOLD.split("\n")
    system = read_starsem(_write(tmp_path, "sys.txt", "\n".join(lines[:4] + lines[5:])))
    with pytest.raises(NegationFormatError, match=r"gold\.txt:5 .*sys\.txt:5 \(the end of a sentence\)"):
        check_alignment(gold, system, gold_path="gold.txt", system_path="sys.txt")
    system = read_starsem(_write(tmp_path, "sys2.txt", "\n".join(lines[:6])))
    with pytest.raises(NegationFormatError, match=r"gold\.txt:7 .*the end of the file"):
        check_alignment(gold, system, gold_path="gold.txt", system_path="sys2.txt")


def test_system_pos_column_is_never_used(tmp_path: Path) -> None:
    gold = read_starsem(_write(tmp_path, "gold.txt", GOLD))
    # the system tags 'go' as punctuation and adds '.' to the scope: gold POS decides
    sys_text = GOLD.replace("go\tgo\tVB\t*\t_\tgo\tgo", "go\tgo\t.\t*\t_\tgo\tgo").replace(
        "d\t0\t4\t.\t.\t.\t*\t_\t_\t_", "d\t0\t4\t.\t.\t.\t*\t_\t.\t_")
    system = read_starsem(_write(tmp_path, "sys.txt", sys_text))
    counts = count_starsem(gold, system)
    assert counts.scopes_cue_match.tp == 1 and counts.scope_tokens.system == 3
    assert counts.full_negation.tp == 1


# --- properties (strategies: starsem_strategies.py) -----------------------------------------
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora())
def test_identical_system_scores_one(gold: List[Sentence]) -> None:
    counts = count_starsem(gold, gold)
    scores = starsem_scores(counts)
    for key in scores:
        if key == "sentences":
            continue
        s = scores[key]
        assert s["fp"] == 0 and s["fn"] == 0
        if s["gold"]:
            assert s["p"] == s["r"] == s["f"] == 1.0
    assert scores["sentences"]["correct_pct"] == 100.0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_count_invariants(data: st.DataObject) -> None:
    gold = data.draw(corpora())
    system = [mutated(data.draw, s) for s in gold]
    c = count_starsem(gold, system)
    assert c.cues.tp + c.cues.fn == c.cues.gold          # every gold instance is TP or FN
    assert c.full_negation.tp + c.full_negation.fn == c.full_negation.gold
    assert c.full_negation.fp == c.cues.fp               # unpaired system instances
    assert c.cues.tp + c.cues.fp <= c.cues.system       # partial matches are not FP
    assert c.scope_tokens.tp + c.scope_tokens.fn == c.scope_tokens.gold
    assert c.scope_tokens.tp + c.scope_tokens.fp == c.scope_tokens.system
    assert c.scopes_cue_match.tp <= c.scopes_no_cue_match.tp
    assert c.full_negation.tp <= c.cues.tp
    assert c.error_negation_sentences <= c.negation_sentences <= c.sentences


@pytest.mark.slow
def test_cdsco_dev_against_itself(cdsco_dir: Path) -> None:
    gold = read_starsem(cdsco_dir / "SEM-2012-SharedTask-CD-SCO-dev-09032012.txt")
    counts = count_starsem(gold, gold)
    scores = starsem_scores(counts)
    for key in scores:
        if key != "sentences":
            assert scores[key]["p"] == scores[key]["r"] == scores[key]["f"] == 1.0, key
    assert counts.sentences == len(gold) and counts.cues.gold == counts.cues.tp > 100
    assert scores["sentences"]["correct_negation_pct"] == 100.0
