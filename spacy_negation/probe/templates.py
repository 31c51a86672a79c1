"""The 43 templates of the pragmatic negation probe (Gubelmann & Handschuh 2022,
appendix B, tables 1-3, in the wording adopted after Dolby's proposals) and the lists
that fill them.

A template holds the placeholders ``FNAME``/``MNAME`` (a first name), ``PROF`` (a
profession with its article), ``ACT`` or ``ACT1``-``ACT3`` (activities) and ``MASK``.
The name and profession lists are our own (``data/*.txt``): the paper's US name
statistics and its 91 professions are not available offline.
"""
import re
from dataclasses import dataclass
from importlib import resources
from typing import Dict, List, Sequence, Tuple

#: The gender features of the templates and their pronouns.
PRONOUNS: Dict[str, str] = {"m": "he", "f": "she"}
#: The placeholders a template may hold, longest first (for replacement).
PLACEHOLDERS: Tuple[str, ...] = ("FNAME", "MNAME", "PROF", "ACT1", "ACT2", "ACT3", "ACT", "MASK")
_SLOT_RE = re.compile(r"FNAME|MNAME|PROF|ACT[123]?|MASK")


@dataclass(frozen=True)
class Template:
    """One probe template and its features (the columns of the paper's tables 1-3).

    id (str): a stable identifier, e.g. ``e1_m_3_not_contr_does_none``.
    experiment (int): 1 (negation vs positive), 2 (misprimes), 3 (referent change).
    n_acts (int): the number of activities (1-3).
    negation (str): ``"not"`` (the first sentence is negated) or ``"none"``.
    conjunction (str): ``"contr_does"`` ("However, ... does", "in contrast"), ``"does"``
        (contrastive "does" alone), ``"contr"`` ("Unlike"), ``"implic_does"`` ("So, ...
        really does") or ``"none"``.
    added (str): the added element: ``"none"``, ``"MP"`` (misprime), ``"MP_but"``
        (misprime with "but not"), ``"1rand"`` (an unrelated sentence) or ``"Cleo"``
        (another referent).
    gender (str): ``"m"`` or ``"f"``.
    text (str): the template text.
    """

    id: str
    experiment: int
    n_acts: int
    negation: str
    conjunction: str
    added: str
    gender: str
    text: str

    @property
    def features(self) -> Dict[str, object]:
        return {"experiment": self.experiment, "n_acts": self.n_acts, "negation": self.negation,
                "conjunction": self.conjunction, "added": self.added, "gender": self.gender}


def _exp1(g: str) -> List[Tuple[int, str, str, str]]:
    N = "FNAME" if g == "f" else "MNAME"
    p = PRONOUNS[g]
    P = p.capitalize()
    return [
        (3, "not", "contr_does", f"{N} is PROF who doesn't like to ACT3, ACT2, or ACT1. However, {p} does like to MASK."),
        (3, "not", "does", f"{N} is PROF who doesn't like to ACT3, ACT2, or ACT1. {P} does like to MASK."),
        (3, "not", "none", f"{N} is PROF who doesn't like to ACT3, ACT2, or ACT1. {P} likes to MASK."),
        (3, "none", "implic_does", f"{N} is PROF who tries to ACT3, ACT2, and ACT1 as often as possible. So, {p} really does like to MASK."),
        (3, "none", "none", f"{N} is PROF who tries to ACT3, ACT2, and ACT1 as often as possible. {P} really likes to MASK."),
        (2, "not", "contr_does", f"{N} is PROF who doesn't like to ACT2, nor does {p} like to ACT1. However, {p} does like to MASK."),
        (2, "not", "does", f"{N} is PROF who doesn't like to ACT2, nor does {p} like to ACT1. {P} does like to MASK."),
        (2, "not", "none", f"{N} is PROF who doesn't like to ACT2, nor does {p} like to ACT1. {P} likes to MASK."),
        (2, "none", "implic_does", f"{N} is PROF who tries to ACT2, and to ACT1 as often as possible. So, {p} really does like to MASK."),
        (2, "none", "none", f"{N} is PROF who tries to ACT2, and to ACT1 as often as possible. {P} really likes to MASK."),
        (1, "not", "contr_does", f"{N} is PROF who doesn't like to ACT. However, {p} does like to MASK."),
        (1, "not", "does", f"{N} is PROF who doesn't like to ACT. {P} does like to MASK."),
        (1, "not", "none", f"{N} is PROF who doesn't like to ACT. {P} likes to MASK."),
        (1, "none", "implic_does", f"{N} is PROF who tries to ACT as often as possible. So, {p} really does like to MASK."),
        (1, "none", "none", f"{N} is PROF who tries to ACT as often as possible. {P} really likes to MASK."),
    ]


def _exp2(g: str) -> List[Tuple[str, str, str]]:
    N = "FNAME" if g == "f" else "MNAME"
    first = f"{N} is PROF who doesn't like to ACT."
    return [
        ("contr_does", "MP_but", f"{first} Many people, but not {N}, like to ACT. {N}, in contrast, likes to MASK."),
        ("none", "MP_but", f"{first} Many people, but not {N}, like to ACT. {N} likes to MASK."),
        ("contr_does", "MP", f"{first} Of course, many people like to ACT. {N}, in contrast, likes to MASK."),
        ("none", "MP", f"{first} Of course, many people like to ACT. {N} likes to MASK."),
        ("contr_does", "1rand", f"{first} Today is Tuesday and the Sun is shining. {N} likes to MASK."),
    ]


def _exp3() -> List[Tuple[str, str]]:
    first = "MNAME is PROF who doesn't like to ACT."
    return [
        ("contr", f"{first} Unlike MNAME, Cleopatra does like to MASK."),
        ("does", f"{first} Cleopatra does like to MASK."),
        ("none", f"{first} Cleopatra likes to MASK."),
    ]


def build_templates() -> List[Template]:
    """The 43 templates: experiment 1 (30), experiment 2 (10), experiment 3 (3).

    RETURNS (List[Template]): in the order of the paper's tables.
    """
    out: List[Template] = []
    for g in ("m", "f"):
        for n, neg, conj, text in _exp1(g):
            out.append(Template(f"e1_{g}_{n}_{neg}_{conj}", 1, n, neg, conj, "none", g, text))
    for g in ("m", "f"):
        for conj, added, text in _exp2(g):
            out.append(Template(f"e2_{g}_{added}_{conj}", 2, 1, "not", conj, added, g, text))
    for conj, text in _exp3():
        out.append(Template(f"e3_m_Cleo_{conj}", 3, 1, "not", conj, "Cleo", "m", text))
    return out


def fill(template: Template, name: str, profession: str, acts: Sequence[str], mask: str) -> str:
    """Fill a template.

    template (Template): the template.
    name (str): the first name (for FNAME/MNAME).
    profession (str): the profession with its article, e.g. "an architect".
    acts (Sequence[str]): the activities ACT1, ACT2, ACT3 (``ACT`` is ACT1); at least
        ``template.n_acts`` of them.
    mask (str): what replaces MASK (the model's mask token, or a word).
    RETURNS (str): the filled text.
    """
    values = {"FNAME": name, "MNAME": name, "PROF": profession, "MASK": mask,
              "ACT": acts[0], "ACT1": acts[0]}
    if len(acts) > 1:
        values["ACT2"] = acts[1]
    if len(acts) > 2:
        values["ACT3"] = acts[2]
    return _SLOT_RE.sub(lambda m: values[m.group(0)], template.text)


def extraction_sentence(name: str, profession: str, gender: str, mask: str) -> str:
    """The sentence whose MASK prediction gives the ACT tokens (the paper's example 5:
    "Jessica is a printer and she likes to [MASK].")."""
    return f"{name} is {profession} and {PRONOUNS[gender]} likes to {mask}."


def _read_list(filename: str) -> List[str]:
    text = resources.files(__package__).joinpath("data").joinpath(filename).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def names(gender: str) -> List[str]:
    """The first names of a gender (``"m"`` or ``"f"``)."""
    return _read_list("male_names.txt" if gender == "m" else "female_names.txt")


def professions() -> List[str]:
    """The professions, each with its article ("an architect")."""
    return _read_list("professions.txt")


def activities() -> List[str]:
    """The activity verbs of the challenge set."""
    return _read_list("activities.txt")
