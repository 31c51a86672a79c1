"""Hypothesis strategies of *SEM sentences and corpora (random cues, scopes and events,
affixal cues and punctuation included) and of a system's changes to them: shared by the
tests of the *SEM and NIS metrics."""
from typing import List

from hypothesis import strategies as st

from spacy_negation.corpora.starsem import Instance, Sentence, TokenRow

POS_TAGS = ["NN", "VB", "RB", ".", ",", "-LRB-", "POS", "``"]
FORMS = ["not", "Mr.", "unhappy", "never", ",", "U.S.", "go", "x"]


@st.composite
def sentences(draw: st.DrawFn, max_len: int = 7) -> Sentence:
    n = draw(st.integers(1, max_len))
    forms = [draw(st.sampled_from(FORMS)) for _ in range(n)]
    rows = [TokenRow("d", "0", i, f, f, draw(st.sampled_from(POS_TAGS)), "*")
            for i, f in enumerate(forms)]
    k = draw(st.integers(0, min(3, n)))
    cue_tokens = draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k, unique=True))
    instances = []
    for c in cue_tokens:
        extra = draw(st.sets(st.integers(0, n - 1), max_size=1)) - set(cue_tokens)
        cue = sorted({c} | extra)
        cue_cells = [(p, forms[p][:2] if (forms[p] == "unhappy" and draw(st.booleans())) else forms[p])
                     for p in cue]
        scope = sorted(draw(st.sets(st.integers(0, n - 1), max_size=n)) - set(cue))
        event = sorted(draw(st.sets(st.sampled_from(scope), max_size=2))) if scope else []
        instances.append(Instance(cue=cue_cells, scope=[(p, forms[p]) for p in scope],
                                  event=[(p, forms[p]) for p in event]))
    return Sentence(rows=rows, instances=instances, line=1)


def mutated(draw: st.DrawFn, sent: Sentence) -> Sentence:
    """A system's version of a sentence: instances dropped, their scopes or cues redrawn,
    their order shuffled."""
    n = len(sent.rows)
    insts = []
    for inst in sent.instances:
        if draw(st.booleans()):
            continue
        scope = inst.scope if draw(st.booleans()) else [
            (p, sent.rows[p].form) for p in sorted(draw(st.sets(st.integers(0, n - 1), max_size=n)))]
        cue = inst.cue if draw(st.booleans()) else [(p, sent.rows[p].form) for p in sorted(
            draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=2)))]
        insts.append(Instance(cue=cue, scope=scope, event=inst.event))
    insts = draw(st.permutations(insts))
    return Sentence(rows=sent.rows, instances=list(insts), line=1)


@st.composite
def corpora(draw: st.DrawFn) -> List[Sentence]:
    return draw(st.lists(sentences(), min_size=1, max_size=5))
