"""The published scores set beside ours (scripts/published.py), checked against the
tables of the papers that repeat them: Sineva et al. (2021), Tables 1-3 are subsets of its
Table 8; Jiménez-Zafra et al. (2018), Table 2."""
import pytest

from published import SINEVA2021_COLUMNS, TABLES_DIR, neges2018, published_table, sineva2021

SYSTEMS = ("NegBERT", "BiLSTM-Tagger", "DP-direct", "DP-nested", "DP-direct-synt", "DP-nested-synt")


def test_table_files_name_their_columns():
    """The shipped tables' headers are the columns the readers take them in."""
    assert published_table("sineva2021_table8.tsv")[0] == ["system", "train", "test",
                                                           *SINEVA2021_COLUMNS]
    assert published_table("neges2018_task2.tsv")[0] == ["team", "domain", "p", "r", "f"]


def test_table_files_are_project_data():
    """The tables are the project's data (``data/published``), not the installed package's."""
    assert TABLES_DIR.parts[-2:] == ("data", "published")
    for name in ("sineva2021_table8.tsv", "neges2018_task2.tsv"):
        assert (TABLES_DIR / name).is_file()


def test_table8_shape():
    rows = sineva2021()
    assert len(rows) == 57  # 3 test sets x (Punct-BL + 6 systems x 3 training sets)
    for test in ("cdsco", "bioscope", "sfu"):
        assert [r.system for r in sineva2021(test=test, train=None) if r.train is None] == ["Punct-BL"]
        for system in SYSTEMS:
            assert sorted(r.train for r in sineva2021(system=system, test=test)) == [
                "bioscope", "cdsco", "sfu"]
    assert all(list(r.scores) == list(SINEVA2021_COLUMNS) for r in rows)


@pytest.mark.parametrize("system,scores", [
    # Table 1 (CD-SCO test), all nine columns
    ("Punct-BL", (100.0, 17.0, 9.9, 89.8, 62.0, 73.3, 93.3, 58.8, 72.1)),
    ("NegBERT", (91.1, 78.8, 70.1, 86.1, 87.8, 86.9, 83.9, 88.7, 86.3)),
    ("BiLSTM-Tagger", (92.3, 79.6, 70.0, 90.8, 85.4, 88.0, 90.3, 86.3, 88.2)),
    ("DP-nested-synt", (93.4, 79.2, 69.2, 88.0, 84.6, 86.2, 87.2, 86.6, 86.9)),
])
def test_table1_in_table8(system, scores):
    (row,) = [r for r in sineva2021(system=system, test="cdsco") if r.train in (None, "cdsco")]
    assert tuple(row.scores.values()) == scores


@pytest.mark.parametrize("system,corpus,scores", [
    # Table 2: Cues-B, NIS_ex (= SCM-B), ST F1, NIS_tok P, R, F1
    ("BiLSTM-Tagger", "bioscope", (94.3, 83.0, 88.6, 91.7, 91.7, 91.7)),
    ("DP-nested-synt", "bioscope", (95.4, 82.7, 90.4, 92.7, 92.1, 92.4)),
    ("NegBERT", "sfu", (81.9, 69.5, 71.0, 67.9, 86.3, 75.9)),
    ("BiLSTM-Tagger", "sfu", (86.7, 73.2, 77.9, 74.9, 89.8, 81.7)),
])
def test_table2_in_table8(system, corpus, scores):
    (row,) = sineva2021(system=system, train=corpus, test=corpus)
    keys = ("cues_b_f", "scm_b_f", "st_f", "nis_tok_p", "nis_tok_r", "nis_tok_f")
    assert tuple(row.scores[k] for k in keys) == scores


@pytest.mark.parametrize("system,train,test,scores", [
    # Table 3: Cues-B, NIS_ex, ST F1, NIS_tok F1
    ("BiLSTM-Tagger", "cdsco", "bioscope", (64.3, 17.7, 56.7, 54.3)),
    ("DP-nested-synt", "sfu", "bioscope", (82.0, 57.2, 67.2, 74.0)),
    ("NegBERT", "bioscope", "sfu", (63.4, 48.8, 53.7, 58.6)),
])
def test_table3_in_table8(system, train, test, scores):
    (row,) = sineva2021(system=system, train=train, test=test)
    assert tuple(row.scores[k] for k in ("cues_b_f", "scm_b_f", "st_f", "nis_tok_f")) == scores


def test_f1_consistent_with_p_and_r():
    # a transcription guard (a swapped digit or column breaks it): every printed F1 is near
    # the harmonic mean of its printed P and R. Not closer than 0.71 points: the paper's
    # scores are rounded and, where averaged, F1 of averages differs from the average F1.
    for row in sineva2021():
        for stem in ("st", "nis_tok"):
            p, r, f = (row.scores[f"{stem}_{x}"] for x in "prf")
            assert abs(2 * p * r / (p + r) - f) <= 0.75, (row, stem)


def test_neges2018():
    table = neges2018()
    assert table["UPC"]["all"] == {"p": 91.48, "r": 82.18, "f": 86.45}
    assert table["UNED"]["all"] == {"p": 79.45, "r": 59.58, "f": 67.97}
    assert len(table["UPC"]) == 9 and "ordenadores" not in table["UNED"]
    # per domain, F1 is the harmonic mean of P and R to rounding; the overall rows of the
    # paper's Table 2 are not (0.13 off for both teams), so they get a looser guard
    for team in table.values():
        for domain, s in team.items():
            bound = 0.2 if domain == "all" else 0.011
            assert abs(2 * s["p"] * s["r"] / (s["p"] + s["r"]) - s["f"]) <= bound
