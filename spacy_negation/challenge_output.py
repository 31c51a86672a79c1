"""The challenge set's outputs: its expected negations as docs or a *SEM 2012 file, and the
results as JSON with a Markdown table beside it (``python -m spacy_negation challenge``)."""
from pathlib import Path
from typing import Any, Dict, List, Sequence, Union

from .challenge import Item, make_doc
from .metrics.core import markdown_table


def gold_docs(vocab: Any, items: Sequence[Item]) -> List[Any]:
    """The items as docs with their expected negations."""
    from .negation import set_negations

    docs = []
    for item in items:
        doc = make_doc(vocab, item)
        set_negations(doc, [{"cue": e.cue, "scope": e.scope} for e in item.expected])
        docs.append(doc)
    return docs


def write_gold(items: Sequence[Item], path: Union[str, Path]) -> int:
    """Write the challenge set with its expected negations as a *SEM 2012 CoNLL file.

    RETURNS (int): the number of sentences written.
    """
    import spacy

    from .corpora.starsem_docs import write_starsem_docs

    return write_starsem_docs(gold_docs(spacy.blank("en").vocab, items), path)


def markdown(data: Dict[str, Any]) -> str:
    """The Markdown report of the challenge results."""
    models = data["models"]
    names = list(models)
    fams = sorted({f for res in models.values() for f in res["families"]})
    lines = ["# Negation challenge set (templates of Gubelmann & Handschuh 2022)", "",
             "Error rate (%) of items failing any of the checks cue, act_in_scope, "
             "scope_in_sentence, unnegated_kept (expected negations in the convention "
             "the model was checked in, the row below; CD-SCO unless it says otherwise); "
             "invariance failures: items whose prediction changes when only "
             "the name, profession or gender changes. Written by "
             "`python -m spacy_negation challenge`.", ""]
    rows = []
    for f in fams + ["overall"]:
        cells = [models[n]["overall"] if f == "overall" else models[n]["families"].get(f) for n in names]
        rows.append([f] + [f"{c['error_rate']:.1f} ({c['errors']}/{c['n']})" if c else "–" for c in cells])
    rows.append(["convention"] + [models[n].get("convention", "cdsco") for n in names])
    rows.append(["invariance failures"] + [f"{models[n]['invariance_failures']} ({models[n]['invariance_groups']} groups)"
                                           for n in names])
    lines += markdown_table(["family", *names], rows, left=1)
    return "\n".join(lines) + "\n"


def write_results(path: Union[str, Path], data: Dict[str, Any]) -> List[Path]:
    """Write ``challenge.json`` and the Markdown beside it."""
    import json

    from .util import atomic_write_text

    path = Path(path)
    atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    md = path.with_suffix(".md")
    atomic_write_text(md, markdown(data))
    return [path, md]


__all__ = ["gold_docs", "write_gold", "markdown", "write_results"]
