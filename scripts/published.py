"""Published scores that the project's results are set beside, as printed in the papers.

- Sineva et al. (2021), Table 8 (which contains Tables 1-3): every system trained on one
  English corpus and tested end to end on each test split, in percent. Elizaveta Sineva,
  Stefan Grünewald, Annemarie Friedrich and Jonas Kuhn (2021). Negation-Instance Based
  Evaluation of End-to-End Negation Resolution. CoNLL 2021. Their CD-SCO test set has ten
  re-annotated ``neither ... nor`` cases, their BioScope and SFU splits are their own
  (80/10/10), and every system uses XLM-R-large: the numbers are close to, not strictly
  comparable with, scores on other splits or backbones. Punct-BL uses gold cues and is not
  trained (``train`` is None).
- Jiménez-Zafra et al. (2018), Tables 2-4: NEGES 2018 task 2 (Spanish cue detection on SFU
  ReviewSP-NEG), the two participants overall and per domain, in percent. Salud María
  Jiménez-Zafra, Noa P. Cruz Díaz, Roser Morante and María Teresa Martín-Valdivia (2018).
  NEGES 2018: Workshop on Negation in Spanish. Procesamiento del Lenguaje Natural 62. (The
  paper's prose gives the best F1 as 86.25; its Table 2 prints 86.45, used here.)
"""
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

#: The published tables, tab-separated (project data, beside the other inputs).
TABLES_DIR = Path(__file__).resolve().parents[1] / "data" / "published"

#: The columns of Sineva et al. (2021), Table 8, in order (F1 unless named P or R).
SINEVA2021_COLUMNS = ("cues_b_f", "scm_f", "scm_b_f", "st_p", "st_r", "st_f",
                      "nis_tok_p", "nis_tok_r", "nis_tok_f")
SINEVA2021_CITATION = ("Elizaveta Sineva, Stefan Grünewald, Annemarie Friedrich and Jonas Kuhn "
                       "(2021). Negation-Instance Based Evaluation of End-to-End Negation "
                       "Resolution. In Proceedings of CoNLL 2021.")
NEGES2018_CITATION = ("Salud María Jiménez-Zafra, Noa P. Cruz Díaz, Roser Morante and María "
                      "Teresa Martín-Valdivia (2018). NEGES 2018: Workshop on Negation in Spanish "
                      "(task 2 overview). Procesamiento del Lenguaje Natural 62.")



def published_table(filename: str) -> List[List[str]]:
    """A published table of ``data/published``: tab-separated UTF-8 text, a
    header row naming the columns, then one row a line.

    filename (str): the file, e.g. 'sineva2021_table8.tsv'.
    RETURNS (List[List[str]]): the header, then the rows, as lists of cells.
    """
    text = (TABLES_DIR / filename).read_text(encoding="utf-8")
    return [line.split("\t") for line in text.splitlines()]


@dataclass(frozen=True)
class PublishedRow:
    """One row of Sineva et al. (2021), Table 8.

    system (str): e.g. 'BiLSTM-Tagger', 'NegBERT', 'DP-nested-synt', 'Punct-BL'.
    train (Optional[str]): training corpus ('cdsco', 'bioscope', 'sfu'); None for Punct-BL.
    test (str): test corpus.
    scores (Dict[str, float]): SINEVA2021_COLUMNS -> percent.
    """

    system: str
    train: Optional[str]
    test: str
    scores: Dict[str, float]


def sineva2021(system: Optional[str] = None, train: Optional[str] = None,
               test: Optional[str] = None) -> List[PublishedRow]:
    """The rows of Sineva et al. (2021), Table 8, in the paper's order, optionally filtered
    (``data/published/sineva2021_table8.tsv``: system, train corpus or '-' where not trained, test
    corpus, then :data:`SINEVA2021_COLUMNS`).

    system, train, test (Optional[str]): keep only the rows with these values.
    RETURNS (List[PublishedRow]): the rows.
    """
    rows = []
    for name, tr, te, *values in published_table("sineva2021_table8.tsv")[1:]:
        row = PublishedRow(name, None if tr == "-" else tr, te,
                           dict(zip(SINEVA2021_COLUMNS, map(float, values))))
        if (system is None or row.system == system) and (train is None or row.train == train) \
                and (test is None or row.test == test):
            rows.append(row)
    return rows


def neges2018() -> Dict[str, Dict[str, Dict[str, float]]]:
    """NEGES 2018 task 2 results (Jiménez-Zafra et al. 2018, Tables 2-4;
    ``data/published/neges2018_task2.tsv``). The domains are the paper's Spanish names; UNED
    submitted nothing for 'ordenadores' (computers), so it has no such row.

    RETURNS (Dict[str, Dict[str, Dict[str, float]]]): team -> domain ('all' for overall)
        -> {"p", "r", "f"} in percent.
    """
    out: Dict[str, Dict[str, Dict[str, float]]] = {}
    for team, domain, p, r, f in published_table("neges2018_task2.tsv")[1:]:
        out.setdefault(team, {})[domain] = {"p": float(p), "r": float(r), "f": float(f)}
    return out
