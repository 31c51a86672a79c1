"""The README's application example runs as written, with a tiny trained model in place of
the default model, and the negspacy migration it states holds."""
import contextlib
import io
import re
from pathlib import Path

import spacy
from spacy.tokens import Span

from util import REPO

README = REPO / "README.md"


def _app_block() -> str:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return next(b for b in blocks if 'nlp.add_pipe("negation")' in b)


def test_application_example_runs(trained_cnn_dir: Path):
    block = _app_block()
    code = block.replace('nlp.add_pipe("negation")', f'nlp.add_pipe("negation", config={{"model": {str(trained_cnn_dir)!r}}})')
    text = re.search(r'doc = nlp\("([^"]+)"\)', block).group(1)
    code = code.replace(text, "No one came to the party .")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {})
    assert out.getvalue().splitlines() == ["No | one came to the party"]


def test_cue_of_an_entity_is_one_attribute_away(trained_cnn_dir: Path):
    # README: ent._.negated where negspacy users read ent._.negex; the cue that negated an
    # entity is ent._.negations[0].cue_text
    nlp = spacy.blank("en")
    nlp.add_pipe("negation", config={"model": str(trained_cnn_dir)})
    doc = nlp.make_doc("No one came to the party .")
    doc.ents = [Span(doc, 5, 6, label="EVENT"), Span(doc, 0, 1, label="X")]
    doc = nlp.get_pipe("negation")(doc)  # the host doc with its entities
    party, no = sorted(doc.ents, key=lambda e: e.start, reverse=True)
    assert party._.negated and party._.negations[0].cue_text == "No"
    assert not no._.negated  # the cue itself is not in its scope
