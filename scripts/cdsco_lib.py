"""The CD-SCO results document (``cdsco.json``): per split and system the reported scores
of the spaCy scorer and the FairEval error counts of the re-scored system file
(:mod:`spacy_negation.analysis.breakdowns`), with a description of the data and the published rows of Sineva et
al. (2021), Table 1.

The data are the official *SEM 2012 CD-SCO releases (Morante & Blanco 2012).
"""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Tuple

from spacy_negation.analysis.breakdowns import SCORE_KEYS, Reference, SystemEval, gold_cue_type_counts
from spacy_negation.metrics.faireval import FAIR_TYPES
from spacy_negation.scoring.scorers import CUE_TYPES

from published import SINEVA2021_CITATION, sineva2021

#: The splits and the systems reported, in output order.
SPLITS: Tuple[str, ...] = ("dev", "test")
SYSTEMS: Tuple[str, ...] = ("punct_baseline", "model_end_to_end", "model_gold_cues")
SYSTEM_LABELS: Dict[str, str] = {
    "punct_baseline": "Punct-BL (gold cues; scope to the next punctuation)",
    "model_end_to_end": "spacy-negation, end to end",
    "model_gold_cues": "spacy-negation, gold cues (scope only)",
}
#: The systems' labels in the plots and the narrow columns of cdsco.md.
SHORT_LABELS: Dict[str, str] = {
    "punct_baseline": "Punct-BL",
    "model_end_to_end": "spacy-negation end to end",
    "model_gold_cues": "spacy-negation gold cues",
}

CITATION = SINEVA2021_CITATION
TEST_SET = ("The official *SEM 2012 CD-SCO test release (Morante & Blanco 2012): the gold files "
            "SEM-2012-SharedTask-CD-SCO-test-cardboard-GOLD.txt and "
            "SEM-2012-SharedTask-CD-SCO-test-circle-GOLD.txt, concatenated in that order. "
            "Sineva et al. (2021) re-annotated ten `neither ... nor` cases for their "
            "experiments; we use the official release unchanged.")
DEV_SET = ("The official *SEM 2012 CD-SCO development release "
           "(SEM-2012-SharedTask-CD-SCO-dev-09032012.txt, The Adventure of Wisteria Lodge).")
#: The official release's sizes (Morante & Blanco 2012); the counted gold is compared with
#: them.
OFFICIAL_SIZES: Dict[str, Dict[str, int]] = {
    "dev": {"sentences": 787, "negation_instances": 173},
    "test": {"sentences": 1089, "negation_instances": 264},
}
#: The systems of Sineva et al. (2021), Table 1 (CD-SCO test), shown as published rows.
PUBLISHED_SYSTEMS = ("Punct-BL", "NegBERT", "BiLSTM-Tagger", "DP-direct", "DP-nested",
                     "DP-direct-synt", "DP-nested-synt")


def published_rows() -> List[Tuple[str, Dict[str, float]]]:
    """The published CD-SCO test rows (Sineva et al. 2021, Table 1; percent), XLM-R-large."""
    return [(f"{row.system} (XLM-R-large)" if row.train else row.system, dict(row.scores))
            for name in PUBLISHED_SYSTEMS for row in sineva2021(system=name, test="cdsco")
            if row.train in (None, "cdsco")]


CONVENTIONS = (
    "All scores come from the package's spaCy scorer (`spacy-negation.negation_scorer.v1`, "
    "`spacy_negation.scoring.scorers.score_negations`), applied to the system docs against the gold "
    "docs on the reference (gold) tokens. *SEM 2012 rows (Cues-B, SCM, SCM-B, Scope tokens) "
    "follow eval.cd-sco.pl v2.2 counting, with scope punctuation removed by the *SEM gold-POS "
    "rule on the reference tag, and exact F1 (not from rounded P/R); the B rows divide the "
    "same TP by all system instances (resp. scopes). NIS (NIS_tok, NIS_ex) matches gold and "
    "system instances on identical cues and removes scope punctuation by the reference "
    "`token.is_punct`. FairEval (Ortmann 2022) scores cue spans (CUE, AFFIX, MWCUE) and scope "
    "spans (SCOPE, punctuation removed by the gold-POS rule) with focus on the target and the "
    "paper's weights for the weighted F1; its error counts are span counts of the fair "
    "evaluation. Cue F1 per type: exact cue match; a gold cue counts for recall under its "
    "gold type, a system cue for precision under its system type (affixal: a cue string "
    "differs from its token; multiword: two or more cue tokens).")



@dataclass
class SplitData:
    """Everything reported for one split.

    ref (Reference): the gold.
    reported (Dict[str, Dict[str, Any]]): per system the scores JSON document.
    evals (Dict[str, SystemEval]): per system the re-scored evaluation.
    paths (Dict[str, Tuple[Path, Path]]): per system (scores JSON, system file).
    """

    ref: Reference
    reported: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    evals: Dict[str, SystemEval] = field(default_factory=dict)
    paths: Dict[str, Tuple[Path, Path]] = field(default_factory=dict)

    def gold_type_counts(self) -> Dict[str, int]:
        """The gold cues per cue type (see :func:`.breakdowns.gold_cue_type_counts`)."""
        return gold_cue_type_counts(self.ref)


def system_entry(reported: Dict[str, Any], ev: SystemEval) -> Dict[str, Any]:
    """The JSON entry of one system on one split.

    reported (Dict[str, Any]): the scores JSON document.
    ev (SystemEval): the re-scored evaluation (for the FairEval counts).
    RETURNS (Dict[str, Any]): the entry (scores as fractions).
    """
    scores = reported["scores"]
    entry: Dict[str, Any] = {out: scores[key] for out, key in SCORE_KEYS}
    entry["cue_f_by_type"] = {t: scores["neg_cue_per_type"][t]["f"] for t in CUE_TYPES}
    entry["faireval_counts"] = {k: ev.faireval_counts[k] for k in FAIR_TYPES}
    return entry


def set_description(split: str, data: SplitData) -> Dict[str, Any]:
    """What a split's gold is, with its counted and official sizes.

    split (str): "dev" or "test".
    data (SplitData): the split's data.
    RETURNS (Dict[str, Any]): the description.
    """
    counted = {"sentences": len(data.ref.sentences), "negation_instances": data.ref.n_instances}
    return {
        "description": TEST_SET if split == "test" else DEV_SET,
        "files": [str(p) for p in data.ref.paths],
        **counted,
        "official": OFFICIAL_SIZES[split],
        "matches_official_release": counted == OFFICIAL_SIZES[split],
    }


def build_json(data: Dict[str, SplitData], run_meta: Dict[str, Any], generated_by: str) -> Dict[str, Any]:
    """The cdsco.json document.

    data (Dict[str, SplitData]): per split the data.
    run_meta (Dict[str, Any]): the run metadata (machine, duration, seed, config, ...).
    generated_by (str): what wrote the document (script and package version).
    RETURNS (Dict[str, Any]): {"meta": {...}, "dev": {system: entry}, "test": {...}}.
    """
    inputs = {split: {system: {"scores": str(d.paths[system][0]), "system": str(d.paths[system][1]),
                               "gold_cues": d.reported[system].get("gold_cues"),
                               "speed": d.reported[system].get("speed")}
                      for system in SYSTEMS} for split, d in data.items()}
    meta = {
        "title": "spacy-negation on CD-SCO (*SEM 2012), in the columns of Sineva et al. (2021), Table 1",
        "scores": "fractions (0-1)",
        "test_set": set_description("test", data["test"]),
        "dev_set": set_description("dev", data["dev"]),
        "run": run_meta,
        "systems": {s: SYSTEM_LABELS[s] for s in SYSTEMS},
        "inputs": inputs,
        "scorer_conventions": CONVENTIONS,
        "published": {
            "source": "Sineva et al. (2021), Table 1, CD-SCO test (their re-annotated test set); percent",
            "rows": [{"system": name, "scores_pct": vals} for name, vals in published_rows()],
        },
        "citation": CITATION,
        "generated_by": generated_by,
    }
    out: Dict[str, Any] = {"meta": meta}
    for split in SPLITS:
        d = data[split]
        out[split] = {system: system_entry(d.reported[system], d.evals[system]) for system in SYSTEMS}
    return out

