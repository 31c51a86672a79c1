"""Rendering negations with displaCy's span visualiser (``style="span"``).

One-liner::

    from spacy_negation import render
    html = render(doc)                      # or render(doc, jupyter=True) in a notebook

Each instance k gets the labels ``CUE k``, ``SCOPE k`` and ``EVENT k`` (cues red, scopes
blue, events green). An affixal part is drawn on its token and its label names the
characters it covers, e.g. ``CUE 2 [un]`` on *unhappy* and ``SCOPE 2 [happy]``.
"""
from typing import Any, Dict, List, Optional

from spacy.tokens import Doc

from .negation import get_negations, ROLES

COLORS = {"cue": "#ff9e9e", "scope": "#9ec5ff", "event": "#a6e3a1"}


def displacy_data(doc: Doc) -> Dict[str, Any]:
    """The doc's negations in displaCy's manual span format.

    doc (Doc): the doc.
    RETURNS (Dict[str, Any]): {"text", "tokens", "spans"} for ``displacy.render(...,
        style="span", manual=True)``.
    """
    spans: List[Dict[str, Any]] = []
    for k, neg in enumerate(get_negations(doc), 1):
        for role in ROLES:
            label = f"{role.upper()} {k}"
            run: List[int] = []
            for part in neg.parts(role) + (None,):
                whole = part is not None and not part.is_partial(doc)
                if run and not (part is not None and whole and part.i == run[-1] + 1):
                    spans.append(_span(doc, run[0], run[-1] + 1, label))
                    run = []
                if part is None:
                    break
                if whole:
                    run.append(part.i)
                else:
                    spans.append(_span(doc, part.i, part.i + 1, f"{label} [{part.text(doc)}]"))
    return {"text": doc.text, "tokens": [t.text for t in doc], "spans": spans}


def _span(doc: Doc, start: int, end: int, label: str) -> Dict[str, Any]:
    return {
        "start": doc[start].idx,
        "end": doc[end - 1].idx + len(doc[end - 1].text),
        "start_token": start,
        "end_token": end,
        "label": label,
    }


def render(doc: Doc, *, jupyter: Optional[bool] = None, page: bool = False,
           options: Optional[Dict[str, Any]] = None) -> str:
    """Render a doc's negations with displaCy (``style="span"``).

    doc (Doc): the doc.
    jupyter (Optional[bool]): display in a notebook (None: detect).
    page (bool): wrap the markup in a full HTML page.
    options (Optional[Dict[str, Any]]): extra displaCy options (merged over the colours).
    RETURNS (str): the HTML markup.
    """
    from spacy import displacy

    data = displacy_data(doc)
    colors = {}
    for span in data["spans"]:
        role = span["label"].split()[0].lower()
        colors[span["label"]] = COLORS.get(role, "#dddddd")
    opts: Dict[str, Any] = {"colors": colors}
    opts.update(options or {})
    return displacy.render(data, style="span", manual=True, jupyter=jupyter, page=page, options=opts)
