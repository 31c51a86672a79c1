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
from typing import Dict, List, Optional

#: The columns of Sineva et al. (2021), Table 8, in order (F1 unless named P or R).
SINEVA2021_COLUMNS = ("cues_b_f", "scm_f", "scm_b_f", "st_p", "st_r", "st_f",
                      "nis_tok_p", "nis_tok_r", "nis_tok_f")
SINEVA2021_CITATION = ("Elizaveta Sineva, Stefan Grünewald, Annemarie Friedrich and Jonas Kuhn "
                       "(2021). Negation-Instance Based Evaluation of End-to-End Negation "
                       "Resolution. In Proceedings of CoNLL 2021.")
NEGES2018_CITATION = ("Salud María Jiménez-Zafra, Noa P. Cruz Díaz, Roser Morante and María "
                      "Teresa Martín-Valdivia (2018). NEGES 2018: Workshop on Negation in Spanish "
                      "(task 2 overview). Procesamiento del Lenguaje Natural 62.")

# system, train corpus ('-': not trained), test corpus, then SINEVA2021_COLUMNS.
_SINEVA2021_TABLE8 = """\
Punct-BL	-	cdsco	100.0	17.0	9.9	89.8	62.0	73.3	93.3	58.8	72.1
NegBERT	cdsco	cdsco	91.1	78.8	70.1	86.1	87.8	86.9	83.9	88.7	86.3
BiLSTM-Tagger	cdsco	cdsco	92.3	79.6	70.0	90.8	85.4	88.0	90.3	86.3	88.2
DP-direct	cdsco	cdsco	92.8	73.2	61.4	85.4	87.4	86.4	84.6	87.7	86.1
DP-nested	cdsco	cdsco	93.3	72.8	60.6	86.6	83.0	84.8	85.6	85.4	85.5
DP-direct-synt	cdsco	cdsco	92.8	79.1	69.2	87.4	86.5	86.9	86.2	88.3	87.2
DP-nested-synt	cdsco	cdsco	93.4	79.2	69.2	88.0	84.6	86.2	87.2	86.6	86.9
NegBERT	bioscope	cdsco	65.2	13.0	8.9	75.6	43.7	55.2	71.1	40.0	51.1
BiLSTM-Tagger	bioscope	cdsco	61.6	14.7	10.1	72.1	33.8	46.0	70.5	35.0	46.8
DP-direct	bioscope	cdsco	65.2	13.1	8.9	74.1	36.2	48.5	74.3	35.1	47.6
DP-nested	bioscope	cdsco	63.2	13.6	9.3	79.2	32.9	46.5	77.2	31.9	45.1
DP-direct-synt	bioscope	cdsco	65.6	13.8	9.1	76.5	37.8	50.5	76.4	34.9	47.8
DP-nested-synt	bioscope	cdsco	64.8	13.7	9.2	80.1	38.4	51.8	77.7	34.7	47.9
NegBERT	sfu	cdsco	69.3	15.2	9.7	74.4	46.1	56.7	70.2	43.6	53.6
BiLSTM-Tagger	sfu	cdsco	68.8	15.7	10.1	78.3	46.0	58.0	74.0	42.3	53.8
DP-direct	sfu	cdsco	69.2	14.2	9.1	78.0	42.8	55.3	74.9	40.0	52.1
DP-nested	sfu	cdsco	68.2	14.0	9.0	77.7	42.4	54.8	74.7	38.6	50.9
DP-direct-synt	sfu	cdsco	67.5	15.0	9.7	77.7	44.3	56.5	73.1	39.7	51.4
DP-nested-synt	sfu	cdsco	68.1	15.0	9.6	77.0	43.1	55.2	72.9	39.9	51.6
Punct-BL	-	bioscope	100.0	59.4	43.2	67.3	64.2	65.7	77.0	69.7	73.5
NegBERT	bioscope	bioscope	90.5	85.6	79.5	81.0	88.3	84.5	83.3	91.5	87.2
BiLSTM-Tagger	bioscope	bioscope	94.3	89.6	83.0	88.9	88.5	88.6	91.7	91.7	91.7
DP-direct	bioscope	bioscope	95.4	83.8	74.3	85.6	89.2	87.3	88.7	92.4	90.5
DP-nested	bioscope	bioscope	95.3	87.4	79.8	89.1	87.9	88.5	91.2	91.2	91.2
DP-direct-synt	bioscope	bioscope	95.1	88.2	81.0	89.4	88.9	89.1	91.7	91.7	91.7
DP-nested-synt	bioscope	bioscope	95.4	89.1	82.7	91.0	89.8	90.4	92.7	92.1	92.4
NegBERT	cdsco	bioscope	60.6	24.5	19.0	36.4	77.3	49.3	32.6	80.5	46.2
BiLSTM-Tagger	cdsco	bioscope	64.3	24.6	17.7	45.3	76.1	56.7	41.2	80.1	54.3
DP-direct	cdsco	bioscope	64.4	17.5	12.5	38.0	76.0	50.7	32.1	79.0	45.7
DP-nested	cdsco	bioscope	65.8	18.5	13.1	40.0	78.7	53.0	34.9	78.9	48.4
DP-direct-synt	cdsco	bioscope	64.7	22.2	16.3	40.3	78.0	53.1	34.8	80.3	48.5
DP-nested-synt	cdsco	bioscope	65.3	25.2	18.7	42.2	77.6	54.7	37.2	80.6	50.9
NegBERT	sfu	bioscope	78.7	64.7	55.5	73.9	55.4	63.2	76.8	66.1	71.0
BiLSTM-Tagger	sfu	bioscope	81.0	64.3	53.4	74.8	58.8	65.9	77.8	68.4	72.8
DP-direct	sfu	bioscope	81.6	59.6	48.3	75.4	55.9	64.2	79.2	66.0	72.0
DP-nested	sfu	bioscope	82.1	61.1	49.9	77.1	57.4	65.8	80.0	66.8	72.8
DP-direct-synt	sfu	bioscope	81.6	66.8	57.1	77.3	59.2	67.0	80.0	68.4	73.7
DP-nested-synt	sfu	bioscope	82.0	67.0	57.2	77.8	59.2	67.2	80.1	68.8	74.0
Punct-BL	-	sfu	100.0	56.9	45.9	55.0	84.0	66.5	75.5	87.4	81.0
NegBERT	sfu	sfu	81.9	74.2	69.5	63.6	81.0	71.0	67.9	86.3	75.9
BiLSTM-Tagger	sfu	sfu	86.7	78.0	73.2	71.1	86.0	77.9	74.9	89.8	81.7
DP-direct	sfu	sfu	86.1	73.5	66.9	71.2	79.5	75.1	73.2	86.1	79.1
DP-nested	sfu	sfu	85.8	73.0	66.1	70.7	80.1	75.0	70.8	80.2	75.2
DP-direct-synt	sfu	sfu	86.6	74.6	68.5	71.8	80.8	76.0	73.4	87.2	79.6
DP-nested-synt	sfu	sfu	86.5	76.6	71.1	72.2	82.7	77.1	73.7	88.9	80.5
NegBERT	cdsco	sfu	51.3	14.4	10.0	27.2	58.8	37.2	26.6	63.6	37.5
BiLSTM-Tagger	cdsco	sfu	50.2	13.4	9.0	28.9	53.6	37.5	28.0	58.0	37.8
DP-direct	cdsco	sfu	50.6	10.3	6.9	25.9	53.5	34.9	26.4	56.9	36.1
DP-nested	cdsco	sfu	50.6	11.6	7.8	26.8	53.1	35.6	27.0	56.4	36.5
DP-direct-synt	cdsco	sfu	50.6	12.3	8.3	27.2	55.1	36.4	26.7	58.8	36.8
DP-nested-synt	cdsco	sfu	50.3	13.2	9.0	27.2	54.1	36.2	26.6	58.0	36.5
NegBERT	bioscope	sfu	63.4	54.0	48.8	60.1	49.7	53.7	63.6	55.4	58.6
BiLSTM-Tagger	bioscope	sfu	64.5	56.6	53.1	67.9	49.1	57.0	70.2	54.5	61.4
DP-direct	bioscope	sfu	66.6	51.9	45.9	63.2	49.2	55.2	65.1	54.7	59.3
DP-nested	bioscope	sfu	65.1	51.2	45.9	64.0	44.7	52.6	66.9	51.2	58.0
DP-direct-synt	bioscope	sfu	56.1	48.6	39.4	46.6	47.7	47.0	48.6	53.5	50.8
DP-nested-synt	bioscope	sfu	56.9	48.6	40.1	48.2	47.0	47.5	50.7	52.5	51.5
"""

# team, domain ('all': Table 2; else Tables 3-4, the paper's Spanish domain names), P, R, F1.
# UNED submitted nothing for 'ordenadores' (computers): no row.
_NEGES2018 = """\
UPC	all	91.48	82.18	86.45
UNED	all	79.45	59.58	67.97
UPC	coches	95.08	85.29	89.92
UPC	hoteles	94.00	79.66	86.24
UPC	lavadoras	94.74	78.26	85.72
UPC	libros	84.19	84.52	84.35
UPC	moviles	89.80	77.19	83.02
UPC	musica	92.96	75.86	83.54
UPC	ordenadores	91.36	91.36	91.36
UPC	peliculas	89.68	85.28	87.42
UNED	coches	94.23	72.06	81.67
UNED	hoteles	97.67	71.19	82.35
UNED	lavadoras	92.00	66.67	77.31
UNED	libros	79.52	66.27	72.29
UNED	moviles	93.33	73.68	82.35
UNED	musica	92.59	57.47	70.92
UNED	peliculas	86.26	69.33	76.87
"""


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
    """The rows of Sineva et al. (2021), Table 8, in the paper's order, optionally filtered.

    system, train, test (Optional[str]): keep only the rows with these values.
    RETURNS (List[PublishedRow]): the rows.
    """
    rows = []
    for line in _SINEVA2021_TABLE8.splitlines():
        name, tr, te, *values = line.split("\t")
        row = PublishedRow(name, None if tr == "-" else tr, te,
                           dict(zip(SINEVA2021_COLUMNS, map(float, values))))
        if (system is None or row.system == system) and (train is None or row.train == train) \
                and (test is None or row.test == test):
            rows.append(row)
    return rows


def neges2018() -> Dict[str, Dict[str, Dict[str, float]]]:
    """NEGES 2018 task 2 results (Jiménez-Zafra et al. 2018, Tables 2-4).

    RETURNS (Dict[str, Dict[str, Dict[str, float]]]): team -> domain ('all' for overall)
        -> {"p", "r", "f"} in percent.
    """
    out: Dict[str, Dict[str, Dict[str, float]]] = {}
    for line in _NEGES2018.splitlines():
        team, domain, p, r, f = line.split("\t")
        out.setdefault(team, {})[domain] = {"p": float(p), "r": float(r), "f": float(f)}
    return out
