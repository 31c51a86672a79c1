"""A template challenge set for negation resolvers, built from the templates of the
pragmatic negation probe (Gubelmann & Handschuh 2022, appendix B).

Every filled sentence of experiments 1-3 is annotated with its expected negations in the
CD-SCO convention (Morante & Daelemans 2012): the cue ``n't`` (of ``doesn't``) with the
relative clause as scope (``who does like to ACT``, cue and punctuation outside, as the
corpus annotates ``which would not come``), ``nor`` with its clause (``does he like to
ACT``), ``not`` of "Many people, but not NAME, like to ACT" with ``NAME like to ACT`` (as
"the noun but not the plural" in the corpus), and the affix ``un`` of "Unlike NAME" with
``like`` and ``NAME`` (as "not unlike some huge moth" in the corpus). Events are not
annotated (:mod:`spacy_negation.challenge_expected`). In the BioScope and SFU Review
conventions (:func:`expected_negations`) the expected negations differ where those corpora
annotate differently.

A pipeline's prediction of an item is checked with these questions (each failed one is an
error of the item):

- ``cue``: exactly the expected cues (token and character range);
- ``act_in_scope``: every ACT of an expected negation lies in the scope of the predicted
  negation with the same cue (for "but not NAME" in the BioScope and SFU Review
  conventions: NAME);
- ``scope_in_sentence``: no predicted scope leaves the sentence of its cue;
- ``unnegated_kept``: no token of the later sentences outside the expected negations
  ("Of course, many people like to ACT", "However, he does like to MASK", "Cleopatra does
  like to MASK") is in a predicted scope.

``scope_exact`` (the predicted scope equals the expected one) is reported but not counted
as an error. Invariance: items that differ only in name, profession and gender (same
template structure, same activities) must get the same prediction up to those fillers.
"""
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union, cast

from .challenge_expected import PUNCT, Expected, PartKey, cdsco_negations
from .errors import Errors
from .probe import templates as tpl
from .probe.templates import Template

CHECKS = ("cue", "act_in_scope", "scope_in_sentence", "unnegated_kept")


@dataclass
class Item:
    """One filled sentence of the challenge set.

    template (Template): its template.
    family (str): its template family (e.g. ``e1_negated``, ``e2_MP_but``, ``e3_Cleo``).
    group (str): its invariance group (template structure and activities).
    words (List[str]): the tokens; spaces (List[bool]) after each; sent_starts
        (List[bool]) sentence starts; slots (List[str]) the template slot of each token
        (``NAME``, ``PROF``, ``PRON``, ``ACT1``... or ``w<k>`` for the k-th literal word).
    expected (List[Expected]): the expected negations.
    """

    template: Template
    family: str
    group: str
    words: List[str]
    spaces: List[bool]
    sent_starts: List[bool]
    slots: List[str]
    expected: List[Expected]

    @property
    def text(self) -> str:
        return "".join(w + (" " if s else "") for w, s in zip(self.words, self.spaces))


def family(template: Template) -> str:
    """The template family of a template."""
    if template.experiment == 1:
        return "e1_negated" if template.negation == "not" else "e1_positive"
    return f"e{template.experiment}_{template.added}"


def _template_tokens(template: Template) -> List[str]:
    """The template's tokens in spaCy's English tokenization ("doesn't" -> "does" "n't")."""
    out: List[str] = []
    for chunk in template.text.split(" "):
        tail: List[str] = []
        while chunk and chunk[-1] in PUNCT:
            tail.insert(0, chunk[-1])
            chunk = chunk[:-1]
        if chunk.endswith("n't"):
            out += [chunk[:-3], "n't"]
        elif chunk:
            out.append(chunk)
        out += tail
    return out


def build_item(template: Template, name: str, profession: str, acts: Sequence[str], mask: str) -> Item:
    """Fill a template into a pre-tokenized, annotated challenge item.

    template (Template): the template.
    name (str), profession (str): the fillers (profession with its article).
    acts (Sequence[str]): ACT1-ACT3 (at least ``template.n_acts``).
    mask (str): the word that replaces MASK.
    RETURNS (Item): the item with its expected negations.
    """
    fillers = {"FNAME": [name], "MNAME": [name], "PROF": profession.split(), "MASK": [mask],
               "ACT": [acts[0]], "ACT1": [acts[0]]}
    for k in (2, 3):
        if len(acts) >= k:
            fillers[f"ACT{k}"] = [acts[k - 1]]
    words: List[str] = []
    slots: List[str] = []
    for k, tok in enumerate(_template_tokens(template)):
        if tok in fillers:
            slot = {"FNAME": "NAME", "MNAME": "NAME", "ACT": "ACT1"}.get(tok, tok)
            words += fillers[tok]
            slots += [slot] * len(fillers[tok])
        else:
            words.append(tok)
            slots.append("PRON" if tok.lower() in ("he", "she") else f"w{k}")
    spaces = [i + 1 < len(words) and words[i + 1] not in PUNCT and words[i + 1] != "n't"
              for i in range(len(words))]
    sent_starts = [i == 0 or words[i - 1] == "." for i in range(len(words))]
    return Item(template, family(template), _group_key(template, acts, mask), words, spaces,
                sent_starts, slots, cdsco_negations(words, sent_starts, slots))


def _group_key(template: Template, acts: Sequence[str], mask: str) -> str:
    structure = template.id.replace(f"_{template.gender}_", "_", 1)
    return f"{structure}|{','.join(acts[:template.n_acts])}|{mask}"


#: Families built apart from the probe's templates, added to the set by name
#: (``build_items(extra=...)``; development only): name -> "module:function" building them
#: with ``sample`` and ``seed``.
EXTRA_FAMILIES = {"telegraphic": "spacy_negation.challenge_telegraphic:build_telegraphic_items"}


def build_extra_family(name: str, sample: int = 20, seed: int = 0) -> List[Item]:
    """The items of a family of :data:`EXTRA_FAMILIES` (E988 for another name)."""
    import importlib

    if name not in EXTRA_FAMILIES:
        raise ValueError(Errors.E988.format(name=name, known=", ".join(EXTRA_FAMILIES)))
    module, func = EXTRA_FAMILIES[name].split(":")
    return list(getattr(importlib.import_module(module), func)(sample=sample, seed=seed))


def build_items(sample: int = 20, seed: int = 0, act_sets: int = 3,
                templates: Optional[Sequence[Template]] = None, extra: Sequence[str] = ()) -> List[Item]:
    """The challenge set: every template filled with ``sample`` (name, profession) pairs
    per gender and ``act_sets`` seeded choices of activities (ACT1-3 and the MASK word).

    sample (int): name-profession pairs per gender.
    seed (int): the random seed.
    act_sets (int): activity choices per template structure.
    templates (Optional[Sequence[Template]]): the templates (default: the 43).
    extra (Sequence[str]): families of :data:`EXTRA_FAMILIES` to add (``sample`` choices each).
    RETURNS (List[Item]): the items.
    """
    from .probe.run import sample_pairs

    templates = list(templates) if templates is not None else tpl.build_templates()
    rng = random.Random(seed)
    verbs = tpl.activities()
    choices = [rng.sample(verbs, 4) for _ in range(act_sets)]
    pairs = {g: sample_pairs(g, sample, seed) for g in ("m", "f")}
    items = []
    for t in templates:
        for choice in choices:
            acts, mask = choice[:3], choice[3]
            for name, prof, _g in pairs[t.gender]:
                items.append(build_item(t, name, prof, acts, mask))
    for family_name in extra:
        items += build_extra_family(family_name, sample, seed)
    return items


def _neg_parts(neg: Any, role: str) -> List[PartKey]:
    return sorted((p.i, p.start, p.end) for p in neg.parts(role))


#: The annotation conventions the challenge can check: CD-SCO as annotated; BioScope and SFU
#: Review have no affixal cues (no negation of "Unlike" is expected) and SFU Review marks a
#: negated auxiliary's whole word as the cue ("doesn't": ``does`` + ``n't``), which counts as
#: the expected ``n't`` there.
CONVENTIONS = ("cdsco", "bioscope", "sfu")


def _cue_key(item: Item, neg: Any, convention: str) -> Tuple[PartKey, ...]:
    cue = _neg_parts(neg, "cue")
    if convention != "cdsco" and len(cue) == 2:
        (a, _, _), (b, start, end) = cue
        whole = (a, 0, len(item.words[a])), (b, 0, len(item.words[b]))
        if b == a + 1 and item.words[b] == "n't" and not item.spaces[a] and tuple(cue) == whole:
            return ((b, start, end),)
    return tuple(cue)


def expected_negations(item: Item, convention: str = "cdsco") -> List[Expected]:
    """The item's expected negations in an annotation convention (CONVENTIONS); in the
    BioScope convention :func:`check_item` also accepts "n't ... nor" as one cue.

    BioScope and SFU Review have no affixal cues (no negation of "Unlike"), and both scope
    "but not X" as X alone (SFU Review: "..., but not enough" → *enough*; BioScope:
    "but not in Jurkat T cells" → *in Jurkat T cells*): there "Many people, but not NAME,
    like to ACT" must have NAME in the scope of *not*, and *like to ACT* may be in it (the
    CD-SCO scope stays the widest accepted, for ``unnegated_kept``).
    """
    if convention not in CONVENTIONS:
        raise ValueError(Errors.E622.format(convention=convention, known=", ".join(CONVENTIONS)))
    if convention == "cdsco":
        return list(item.expected)
    return [e if e.acts_bioscope_sfu is None else Expected(list(e.cue), list(e.scope), list(e.acts_bioscope_sfu))
            for e in item.expected if all(end - start == len(item.words[i]) for i, start, end in e.cue)]


def check_item(item: Item, predicted: Sequence[Any], convention: str = "cdsco") -> Dict[str, bool]:
    """Which checks the predicted negations of an item fail.

    item (Item): the item.
    predicted (Sequence[Negation]): the pipeline's negations on the item's doc.
    convention (str): the annotation convention the pipeline annotates in (CONVENTIONS).
    RETURNS (Dict[str, bool]): check name -> failed (see the module docstring), and
        ``scope_exact`` -> the scopes differ from the expected ones (always in the CD-SCO
        convention: subjects in scope).
    """
    expected = expected_negations(item, convention)
    pred = {_cue_key(item, n, convention): n for n in predicted}
    gold = {tuple(sorted(e.cue)): e for e in expected}
    if convention == "bioscope":
        # BioScope annotates "not ... nor" as one cue as often as as two (BioScope
        # abstracts train: 4 and 3): one cue made of two expected cues stands for both
        for key, neg in list(pred.items()):
            if len(key) > 1 and all((p,) in gold for p in key):
                del pred[key]
                pred.update({(p,): neg for p in key})
    sent_of = []
    k = -1
    for s in item.sent_starts:
        k += 1 if s else 0
        sent_of.append(k)
    failed = {c: False for c in CHECKS}
    failed["cue"] = set(pred) != set(gold)
    for cue, e in gold.items():
        neg = pred.get(cue)
        scope_tokens = {p[0] for p in _neg_parts(neg, "scope")} if neg is not None else set()
        if not set(e.acts) <= scope_tokens:
            failed["act_in_scope"] = True
    for n in predicted:
        cue_sents = {sent_of[p[0]] for p in _neg_parts(n, "cue")}
        if any(sent_of[p[0]] not in cue_sents for p in _neg_parts(n, "scope")):
            failed["scope_in_sentence"] = True
    covered: Set[int] = {p[0] for e in expected for p in e.cue + e.scope}
    must_stay = {i for i, w in enumerate(item.words)
                 if sent_of[i] > 0 and i not in covered and w not in PUNCT}
    predicted_scope = {p[0] for n in predicted for p in _neg_parts(n, "scope")}
    failed["unnegated_kept"] = bool(must_stay & predicted_scope)
    failed["scope_exact"] = any(
        pred.get(cue) is None or _neg_parts(pred[cue], "scope") != sorted(e.scope)
        for cue, e in gold.items())
    return failed


def signature(item: Item, predicted: Sequence[Any]) -> Tuple:
    """The prediction of an item up to its name, profession and gender fillers: each
    negation's cue and scope as template slots (the profession's tokens as one slot)."""
    def slots(parts: Iterable[PartKey]) -> Tuple:
        out = set()
        for i, start, end in parts:
            whole = start == 0 and end == len(item.words[i])
            out.add((item.slots[i], "" if whole else f"{start}:{end}"))
        return tuple(sorted(out))

    return tuple(sorted((slots(_neg_parts(n, "cue")), slots(_neg_parts(n, "scope"))) for n in predicted))


def make_doc(vocab: Any, item: Item) -> Any:
    """The item as a spaCy Doc with its tokens and sentence starts."""
    from spacy.tokens import Doc

    # spaCy's Doc stub types sent_starts as the invariant List[Union[bool, int, None]],
    # so a List[bool] is refused although Doc accepts any sequence of them.
    return Doc(vocab, words=item.words, spaces=item.spaces,
               sent_starts=item.sent_starts)  # type: ignore[arg-type]


def evaluate_pipeline(nlp: Any, items: Sequence[Item], batch_size: int = 64,
                      convention: str = "cdsco") -> Dict[str, Any]:
    """Run a negation pipeline on the challenge items and count the errors.

    nlp (Language): a pipeline that sets ``doc._.negations``.
    items (Sequence[Item]): the challenge items.
    batch_size (int): docs per batch.
    convention (str): the convention the pipeline annotates in (CONVENTIONS): every doc is
        marked with it, so a model with components per convention (the general English
        model) annotates in the convention it is checked in, as ``evaluate_model.py
        --convention`` does; a model of one convention annotates every doc as before.
    RETURNS (Dict[str, Any]): ``families`` (family -> ``n``, ``errors``, ``error_rate`` in
        %, and the failures of each check), ``overall`` (the same over all items) and
        ``invariance_failures`` (items whose prediction differs from the most common one
        of their invariance group), with ``invariance_groups``.
    """
    from .negation import get_negations, set_convention

    def marked(item: Item) -> Any:
        doc = make_doc(nlp.vocab, item)
        set_convention(doc, convention)
        return doc

    docs = nlp.pipe((marked(it) for it in items), batch_size=batch_size)
    families: Dict[str, Dict[str, Any]] = {}
    overall = _empty_cell()
    groups: Dict[str, Counter] = {}
    for item, doc in zip(items, docs):
        predicted = get_negations(doc)
        failed = check_item(item, predicted, convention)
        for cell in (families.setdefault(item.family, _empty_cell()), overall):
            cell["n"] += 1
            cell["errors"] += int(any(failed[c] for c in CHECKS))
            for c in CHECKS + ("scope_exact",):
                cell["checks"][c] += int(failed[c])
        groups.setdefault(item.group, Counter())[signature(item, predicted)] += 1
    for cell in list(families.values()) + [overall]:
        cell["error_rate"] = round(100.0 * cell["errors"] / cell["n"], 2) if cell["n"] else 0.0
    failures = sum(sum(c.values()) - max(c.values()) for c in groups.values())
    return {"convention": convention, "families": dict(sorted(families.items())), "overall": overall,
            "invariance_failures": failures, "invariance_groups": len(groups)}


def _empty_cell() -> Dict[str, Any]:
    return {"n": 0, "errors": 0, "checks": {c: 0 for c in CHECKS + ("scope_exact",)}}


def load_pipeline(model: str, host: Optional[str] = None, convention: Optional[str] = None) -> Any:
    """Load a negation pipeline for the challenge.

    model (str): a negation pipeline (negation_cue and negation_scope) or a pipeline with
        the 'negation' component (package name or path); with ``host``, the model the
        host's 'negation' component runs.
    host (Optional[str]): a host pipeline (name or path, or ``blank:LANG``) to which
        ``nlp.add_pipe("negation", config={"model": model})`` is added.
    convention (Optional[str]): with ``host`` and a model with components per convention,
        the convention the 'negation' component annotates in (its ``convention`` setting:
        the host's component marks the pieces it sends to the model itself, so
        :func:`evaluate_pipeline`'s marks do not reach it); a model of one convention
        annotates in its own.
    RETURNS (Language): the pipeline.
    RAISES (ValueError): a model or host that cannot be loaded (E620; an unknown language
        of ``blank:LANG`` names E126).
    """
    import spacy

    from .pipeline.negation import NegationResolver
    from .util import blank_nlp

    try:
        if host is not None:
            # an unknown language of blank:LANG: a coded error (E126), as in convert
            nlp = blank_nlp(host[6:]) if host.startswith("blank:") else spacy.load(host)
            resolver = cast(NegationResolver, nlp.add_pipe("negation", config={"model": model}))
            if convention is not None and resolver.conventions:
                nlp.remove_pipe("negation")
                nlp.add_pipe("negation", config={"model": model, "convention": convention})
            return nlp
        nlp = spacy.load(model)
    except (OSError, ValueError) as err:
        raise ValueError(Errors.E620.format(model=model, reason=err)) from err
    if not ({"negation_cue", "negation_scope"} <= set(nlp.pipe_names) or "negation" in nlp.pipe_names):
        raise ValueError(Errors.E621.format(model=model, pipes=", ".join(nlp.pipe_names)))
    return nlp


__all__ = ["Item", "Expected", "EXTRA_FAMILIES", "build_extra_family", "build_item", "build_items", "check_item",
           "evaluate_pipeline", "load_pipeline", "signature", "family"]
