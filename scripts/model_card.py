"""Write the meta.json (with its model card) that ``spacy package --meta-path`` packages.

python scripts/model_card.py MODEL_DIR --domain bioscope --name negation_bioscope --version 0.1.0 \
    --cross results/cross_domain.json --out packages/meta_negation_bioscope.json
python scripts/model_card.py training/neges/model-best --domain neges --name negation_sfu --version 0.1.0 \
    --neges results/neges2018.json --out packages/meta_es_negation_sfu.json
python scripts/model_card.py training/clinical/model-best --domain clinical --name negation_clinical \
    --version 0.1.0 --prefilter --model-out training/clinical/model-package \
    --scores bioscope_clinical=metrics/clinical/on_bioscope_clinical.json \
    --scores bioscope=metrics/clinical/on_bioscope.json --clinical metrics/clinical/clinical_invented_dev.json \
    --out packages/meta/en_negation_clinical.json

The card (the package's README, which spaCy renders from the meta) states the training
data and its licence, the annotation convention, the scores in and out of domain from the
committed results files, the measured speed, the intended use and the known failure modes
(the texts of each domain: ``scripts/model_card_domains.py``).
Every score comes from the results file named; nothing here is typed by hand. With
--cue-patterns and --model-out it also writes a copy of the model whose ``negation_cue``
config sets that user cue list, the folder to package. The meta records the sha256 of
every file of the folder to package (``meta["spacy_negation"]["checksums"]``), which the
``negation`` component verifies when it loads the installed model.
"""
import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from spacy.util import load_config

from spacy_negation.metrics.core import markdown_table, pct
from spacy_negation.util import atomic_write_text

from model_card_domains import DOMAINS
from report_lib import fail

#: The spaCy versions a package declares: spaCy 3.7 too, so that the models install beside
#: medspaCy 1.3 (which needs spaCy < 3.8); tests/test_spacy37.py loads a model trained on 3.8
#: there. ``spacy package`` would otherwise pin the minor version it runs on.
SPACY_VERSION = ">=3.7.4,<3.9.0"
TRANSFORMERS_REQUIREMENT = "spacy-transformers>=1.3.4,<1.5.0"

CORPUS_NAMES = {"cdsco": "CD-SCO", "bioscope": "BioScope abstracts", "sfu": "SFU Review",
                "bioscope_clinical": "BioScope clinical", "norec": "NoReC_neg", "nubes": "NUBes (SAMPLE-001)",
                "nubes_iula": "IULA+", "bioscope_full_papers": "BioScope full papers"}

#: The end-to-end measures of an evaluate_model.py scores file the card states.
EVAL_MEASURES = (("Cues-B F1", "neg_cue_b_f"), ("NIS_ex F1", "neg_nis_ex_f"), ("Scope-tokens F1", "neg_st_f"),
                 ("NIS_tok F1", "neg_nis_tok_f"))


def cross_rows(domain: str, cross: Dict[str, Any]) -> List[str]:
    """Markdown rows: this model on each English test split, from cross_domain.json."""
    return markdown_table(["test split", "Cues-B F1", "NIS_ex F1", "Scope-tokens F1", "NIS_tok F1"],
                          [[CORPUS_NAMES[test] + (" (in domain)" if test == domain else "")]
                           + [pct(s[key]) for key in ("cues_b_f", "nis_ex_f", "st_f", "nis_tok_f")]
                           for test, s in cross["matrix"][domain].items()])


def resolves_speculation(model_meta_or_config: Dict[str, Any]) -> bool:
    """Whether a trained pipeline's config has a component with the speculation kind."""
    components = model_meta_or_config.get("components", {})
    return any("speculation" in (block or {}).get("kinds", []) for block in components.values()
               if isinstance(block, dict))


def eval_rows(label: str, scores: Dict[str, Any], *more: Tuple[str, Dict[str, Any]],
              speculation: bool = False) -> List[str]:
    """Markdown rows: the end-to-end measures of evaluate_model.py scores files, one row
    per (label, scores), and with ``speculation`` (a model that resolves it) one more per
    split whose scores have the speculation measures (a negation-only model scores 0 on
    the speculations of BioScope and SFU Review: no row)."""
    rows = []
    for row_label, row in ((label, scores), *more):
        rows.append([row_label] + [pct(row["scores"][key]) for _, key in EVAL_MEASURES])
        if speculation and all(key.replace("neg_", "spec_", 1) in row["scores"] for _, key in EVAL_MEASURES):
            rows.append([f"{row_label}, speculation"]
                        + [pct(row["scores"][key.replace("neg_", "spec_", 1)]) for _, key in EVAL_MEASURES])
    return markdown_table(["test split", *(name for name, _ in EVAL_MEASURES)], rows)


def clinical_rows(results: Dict[str, Any]) -> List[str]:
    """Markdown rows: every system of a bench/bench_clinical.py results file."""
    return markdown_table(["system", "P", "R", "F1 (95% CI)"],
                          [[system, pct(e["p"]), pct(e["r"]), f"{pct(e['f'])} ({pct(e['ci_low'])}-{pct(e['ci_high'])})"]
                           for system, e in results.items()])


def _convention_text(text: str, default_convention: Optional[str]) -> str:
    """A card's convention text, with the default convention of a per-convention pipeline."""
    if "{default}" not in text:
        return text
    if default_convention not in CORPUS_NAMES:
        raise ValueError(f"the card needs --default-convention (one of {sorted(CORPUS_NAMES)})")
    return text.format(default=CORPUS_NAMES[default_convention])


def build_meta(model_meta: Dict[str, Any], domain: str, name: str, version: str,
               cross: Optional[Dict[str, Any]], neges: Optional[Dict[str, Any]],
               speed: Optional[float], clinical: Optional[Dict[str, Any]] = None,
               split_scores: Optional[Dict[str, Dict[str, Any]]] = None,
               default_convention: Optional[str] = None,
               prefilter_window: Optional[Sequence[int]] = None, speculation: bool = False) -> Dict[str, Any]:
    """The package meta: the model's own meta with the card's fields set.

    model_meta (Dict[str, Any]): the trained model's meta.json.
    domain (str): a key of DOMAINS.
    name, version (str): the package name (without the language prefix) and version.
    cross (Optional[Dict]): results/cross_domain.json (English models).
    neges (Optional[Dict]): results/neges2018.json (the Spanish model).
    speed (Optional[float]): measured words per second end to end on the test split.
    clinical (Optional[Dict]): a bench/bench_clinical.py results file (clinical_invented_dev.json).
    split_scores (Optional[Dict[str, Dict]]): per English test split (a key of
        CORPUS_NAMES), an evaluate_model.py scores file of the model in that split's convention.
    default_convention (Optional[str]): the convention a per-convention pipeline annotates
        unmarked docs in (named in the card's convention section).
    prefilter_window (Optional[Sequence[int]]): the cue components' prefilter window
        (named among the failure modes).
    speculation (bool): the model resolves speculation (its scores get speculation rows).
    RETURNS (Dict[str, Any]): the meta for ``spacy package --meta-path``.
    """
    info = DOMAINS[domain]
    lines = [f"# {info['lang']}_{name}: {info['title']}", "",
             "A trained pipeline of [spacy-negation](https://pypi.org/project/spacy-negation/): "
             "`negation_cue` and `negation_scope` on a shared transformer or CNN. Use it in any "
             f"pipeline with `nlp.add_pipe(\"negation\", config={{\"model\": \"{info['lang']}_{name}\"}})`.",
             "", "## Training data", "", info["data"], "", f"Licence of the data: {info['license_note']}",
             "", "## Annotation convention", "", _convention_text(info["convention"], default_convention), "", "## Intended use", "", info["use"], ""]
    if cross is not None:
        lines += ["## Scores (end to end, percent)", "", *cross_rows(domain, cross), "",
                  "From the project's `results/cross_domain.json`; the test splits, the conversion "
                  "and the metrics are described in its `results/cross_domain.md`.", ""]
    if neges is not None:
        o = neges["test"]["overall"]
        lines += ["## Scores (NEGES 2018 task 2 test, cue detection, percent)", "",
                  f"P {pct(o['p'])}, R {pct(o['r'])}, F1 {pct(o['f'])} (from the project's "
                  "`results/neges2018.json`, per domain in `results/neges2018.md`).", ""]
    if split_scores:
        (first, *rest) = [(CORPUS_NAMES[split], scores) for split, scores in split_scores.items()]
        lines += ["## Scores (end to end, each test split in its own convention, percent)", "",
                  *eval_rows(*first, *rest, speculation=speculation), "",
                  f"From the project's `metrics/{'general_fast' if domain == 'fast' else domain}/on_*.json` "
                  "(scripts/evaluate_model.py --convention).", ""]
    if clinical is not None:
        lines += ["## Is this clinical concept negated? (percent)", "", *clinical_rows(clinical), "",
                  "The project's clinical set, dev split (`data/clinical`, scored by "
                  "`bench/bench_clinical.py`; '+ en_clinical' rows run with the clinical cue list). "
                  "Invented by the project to its own guidelines: development only.", ""]
    if speed:
        lines += ["## Speed", "", f"{speed:,.0f} words per second end to end on its test split, "
                  "2 CPU cores, no GPU (the project's evaluation run).", ""]
    lines += ["## Known failure modes", ""]
    if cross is not None:
        worst = min((t for t in cross["matrix"][domain] if t != domain),
                    key=lambda t: cross["matrix"][domain][t]["nis_tok_f"])
        lines.append(f"- Outside its domain it loses most on {CORPUS_NAMES[worst]} (NIS_tok F1 "
                     f"{pct(cross['matrix'][domain][worst]['nis_tok_f'])}): other corpora annotate "
                     "negation differently (subjects, affixes, cue inventories).")
    if split_scores:
        worst = min(split_scores, key=lambda t: split_scores[t]["scores"]["neg_nis_tok_f"])
        lines.append(f"- Its weakest test split is {CORPUS_NAMES[worst]} (NIS_tok F1 "
                     f"{pct(split_scores[worst]['scores']['neg_nis_tok_f'])}, in that corpus's convention).")
    if prefilter_window is not None:
        before, after = prefilter_window
        lines.append(f"- For speed the network reads only the tokens from {before} before the first to {after} "
                     "after the last candidate cue word of a sentence: a scope or cue beyond them is not found.")
    if domain == "fast":
        lines.append("- The prefilter never looks at sentences without a cue word of its training data: "
                     "unseen cue words (for example 'denies') are not found, not even by the network; "
                     "add them with a user cue list.")
    if domain == "clinical":
        lines += ["- Part of the training data is synthetic: clinical phrasing far from its templates "
                  "(long narrative sentences, abbreviations) is resolved as BioScope would.",
                  "- Cue words its training data never marks as cues are not found (the prefilter "
                  "does not send their sentences to the network); add them with a user cue list."]
    elif "failure_modes" in info:
        lines += [f"- {text}" for text in info["failure_modes"]]
    else:
        lines.append("- Cue words that its training data never marks as cues (for example clinical denial "
                     "verbs such as 'denies') are not found; add them with a user cue list.")
    lines.append("- Scopes follow the convention above: compare with other tools only in the same convention.")
    meta = dict(model_meta)
    meta.update({"name": name, "version": version, "lang": info["lang"], "description": "\n".join(lines),
                 "license": info["license"], "sources": info["sources"],
                 "author": "spacy-negation", "url": "https://pypi.org/project/spacy-negation/"})
    return meta


def write_model_copy(model_dir: Path, out_dir: Path, cue_patterns: Optional[str] = None,
                     default_convention: Optional[str] = None, prefilter: bool = False,
                     prefilter_window: Optional[Sequence[int]] = None) -> None:
    """Write a copy of a negation pipeline with settings in its config; the copy replaces
    ``out_dir`` only once it is complete.

    model_dir (Path): the trained pipeline.
    out_dir (Path): the folder to write.
    cue_patterns (Optional[str]): a ``cue_patterns`` setting for the cue component of the
        default convention (``negation_cue`` in a one-convention pipeline), e.g. the
        shipped list's name ``en_clinical`` (its entries are stored with the component too).
    default_convention (Optional[str]): for a pipeline with components per annotation
        convention, the convention whose components annotate unmarked docs (the others
        then annotate only docs marked with theirs).
    prefilter (bool): turn on the sentence prefilter of every cue component.
    prefilter_window (Optional[Sequence[int]]): with ``prefilter``, every cue component's
        ``prefilter_window`` ([before, after]; None: whole sentences).
    """
    import spacy

    components: Dict[str, Dict[str, Any]] = {}
    default_cue = "negation_cue"
    # the settings from the saved config: no need to load the weights twice
    config = spacy.util.load_config(model_dir / "config.cfg", interpolate=False)["components"]
    if default_convention is not None:
        conventions = {name: (section.get("convention"), section["factory"]) for name, section in config.items()
                       if "annotate_unmarked" in section}
        if default_convention not in {convention for convention, _ in conventions.values()}:
            raise ValueError(f"{model_dir} has no components of the convention {default_convention!r} "
                             f"(it has: {sorted({c for c, _ in conventions.values() if c})})")
        for name, (convention, factory) in conventions.items():
            components[name] = {"annotate_unmarked": convention == default_convention}
            if convention == default_convention and factory == "negation_cue":
                default_cue = name
    if cue_patterns is not None:
        components.setdefault(default_cue, {})["cue_patterns"] = cue_patterns
    if prefilter:
        for name, section in config.items():
            if section.get("factory") == "negation_cue":
                components.setdefault(name, {})["prefilter"] = True
                if prefilter_window is not None:
                    components[name]["prefilter_window"] = list(prefilter_window)
    nlp = spacy.load(model_dir, config={"components": components})
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    try:
        nlp.to_disk(tmp)
        if out_dir.exists():
            shutil.rmtree(out_dir)
        tmp.rename(out_dir)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)


def record_checksums(meta: Dict[str, Any], folder: Path) -> None:
    """Record the sha256 of every file of the folder to package (meta.json aside) in the
    meta, ``meta["spacy_negation"]["checksums"]``: the ``negation`` component checks them
    when it loads the installed package (``[NEG-E375]`` for a file that differs).

    meta (Dict[str, Any]): the package meta (changed in place).
    folder (Path): the pipeline folder that ``spacy package`` packages.
    """
    if not (folder / "config.cfg").is_file():
        return  # not a pipeline folder (a meta alone): nothing to package
    from spacy_negation.pipeline.model_files import CHECKSUMS_KEY, META_KEY, file_checksums

    section = meta.get(META_KEY) if isinstance(meta.get(META_KEY), dict) else {}
    meta[META_KEY] = {**section, CHECKSUMS_KEY: file_checksums(folder)}


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model_dir", type=Path)
    parser.add_argument("--domain", choices=sorted(DOMAINS), required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--cross", type=Path, default=None, help="results/cross_domain.json")
    parser.add_argument("--neges", type=Path, default=None, help="results/neges2018.json")
    parser.add_argument("--speed-from", type=Path, default=None,
                        help="an evaluate_model.py scores JSON whose speed.words_per_second to state")
    parser.add_argument("--clinical", type=Path, default=None,
                        help="a bench/bench_clinical.py results JSON (metrics/clinical/clinical_invented_dev.json)")
    parser.add_argument("--scores", action="append", default=[],
                        help="SPLIT=FILE: an evaluate_model.py scores JSON of the model on an English "
                             "test split (cdsco, bioscope, sfu) in its convention; repeatable")
    parser.add_argument("--cue-patterns", default=None,
                        help="with --model-out: a cue_patterns setting (e.g. en_clinical) for negation_cue")
    parser.add_argument("--default-convention", default=None,
                        help="with --model-out: the convention whose components annotate unmarked docs "
                             "(a pipeline with components per convention: the general model)")
    parser.add_argument("--prefilter", action="store_true",
                        help="turn on the sentence prefilter of the cue components (with --model-out)")
    parser.add_argument("--prefilter-window", type=int, nargs=2, default=None, metavar=("BEFORE", "AFTER"),
                        help="with --prefilter: cut each sentence to BEFORE tokens before its first "
                             "candidate cue and AFTER tokens after its last")
    parser.add_argument("--model-out", type=Path, default=None,
                        help="write the model with --cue-patterns / --default-convention set here "
                             "(the folder to package)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.prefilter_window is not None and not args.prefilter:
        parser.error("--prefilter-window goes with --prefilter")
    if (args.cue_patterns is None and args.default_convention is None and not args.prefilter) != (args.model_out is None):
        parser.error("--model-out goes with --cue-patterns, --default-convention or --prefilter")
    try:
        model_meta = json.loads((args.model_dir / "meta.json").read_text(encoding="utf-8"))
        cross = json.loads(args.cross.read_text(encoding="utf-8")) if args.cross else None
        neges = json.loads(args.neges.read_text(encoding="utf-8")) if args.neges else None
        speed = (json.loads(args.speed_from.read_text(encoding="utf-8"))["speed"]["words_per_second"]
                 if args.speed_from else None)
        clinical = json.loads(args.clinical.read_text(encoding="utf-8")) if args.clinical else None
        split_scores = {}
        for text in args.scores:
            split, sep, path = text.partition("=")
            if not sep or split not in CORPUS_NAMES:
                raise ValueError(f"--scores {text!r}: expected SPLIT=FILE with SPLIT one of {sorted(CORPUS_NAMES)}")
            split_scores[split] = json.loads(Path(path).read_text(encoding="utf-8"))
        config_path = args.model_dir / "config.cfg"
        speculation = config_path.is_file() and resolves_speculation(load_config(config_path, interpolate=False))
        meta = build_meta(model_meta, args.domain, args.name, args.version, cross, neges, speed,
                          clinical, split_scores, args.default_convention, args.prefilter_window,
                          speculation=speculation)
        meta["spacy_version"] = SPACY_VERSION
        if (args.model_dir / "transformer").is_dir():
            meta["requirements"] = [TRANSFORMERS_REQUIREMENT]
        if args.model_out is not None:
            write_model_copy(args.model_dir, args.model_out, args.cue_patterns, args.default_convention,
                             args.prefilter, args.prefilter_window)
        record_checksums(meta, args.model_out or args.model_dir)
    except (OSError, ValueError, KeyError) as err:
        return fail(err)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(args.out, json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
