"""The template challenge set for negation resolvers: expected negations (CD-SCO
convention), error counts with a fake pipeline whose predictions we control (hand
computed), invariance, and the command on a tiny CNN negation pipeline built offline."""
import json
from pathlib import Path
from typing import Callable, Sequence

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc

from spacy_negation import set_negations
from spacy_negation.challenge import build_item, build_items, evaluate_pipeline, load_pipeline, make_doc
from spacy_negation.cli import main
from spacy_negation.probe.templates import build_templates

REPO = Path(__file__).resolve().parents[1]
T = {t.id: t for t in build_templates()}


def _expected(item):
    return [([item.words[i][s:e] for i, s, e in x.cue], [item.words[i][s:e] for i, s, e in x.scope],
             [item.words[i] for i in x.acts]) for x in item.expected]


def test_expected_negations_follow_cd_sco():
    it = build_item(T["e1_f_2_not_contr_does"], "Mary", "a police officer", ["swim", "fish"], "read")
    assert it.text == ("Mary is a police officer who doesn't like to fish, nor does she like to swim. "
                       "However, she does like to read.")
    assert _expected(it) == [(["n't"], ["who", "does", "like", "to", "fish"], ["fish"]),
                             (["nor"], ["does", "she", "like", "to", "swim"], ["swim"])]
    it = build_item(T["e2_m_MP_but_none"], "Peter", "an architect", ["swim"], "read")
    assert _expected(it) == [(["n't"], ["who", "does", "like", "to", "swim"], ["swim"]),
                             (["not"], ["Peter", "like", "to", "swim"], ["swim"])]
    it = build_item(T["e3_m_Cleo_contr"], "Peter", "an architect", ["swim"], "read")
    assert _expected(it)[1] == (["Un"], ["like", "Peter"], [])
    assert build_item(T["e1_m_1_none_implic_does"], "Peter", "a judge", ["swim"], "read").expected == []
    it = build_item(T["e1_m_3_not_none"], "Peter", "a judge", ["swim", "fish", "surf"], "read")
    assert it.slots[:6] == ["NAME", "w1", "PROF", "PROF", "w3", "w4"]
    assert it.sent_starts.count(True) == 2


def _who_to_sentence_end(doc: Doc) -> Doc:
    """Each "n't" a cue, scoped from "who" (two tokens before) to the end of its sentence."""
    negs = []
    for tok in doc:
        if tok.text == "n't":
            end = tok.sent.end
            negs.append({"cue": [tok], "scope": [t for t in doc[tok.i - 2:end]
                                                 if t.i != tok.i and t.text not in {".", ","}]})
    set_negations(doc, negs)
    return doc


def _fake_nlp(func) -> Language:
    name = f"fake_negation_{func.__name__}"
    if name not in Language.factories:
        Language.component(name, func=func)
    nlp = spacy.blank("en")
    nlp.add_pipe(name)
    return nlp


def test_error_counts_hand_computed_with_a_fake_pipeline():
    """The fake finds only "n't" with the scope "who ... end of sentence": right for the
    1- and 3-ACT templates, a missed cue ("nor", "not", "Un") for the 2-ACT templates (6 of
    18 negated ones in experiment 1), MP_but (4 templates) and "Unlike" (1 of 3)."""
    items = build_items(sample=2, act_sets=1, seed=0)
    res = evaluate_pipeline(_fake_nlp(_who_to_sentence_end), items)
    fam = {k: (v["n"], v["errors"]) for k, v in res["families"].items()}
    assert fam == {"e1_negated": (36, 12), "e1_positive": (24, 0), "e2_MP": (8, 0),
                   "e2_MP_but": (8, 8), "e2_1rand": (4, 0), "e3_Cleo": (6, 2)}
    checks = res["overall"]["checks"]
    assert checks == {"cue": 22, "act_in_scope": 20, "scope_in_sentence": 0, "unnegated_kept": 0,
                      "scope_exact": 22}
    assert res["overall"]["errors"] == 22 and res["overall"]["error_rate"] == round(100 * 22 / 86, 2)
    assert res["invariance_failures"] == 0


def _whole_doc_unless_paul(doc: Doc) -> Doc:
    """Scope over every other token (crossing sentences), and nothing for "Paul"."""
    if doc[0].text == "Paul":
        return doc
    negs = [{"cue": [t], "scope": [u for u in doc if u.i != t.i]} for t in doc if t.text == "n't"]
    set_negations(doc, negs)
    return doc


def test_invariance_failures_and_sentence_checks():
    items = [build_item(T[tid], name, prof, ["swim"], "read")
             for tid, name, prof in (("e1_m_1_not_none", "Peter", "a judge"),
                                     ("e1_m_1_not_none", "Paul", "an architect"),
                                     ("e1_f_1_not_none", "Mary", "a police officer"))]
    assert len({it.group for it in items}) == 1
    res = evaluate_pipeline(_fake_nlp(_whole_doc_unless_paul), items)
    assert res["invariance_failures"] == 1 and res["invariance_groups"] == 1
    checks = res["overall"]["checks"]
    # Paul: cue and ACT missed; Peter and Mary: the scope leaves the sentence and covers
    # "He/She likes to read"
    assert (checks["cue"], checks["act_in_scope"], checks["scope_in_sentence"], checks["unnegated_kept"]) == (1, 1, 2, 2)
    assert res["overall"]["errors"] == 3


def test_load_pipeline_errors(tmp_path):
    with pytest.raises(ValueError, match=r"\[NEG-E620\]"):
        load_pipeline(str(tmp_path / "missing"))
    spacy.blank("en").to_disk(tmp_path / "blank")
    with pytest.raises(ValueError, match=r"\[NEG-E621\]"):
        load_pipeline(str(tmp_path / "blank"))


@pytest.fixture(scope="module")
def tiny_cnn_dir(tmp_path_factory) -> Path:
    """A tiny CNN negation pipeline (configs/test/negation_cnn_tiny.cfg) trained briefly on
    challenge gold docs, saved to disk."""
    from spacy.training import Example

    from spacy_negation.challenge import make_doc
    from spacy_negation.challenge_output import gold_docs

    config = spacy.util.load_config(REPO / "configs" / "test" / "negation_cnn_tiny.cfg", interpolate=True)
    nlp = spacy.util.load_model_from_config(config, auto_fill=True, validate=True)
    items = build_items(sample=2, act_sets=1, seed=1)
    examples = [Example(make_doc(nlp.vocab, it), ref) for it, ref in zip(items, gold_docs(nlp.vocab, items))]
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: examples)
    for _ in range(3):
        for batch in spacy.util.minibatch(examples, 16):
            nlp.update(batch, sgd=optimizer)
    out = tmp_path_factory.mktemp("challenge_cnn") / "model"
    nlp.to_disk(out)
    return out


def test_cli_challenge_on_a_tiny_negation_pipeline(tiny_cnn_dir, tmp_path):
    from spacy_negation.corpora.starsem import read_starsem

    out = tmp_path / "challenge.json"
    gold = tmp_path / "gold.txt"
    assert main(["challenge", str(tiny_cnn_dir), "--name", "tiny-cnn", "--sample", "2",
                 "--output", str(out), "--gold", str(gold)]) == 0
    data = json.loads(out.read_text())
    res = data["models"]["tiny-cnn"]
    assert set(res["families"]) == {"e1_negated", "e1_positive", "e2_MP", "e2_MP_but", "e2_1rand", "e3_Cleo"}
    n = 3 * (30 * 2 + 10 * 2 + 3 * 2)  # act sets x (templates x pairs)
    assert sum(f["n"] for f in res["families"].values()) == res["overall"]["n"] == n
    assert all(0 <= f["errors"] <= f["n"] for f in res["families"].values())
    assert isinstance(res["invariance_failures"], int)
    assert "tiny-cnn" in out.with_suffix(".md").read_text()
    sents = read_starsem(gold)
    assert len(sents) == n * 2 + 3 * (10 * 2)  # two sentences per item, three with a misprime
    # per pair and act set: exp. 1 (3 + 3 * 2 + 3) * 2 genders, exp. 2 (2 * 2 + 2 + 1) * 2, exp. 3 1 + 1 + 2
    assert sum(len(s.instances) for s in sents) == 3 * 2 * (12 * 2 + 7 * 2 + 4)


def test_cli_challenge_host_pipeline(tiny_cnn_dir, tmp_path):
    assert load_pipeline(str(tiny_cnn_dir), host="blank:en").pipe_names == ["negation"]
    out = tmp_path / "challenge.json"
    base = ["challenge", str(tiny_cnn_dir), "--sample", "1", "--output", str(out)]
    assert main(base + ["--name", "direct"]) == 0
    assert main(base + ["--name", "hosted", "--host", "blank:en"]) == 0
    models = json.loads(out.read_text())["models"]
    assert models["direct"] == models["hosted"]


def test_docs_are_marked_with_the_convention_they_are_checked_in(tiny_cnn_dir):
    """A model with components per convention annotates a doc in the convention it is
    marked with: the challenge marks every doc with the one it checks (checked in the CD-SCO
    convention, the general model annotated in its default, SFU's, and failed every item)."""
    from spacy_negation.negation import get_convention

    seen = []

    def _record_convention(doc: Doc) -> Doc:
        seen.append(get_convention(doc))
        return _sfu_style(doc)

    items = build_items(sample=1, act_sets=1, seed=0)
    res = evaluate_pipeline(_fake_nlp(_record_convention), items, convention="sfu")
    assert seen == ["sfu"] * len(items) and res["convention"] == "sfu"
    # a model of one convention in a host annotates in its own: no convention to choose
    hosted = load_pipeline(str(tiny_cnn_dir), host="blank:en", convention="sfu").get_pipe("negation")
    assert hosted.conventions == [] and hosted.convention is None


def _peter_item(template: str, annotate: Callable[[Doc], Doc], acts: Sequence[str] = ("swim",)):
    """A challenge item of a template with Peter, an architect, and the doc a fake pipeline
    annotating with ``annotate`` makes of it."""
    it = build_item(T[template], "Peter", "an architect", list(acts), "read")
    nlp = _fake_nlp(annotate)
    return it, nlp, nlp(make_doc(nlp.vocab, it))


def _sfu_style(doc: Doc) -> Doc:
    """SFU Review's cue of "doesn't": the whole word (``does`` + ``n't``), scope "like to A"."""
    negs = []
    for tok in doc:
        if tok.text == "n't":
            end = tok.sent.end
            negs.append({"cue": [doc[tok.i - 1], tok],
                         "scope": [t for t in doc[tok.i + 1:end] if t.text not in {".", ","}]})
    set_negations(doc, negs)
    return doc


def test_conventions_sfu_whole_word_cue_and_no_affixal_cue():
    from spacy_negation.challenge import check_item, expected_negations

    it, nlp, doc = _peter_item("e2_m_1rand_contr_does", _sfu_style)
    # in the CD-SCO convention "does n't" is not the cue n't; in SFU's it is
    assert check_item(it, doc._.negations)["cue"]
    failed = check_item(it, doc._.negations, "sfu")
    assert not failed["cue"] and not failed["act_in_scope"]
    assert check_item(it, doc._.negations, "bioscope")["cue"] is False
    # "Unlike": an affixal cue in CD-SCO, no negation at all in BioScope and SFU Review
    cleo = build_item(T["e3_m_Cleo_contr"], "Peter", "an architect", ["swim"], "read")
    assert [e.cue for e in expected_negations(cleo, "sfu")] == [e.cue for e in cleo.expected[:1]]
    with pytest.raises(ValueError, match=r"\[NEG-E622\]"):
        expected_negations(cleo, "negex")
    res = evaluate_pipeline(nlp, [it, cleo], convention="sfu")
    assert res["convention"] == "sfu" and res["overall"]["checks"]["cue"] == 0


def _but_not_name_only(doc: Doc) -> Doc:
    """As ``_who_to_sentence_end``, and every "not" after "but" a cue with the next token
    alone as its scope (as SFU Review and BioScope annotate "but not X")."""
    negs = list(_who_to_sentence_end(doc)._.negations)
    negs += [{"cue": [t], "scope": [doc[t.i + 1]]} for t in doc if t.text == "not" and doc[t.i - 1].text == "but"]
    set_negations(doc, negs)
    return doc


def test_but_not_name_scope_follows_the_convention():
    from spacy_negation.challenge import check_item, expected_negations

    it, _, doc = _peter_item("e2_m_MP_but_none", _but_not_name_only)
    assert [(n.cue_text, n.scope_text) for n in doc._.negations][1] == ("not", "Peter")
    # CD-SCO scopes "Peter like to swim": the ACT is missing
    failed = check_item(it, doc._.negations)
    assert not failed["cue"] and failed["act_in_scope"]
    for convention in ("sfu", "bioscope"):
        but_not = [e for e in expected_negations(it, convention) if it.words[e.cue[0][0]] == "not"]
        assert [[it.words[i] for i in e.acts] for e in but_not] == [["Peter"]]
        failed = check_item(it, doc._.negations, convention)
        assert not any(failed[c] for c in ("cue", "act_in_scope", "scope_in_sentence", "unnegated_kept"))
    # a scope without the name fails there too
    set_negations(doc, [n if n.cue_text != "not" else {"cue": n.cue, "scope": [doc[n.cue[0].i + 3]]}
                        for n in doc._.negations])
    assert check_item(it, doc._.negations, "sfu")["act_in_scope"]


def _joined_not_nor(doc: Doc) -> Doc:
    """ "n't" and "nor" of a sentence as one cue, scoped over the rest of the sentence."""
    for sent in doc.sents:
        cue = [t for t in sent if t.text in ("n't", "nor")]
        if len(cue) == 2:
            set_negations(doc, [{"cue": cue, "scope": [t for t in sent[cue[0].i - sent.start + 1:]
                                                       if t.text not in {".", ","} and t not in cue]}])
    return doc


def test_bioscope_accepts_not_nor_as_one_cue():
    from spacy_negation.challenge import check_item

    it, _, doc = _peter_item("e1_m_2_not_contr_does", _joined_not_nor, ("swim", "fish"))
    assert [n.cue_text for n in doc._.negations] == ["n't nor"]
    failed = check_item(it, doc._.negations, "bioscope")
    assert not failed["cue"] and not failed["act_in_scope"]
    assert check_item(it, doc._.negations, "sfu")["cue"] and check_item(it, doc._.negations)["cue"]
    # the scope must still hold both ACTs
    neg = doc._.negations[0]
    set_negations(doc, [{"cue": neg.cue, "scope": [t for t in neg.scope_tokens if t.text != "swim"]}])
    assert check_item(it, doc._.negations, "bioscope")["act_in_scope"]


def test_challenge_host_of_an_unknown_language_is_a_coded_error():
    with pytest.raises(ValueError, match=r"\[NEG-E126\] Unknown language 'klingon'"):
        load_pipeline("any_model", host="blank:klingon")


# --- the telegraphic clinical families (issue #60; development only) -----------------------------------

def _tele(family: str, concepts: Sequence[str], lead: str = "Follow-up visit .", header: str = "ROS"):
    from spacy_negation.challenge_telegraphic import build_item as build_tele

    return build_tele(family, concepts, lead, header)


@pytest.mark.parametrize("family,concepts,text,cue,scope,acts", [
    ("tele_no_list", ["fever", "chest pain", "cough"], "Follow-up visit. No fever, chest pain, or cough.",
     ["No"], ["fever", ",", "chest", "pain", ",", "or", "cough"], ["fever", "chest", "pain", "cough"]),
    ("tele_header_no", ["fever", "chills", "rash"], "Follow-up visit. ROS: No fever, chills or rash.",
     ["No"], ["fever", ",", "chills", "or", "rash"], ["fever", "chills", "rash"]),
    ("tele_denies", ["nausea", "night sweats", "rash"], "Follow-up visit. Denies nausea, night sweats, rash.",
     ["Denies"], ["nausea", ",", "night", "sweats", ",", "rash"], ["nausea", "night", "sweats", "rash"]),
    ("tele_none", ["Known drug allergies"], "Follow-up visit. Known drug allergies: none.",
     ["none"], ["Known", "drug", "allergies", ":"], ["Known", "drug", "allergies"]),
    ("tele_negative", ["Blood culture"], "Follow-up visit. Blood culture was negative.",
     ["negative"], ["Blood", "culture", "was"], ["Blood", "culture"]),
])
def test_telegraphic_families_expected_annotations(family, concepts, text, cue, scope, acts):
    it = _tele(family, concepts)
    assert it.family == family and it.text == text and len(it.expected) == 1
    assert _expected(it) == [(cue, scope, acts)]
    assert it.sent_starts.count(True) == 2 and it.sent_starts[3]  # the lead line, then the note line
    assert it.slots[:3] == ["LEAD"] * 3 and it.group == f"{family}|{'|'.join(concepts)}"


def test_telegraphic_families_are_registered_beside_the_probe_families():
    from spacy_negation.challenge import EXTRA_FAMILIES, build_extra_family
    from spacy_negation.challenge_telegraphic import FAMILIES, SPLIT

    assert SPLIT == "dev" and "telegraphic" in EXTRA_FAMILIES
    plain = build_items(sample=1, act_sets=1, seed=0)
    both = build_items(sample=1, act_sets=1, seed=0, extra=["telegraphic"])
    assert [it.text for it in both[:len(plain)]] == [it.text for it in plain]  # the default set is unchanged
    tele = both[len(plain):]
    assert [it.text for it in tele] == [it.text for it in build_extra_family("telegraphic", 1, 0)]
    assert {it.family for it in tele} == set(FAMILIES) and len(tele) == len(FAMILIES) * 2
    with pytest.raises(ValueError, match=r"\[NEG-E988\]"):
        build_extra_family("clinical")


def _gold_tele(doc: Doc) -> Doc:
    """The expected negations of the telegraphic items, recognised by their cue word."""
    return _tele_fake(doc, header_in_scope=False, scope_back=True)


def _tele_fake(doc: Doc, header_in_scope: bool, scope_back: bool) -> Doc:
    second = [t for t in doc if t.is_sent_start][1].i
    negs = []
    for tok in doc[second:]:
        if tok.text in ("No", "Denies"):
            start = second if header_in_scope else tok.i + 1
            negs.append({"cue": [tok], "scope": [t for t in doc[start:len(doc) - 1] if t.i != tok.i]})
        elif tok.text in ("none", "negative"):
            negs.append({"cue": [tok], "scope": list(doc[second:tok.i]) if scope_back else []})
    set_negations(doc, negs)
    return doc


def _header_and_forward_only(doc: Doc) -> Doc:
    """A resolver that puts the header in the scope of "No" and scopes only forwards."""
    return _tele_fake(doc, header_in_scope=True, scope_back=False)


def test_telegraphic_checks_with_fake_pipelines():
    from spacy_negation.challenge_telegraphic import build_telegraphic_items

    items = build_telegraphic_items(sample=2, seed=3)
    res = evaluate_pipeline(_fake_nlp(_gold_tele), items, convention="bioscope")
    assert res["overall"]["errors"] == 0 and res["overall"]["checks"]["scope_exact"] == 0
    assert res["invariance_failures"] == 0 and res["invariance_groups"] == 10
    res = evaluate_pipeline(_fake_nlp(_header_and_forward_only), items, convention="bioscope")
    fam = {k: (v["n"], v["errors"]) for k, v in res["families"].items()}
    assert fam == {"tele_no_list": (4, 0), "tele_header_no": (4, 4), "tele_denies": (4, 0), "tele_none": (4, 4),
                   "tele_negative": (4, 4)}
    assert res["families"]["tele_header_no"]["checks"]["unnegated_kept"] == 4  # the header is not negated
    assert res["families"]["tele_none"]["checks"]["act_in_scope"] == 4  # the concept before "none" is


def test_telegraphic_command_on_a_tiny_negation_pipeline(tiny_cnn_dir, tmp_path):
    from spacy_negation.challenge_telegraphic import FAMILIES
    from spacy_negation.challenge_telegraphic import main as tele_main

    out = tmp_path / "tele.json"
    assert tele_main([str(tiny_cnn_dir), "--name", "tiny", "--sample", "2", "--output", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["split"] == "dev" and set(data["models"]["tiny"]["families"]) == set(FAMILIES)
    assert data["models"]["tiny"]["overall"]["n"] == 2 * 2 * len(FAMILIES)
    assert data["models"]["tiny"]["convention"] == "bioscope"
    assert "development only" in out.with_suffix(".md").read_text()
