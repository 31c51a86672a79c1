"""FairEval against the reference tool: every reference case and config reproduced
through the file readers, and the deliberate deviation of the punctuation case (f15)."""
import ast
import json
import re
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from spacy_negation.metrics.faireval import BE_WEIGHTS, PAPER_WEIGHTS, faireval, parse_weights, scores_from_counts
from spacy_negation.metrics.faireval.files import count_files
from spacy_negation.metrics.faireval.io import read_faireval_file

from util import REPO, fspan

REF = REPO / ".." / "shared" / "fixtures" / "reference-scores"
METRIC_KEYS = {"Prec": "p", "Rec": "r", "F1": "f"}


def _reference_params() -> List[Any]:
    path = REF / "expected.json"
    if not path.exists():
        return [pytest.param(None, None, marks=pytest.mark.skip(reason="../shared not present"))]
    micro = json.loads(path.read_text(encoding="utf-8"))["faireval_micro"]
    return [pytest.param(case, cfg, id=f"{case}-{cfg}")
            for case, cfgs in micro.items() for cfg in cfgs if cfg != "description"]


def _settings(case_dir: Path, cfg: str) -> Tuple[str, bool]:
    """focus and ignore_punct as printed in the reference's settings block."""
    out = (case_dir / f"out_{cfg}.txt").read_text(encoding="utf-8")
    focus = re.search(r"^focus: (\w+)$", out, re.M).group(1)
    ignore_punct = re.search(r"^ignore_punct: (\w+)$", out, re.M).group(1) == "True"
    return focus, ignore_punct


def _assert_block(mine: Dict[str, Any], theirs: Dict[str, Any]) -> None:
    for key, value in theirs.items():
        assert mine[METRIC_KEYS.get(key, key)] == pytest.approx(value, abs=1e-12), key
    # and nothing more than the reference's keys (p/r/f renamed)
    assert set(mine) == {METRIC_KEYS.get(k, k) for k in theirs}


def _assert_reference(result: Dict[str, Any], exact: Dict[str, Any]) -> None:
    ev = exact["eval"]
    for method in ("traditional", "fair", "weighted"):
        _assert_block(result[method], ev["overall"][method])
        assert set(result["per_label"][method]) == set(ev["per_label"][method])
        for label, block in ev["per_label"][method].items():
            _assert_block(result["per_label"][method][label], block)
    labels = set(ev["conf"]) | {s for row in ev["conf"].values() for s in row}
    assert set(result["confusion"]) == labels
    for tl in labels:
        for sl in labels:
            assert result["confusion"][tl][sl] == ev["conf"].get(tl, {}).get(sl, 0), (tl, sl)


@pytest.mark.parametrize("case,cfg", _reference_params())
def test_reference_case_reproduced(shared_dir, case, cfg):
    """Every case and config of expected.json, through the file readers. The punctuation
    case (f15) needs the reference's punctuation handling (punct_compat); for every other
    case and config both modes give the reference's output."""
    expected = json.loads((REF / "expected.json").read_text(encoding="utf-8"))
    exact = expected["faireval_micro"][case][cfg]["exact"]
    case_dir = REF / "faireval" / case
    focus, ignore_punct = _settings(case_dir, cfg)
    if cfg in expected["faireval_configs"]:
        conf = expected["faireval_configs"][cfg]
        assert conf["focus"] == focus and conf["ignore_punct"] == str(ignore_punct)
        weights = parse_weights(conf["weights"])
        assert weights == exact["weights"]
        printed = re.search(r"^weights: (\{.*\})$", (case_dir / f"out_{cfg}.txt").read_text(
            encoding="utf-8"), re.M).group(1)
        assert list(weights.items()) == list(ast.literal_eval(printed).items())  # same order
    else:
        weights = exact["weights"]
    modes = [True] if (case.startswith("f15") and ignore_punct) else [True, False]
    for compat in modes:
        counts = count_files(case_dir / "target", case_dir / "system", focus=focus,
                             ignore_punct=ignore_punct, punct_compat=compat)
        _assert_reference(scores_from_counts(counts, weights), exact)
        assert counts.target_labels == exact["data_stats"]


def test_f15_fixed_punctuation_deviates_on_purpose(shared_dir):
    """Q-F8 fixed: the target span 'It rained , .' loses both trailing punctuation tokens,
    so it equals the system span (TP). The reference keeps its end on ',' (BES)."""
    case_dir = REF / "faireval" / "f15_conll_trailing_punct"
    target = read_faireval_file(case_dir / "target" / "sent.conll", ignore_punct=True)
    compat = read_faireval_file(case_dir / "target" / "sent.conll", ignore_punct=True,
                                punct_compat=True)
    raw = read_faireval_file(case_dir / "target" / "sent.conll")
    assert target[0].spans == [fspan("X", 1, 2)]
    assert compat[0].spans == [fspan("X", 1, 3, 1, 2)]
    assert raw[0].spans == [fspan("X", 1, 4)]
    fixed = faireval([target[0].spans],
                     [read_faireval_file(case_dir / "system" / "sent.conll", ignore_punct=True)[0].spans])
    assert fixed["traditional"]["TP"] == 1 and fixed["fair"]["TP"] == 1
    assert fixed["fair"]["BE"] == 0 and fixed["weighted"]["f"] == 1.0


def test_paper_weights_are_the_reference_default(shared_dir):
    expected = json.loads((REF / "expected.json").read_text(encoding="utf-8"))
    exact = expected["faireval_micro"]["f15_conll_trailing_punct"]["ignore_punct_True"]["exact"]
    assert PAPER_WEIGHTS == exact["weights"]
    assert parse_weights(expected["faireval_configs"]["B_system_halftpBE"]["weights"]) == BE_WEIGHTS
