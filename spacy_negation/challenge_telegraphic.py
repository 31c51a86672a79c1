"""The telegraphic clinical families of the challenge set: invented note lines in
the clipped style of clinical notes, **for development only** (written for this package, not
drawn from any corpus or patient record; nothing is trained on them and no test result is
reported on them).

One family per template, each item a lead line (an affirmed note line such as "Seen in
clinic today.") followed by the telegraphic line:

- ``tele_no_list``: "No A, B, or C." (the cue first, a list after it);
- ``tele_header_no``: "HEADER: No A, B or C." (the header is not negated);
- ``tele_denies``: "Denies A, B, C.";
- ``tele_none``: "A: none." (a trigger after the concept negates it);
- ``tele_negative``: "A was negative.".

The expected negations follow BioScope, the convention of clinical notes in the package
(``data/clinical_synth/README.md``): the cue is the one negating word, a list after it is
its scope with the commas and the conjunction, and a trigger after the concept scopes back
over the concept (with the colon, or the verb: "[Blood culture was] negative"). A concept is
a slot ``ACT1``-``ACT3`` of the item, so :func:`spacy_negation.challenge.check_item` checks
that every concept lies in the scope of its cue (``act_in_scope``), that the cues are the
expected ones, that no scope leaves its line, and that the header of ``tele_header_no`` and
the lead line stay outside every scope (``unnegated_kept``). CD-SCO puts a subject in the
scope as BioScope does; SFU Review does not, so ``tele_none`` and ``tele_negative`` expect
what the SFU convention would not annotate: check in ``bioscope`` (the default here) or
``cdsco``.

Invariance: the items of a group share their template and concepts and differ in the lead
line and the header only, so they must get the same prediction up to those.

    python -m spacy_negation.challenge_telegraphic MODEL [MODEL ...] --convention bioscope \\
        --output metrics/vocabulary/challenge_telegraphic.json
"""
import argparse
import random
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .challenge import Item
from .challenge_expected import PUNCT, Expected
from .probe.templates import Template

#: The split of these families: development only.
SPLIT = "dev"
#: family -> (the template's tokens: ACT1-ACT3 concepts, HEADER; the cue's position; whether
#: the scope is after the cue (a list) or before it (the concept before a post-concept trigger))
TEMPLATES: Dict[str, Tuple[Tuple[str, ...], int, str]] = {
    "tele_no_list": (("No", "ACT1", ",", "ACT2", ",", "or", "ACT3", "."), 0, "after"),
    "tele_header_no": (("HEADER", ":", "No", "ACT1", ",", "ACT2", "or", "ACT3", "."), 2, "after"),
    "tele_denies": (("Denies", "ACT1", ",", "ACT2", ",", "ACT3", "."), 0, "after"),
    "tele_none": (("ACT1", ":", "none", "."), 2, "before"),
    "tele_negative": (("ACT1", "was", "negative", "."), 2, "before"),
}
FAMILIES = tuple(TEMPLATES)
#: Findings for the lists (invented vocabulary from general medical knowledge).
FINDINGS = ("fever", "chills", "night sweats", "chest pain", "palpitations", "nausea", "vomiting", "diarrhea",
            "dysuria", "headache", "rash", "cough", "wheezing", "leg swelling", "abdominal pain", "dizziness",
            "syncope", "weight loss", "hematuria", "joint pain", "blurred vision", "sore throat")
#: What a note line "A: none." names.
NONE_CONCEPTS = ("Allergies", "Known drug allergies", "Medications", "Tobacco use", "Alcohol use", "Prior surgeries",
                 "Complications", "Chest pain", "Edema", "Focal deficits", "Sick contacts", "Recent travel")
#: Tests with a result, for "A was negative."
TESTS = ("Blood culture", "Urine culture", "Troponin", "Strep test", "Influenza swab", "Pregnancy test",
         "Stool guaiac", "Hepatitis panel", "Lyme serology", "Urine drug screen", "Chest x-ray", "Monospot")
#: Section headers before "No A, B or C."
HEADERS = ("ROS", "Review of systems", "Symptoms", "Constitutional", "Pertinent negatives")
#: Affirmed lead lines.
LEADS = ("Seen in clinic today .", "Follow-up visit .", "Telephone encounter .", "Patient seen on rounds .",
         "History obtained from the patient .")


def build_item(family: str, concepts: Sequence[str], lead: str, header: str = "ROS") -> Item:
    """One item of a family: the lead line, then the template filled with the concepts
    (ACT1-ACT3 in order) and the header, with its expected negation.

    family (str): one of :data:`FAMILIES`.
    concepts (Sequence[str]): the concepts (as many as the template has; words split on spaces).
    lead (str): the lead line's tokens, space-separated.
    header (str): the header of ``tele_header_no``.
    RETURNS (Item): the item.
    """
    tokens, cue_at, direction = TEMPLATES[family]
    fillers = {f"ACT{k + 1}": concept.split() for k, concept in enumerate(concepts)}
    fillers["HEADER"] = header.split()
    words = lead.split()
    slots = ["LEAD"] * len(words)
    start = len(words)
    cue = -1
    for k, token in enumerate(tokens):
        if k == cue_at:
            cue = len(words)
        filled = fillers.get(token, [token])
        words += filled
        slots += [token if token in fillers else f"w{k}"] * len(filled)
    end = len(words) - 1  # the final "."
    spaces = [i + 1 < len(words) and words[i + 1] not in PUNCT | {":"} for i in range(len(words))]
    sent_starts = [i in (0, start) for i in range(len(words))]
    scope = list(range(cue + 1, end)) if direction == "after" else list(range(start, cue))
    expected = Expected(cue=[(cue, 0, len(words[cue]))], scope=[(i, 0, len(words[i])) for i in scope],
                        acts=[i for i in scope if slots[i].startswith("ACT")])
    n_acts = sum(1 for token in tokens if token.startswith("ACT"))
    template = Template(id=family, experiment=0, n_acts=n_acts, negation="not", conjunction="none",
                        added="telegraphic", gender="n", text=" ".join(tokens))
    group = f"{family}|{'|'.join(concepts)}"
    return Item(template, family, group, words, spaces, sent_starts, slots, [expected])


def build_telegraphic_items(sample: int = 20, seed: int = 0, variants: int = 2,
                            families: Sequence[str] = FAMILIES) -> List[Item]:
    """The telegraphic families: per family ``sample`` seeded choices of concepts, each
    filled with ``variants`` choices of lead line (and header): one invariance group each.

    sample (int): concept choices per family.
    seed (int): the random seed.
    variants (int): lead lines (and headers) per concept choice.
    families (Sequence[str]): the families (default: all of :data:`FAMILIES`).
    RETURNS (List[Item]): the items.
    """
    rng = random.Random(seed)
    items = []
    for family in families:
        tokens = TEMPLATES[family][0]
        n_acts = sum(1 for token in tokens if token.startswith("ACT"))
        pool = FINDINGS if n_acts > 1 else NONE_CONCEPTS if family == "tele_none" else TESTS
        for _ in range(sample):
            concepts = rng.sample(pool, n_acts)
            leads = rng.sample(LEADS, min(variants, len(LEADS)))
            headers = rng.sample(HEADERS, min(variants, len(HEADERS)))
            for lead, header in zip(leads, headers):
                items.append(build_item(family, concepts, lead, header))
    return items


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run negation pipelines on the telegraphic families and write the results (JSON and
    Markdown beside it), as ``python -m spacy_negation challenge`` does for the probe's."""
    import json

    from .challenge import evaluate_pipeline, load_pipeline
    from .challenge_output import markdown
    from .util import atomic_write_text

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("models", nargs="+", metavar="MODEL", help="a negation pipeline (name or path)")
    p.add_argument("--name", action="append", default=None, help="a name per model (default: its path)")
    p.add_argument("--convention", default="bioscope", choices=("cdsco", "bioscope", "sfu"))
    p.add_argument("--host", default=None, help="run MODEL as the 'negation' component of this host pipeline")
    p.add_argument("--sample", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--output", type=Path, default=Path("challenge_telegraphic.json"))
    args = p.parse_args(argv)
    names = args.name or list(args.models)
    if len(names) != len(args.models):
        p.error("give one --name per model or none")
    items = build_telegraphic_items(sample=args.sample, seed=args.seed)
    data: Dict[str, Any] = {"split": SPLIT, "families": list(FAMILIES), "models": {}}
    for model, name in zip(args.models, names):
        nlp = load_pipeline(model, host=args.host, convention=args.convention)
        result = evaluate_pipeline(nlp, items, convention=args.convention)
        data["models"][name] = result
        print(f"{name}: {result['overall']['errors']}/{result['overall']['n']} items with errors; "
              f"invariance failures {result['invariance_failures']}")
    atomic_write_text(args.output, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    table = markdown(data).split("\n", 1)[1].replace("`python -m spacy_negation challenge`",
                                                     "`python -m spacy_negation.challenge_telegraphic`")
    atomic_write_text(args.output.with_suffix(".md"),
                      "# Telegraphic clinical families of the challenge set (development only)\n" + table)
    print(f"wrote {args.output}")
    return 0


__all__ = ["FAMILIES", "SPLIT", "TEMPLATES", "build_item", "build_telegraphic_items", "main"]


if __name__ == "__main__":
    raise SystemExit(main())
