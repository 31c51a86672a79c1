"""The README's Python examples run and print what the README says."""
import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def _blocks():
    text = README.read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_data_model_example_prints_what_it_says():
    block = next(b for b in _blocks() if "doc._.negations = [" in b)
    expected = [line[2:] for line in block.splitlines() if line.startswith("# ")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(README), "exec"), {})
    assert out.getvalue().splitlines() == expected


def test_readme_general_row_quotes_results_general():
    """The README's results row of the general model is results/general.json: the mean ±
    sd over its seeds (each split in its own convention, scripts/general_report.py)."""
    import json

    repo = Path(__file__).resolve().parents[2]
    report = json.loads((repo / "results" / "general.json").read_text(encoding="utf-8"))
    seeds = [report[split]["general_seeds"] for split in ("cdsco", "bioscope", "sfu", "bioscope_clinical")]
    assert all(len(s["seeds"]) >= 3 for s in seeds)  # a headline is a distribution
    cells = " | ".join(f"{100 * s['mean']['nis_tok_f']:.2f} ± {100 * s['sd']['nis_tok_f']:.2f}" for s in seeds)
    readme = (repo / "README.md").read_text(encoding="utf-8")
    assert (f"| `en_negation_general` (mean ± sd of {len(seeds[0]['seeds'])} seeds, each split in its "
            f"convention) | {cells} |") in readme


def test_readme_fast_model_claims_quote_results():
    """The README's claims about en_negation_fast are results/general.json (its NIS_tok
    row) and results/vs_rules.json (words per second; above every rule tool's F1 on each
    split)."""
    import json

    repo = Path(__file__).resolve().parents[2]
    readme = (repo / "README.md").read_text(encoding="utf-8")
    general = json.loads((repo / "results" / "general.json").read_text(encoding="utf-8"))
    cells = " | ".join(f"{100 * general[split]['fast']['scores']['nis_tok_f']:.2f}"
                       for split in ("cdsco", "bioscope", "sfu"))
    assert f"| `en_negation_fast` (each split in its convention) | {cells} |" in readme
    bench = json.loads((repo / "results" / "vs_rules.json").read_text(encoding="utf-8"))
    rules = ("negspacy_en", "negspacy_en_clinical", "medspacy_context")
    speeds = []
    for split in ("cdsco", "bioscope", "sfu"):
        fast = bench[split]["en_negation_fast"]
        assert all(fast["f"] > bench[split][rule]["f"] for rule in rules), split
        speeds.append(fast["words_per_second"])
    quoted = re.search(r"`en_negation_fast` resolves ([\d,]+) to ([\d,]+) words per second", " ".join(readme.split()))
    assert quoted is not None
    low, high = (int(x.replace(",", "")) for x in quoted.groups())
    assert (low, high) == (int(round(min(speeds), -3)), int(round(max(speeds), -3)))


def test_readme_default_model_speed_and_margin_quote_results():
    """The README's sentence on the default model's speed and its margin over the rule tools
    is results/vs_rules.json ("beats": every paired interval excludes 0)."""
    import json

    repo = Path(__file__).resolve().parents[2]
    readme = " ".join((repo / "README.md").read_text(encoding="utf-8").split())
    bench = json.loads((repo / "results" / "vs_rules.json").read_text(encoding="utf-8"))
    splits = ("cdsco", "bioscope", "sfu")
    general = [bench[split]["general"] for split in splits]
    assert all(g["model"] == "en_negation_general" for g in general)
    speeds = [g["words_per_second"] for g in general]
    quoted = re.search(r"`en_negation_general` resolves ([\d,]+) to ([\d,]+) words per second", readme)
    assert quoted is not None
    assert tuple(int(x.replace(",", "")) for x in quoted.groups()) == (
        int(round(min(speeds), -3)), int(round(max(speeds), -3)))
    diffs = [d for g in general for d in g["vs"].values()]
    assert all(d["ci_low"] > 0 for d in diffs)
    assert f"by {100 * min(d['diff'] for d in diffs):.1f} to {100 * max(d['diff'] for d in diffs):.1f} F1 points" in readme
    rules = [bench[split][tool]["words_per_second"] for split in splits
             for tool in ("negspacy_en", "negspacy_en_clinical", "medspacy_context")]
    assert f"the rule tools: {int(round(min(rules), -3)):,} to {int(round(max(rules), -3)):,} words per second" in readme
    # the prefilter window it names is the one project.yml packages the model with
    import srsly

    before, after = srsly.read_yaml(repo / "project.yml")["vars"]["general_prefilter_window"].split()
    assert f"only the words from {before} before the first cue word to {after} after the last" in readme


def test_readme_claim_cue_list_negates_concepts_before_following_triggers():
    """The README: with the en_clinical list, a cue after the concept negates it. The
    sentences it quotes, through the list's matches and the scope rule of a trigger that
    the model gave no scope (a BioScope/SFU model: no subject in scope)."""
    import spacy
    from spacy.tokens import Span

    from spacy_negation import Negation, register_extensions, set_negations
    from spacy_negation.pipeline.cue.pattern_lists import load_cue_patterns
    from spacy_negation.pipeline.cue.patterns import CuePatterns, constrain_scopes

    readme = " ".join(README.read_text(encoding="utf-8").split())
    quoted = re.search(r'a cue after the concept negates it too: "([^"]+)", "([^"]+)"', readme)
    assert quoted is not None and '"cue_patterns": "en_clinical"' in readme
    register_extensions()
    nlp = spacy.blank("en")
    patterns = CuePatterns(nlp.vocab, load_cue_patterns("en_clinical", nlp.make_doc))
    for text in quoted.groups():
        doc = nlp(text)
        concept = doc[: next(t.i for t in doc if t.lower_ in ("were", ":"))]
        doc.ents = [Span(doc, concept.start, concept.end, label="CONCEPT")]
        (cue,) = patterns.apply(doc, [])
        set_negations(doc, constrain_scopes(doc, [Negation(doc, cue, [])]))
        assert doc.ents[0]._.negated, text


def test_readme_clinical_claims_quote_results_clinical():
    """The README's clinical paragraph and results row are results/clinical.json (BioScope
    clinical test over seeds, scripts/clinical_report.py): the word-level F1 of both models, the
    margin over the best rule tool with its pooled interval, the shipped seed's own margin, and
    NIS_tok on both BioScope test splits."""
    import json

    repo = Path(__file__).resolve().parents[2]
    readme = " ".join((repo / "README.md").read_text(encoding="utf-8").split())
    report = json.loads((repo / "results" / "clinical.json").read_text(encoding="utf-8"))
    word = report["word"]
    vs = word["clinical"]["vs_best_rule"]
    assert len(vs["runs"]) >= 3 and vs["pooled"]["ci_low"] > 0  # "excludes 0" is claimed
    shipped = next(r for r in vs["runs"] if r["seed"] == report["shipped"]["clinical"])

    def ms(entry):
        return f"{entry['mean']:.2f} ± {entry['sd']:.2f}"

    best = report["rules"][report["best_rule"]]["f"]
    assert (f"`en_negation_clinical` scores {ms(word['clinical']['f'])} F1 on \"is this word negated?\" and the "
            f"default {ms(word['general']['f'])}, against {best:.2f} for ConText, the best rule tool") in readme
    assert report["best_rule"] == "medspacy_context"
    assert (f"({vs['mean']:+.2f} points; the paired interval pooled over the {len(vs['runs'])} clinical seeds, "
            f"{vs['pooled']['ci_low']:+.1f} to {vs['pooled']['ci_high']:+.1f}, excludes 0; the shipped seed alone "
            f"{shipped['diff']:+.1f}, {shipped['ci_low']:+.1f} to {shipped['ci_high']:+.1f})").replace("-", "−") in readme.replace("-", "−")
    starsem = report["starsem"]["clinical"]
    cells = f"{ms(starsem['bioscope']['neg_nis_tok_f'])} | - | {ms(starsem['bioscope_clinical']['neg_nis_tok_f'])}"
    assert f"| `en_negation_clinical` (mean ± sd of {len(vs['runs'])} seeds) | - | {cells} |" in readme


def test_readme_is_short():
    """The README is for users and links out (at most 120 lines); history is in results/."""
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 120


def test_readme_model_table_names_the_per_language_defaults_and_their_workflows():
    """Every model of the README's table is built by a project workflow (MODEL_WORKFLOWS,
    whose commands package it), and the rows that say "the default of spacy.blank(LANG)"
    name the host's default model of that language."""
    import srsly

    from spacy_negation.pipeline.model_loading import DEFAULT_MODELS, MODEL_WORKFLOWS

    text = README.read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([^|]+) \| `(\w+)` \|", text, re.M)
    models = {model for _, model in rows}
    assert {"en_negation_general", "es_negation_clinical", "nb_negation_norec"} <= models
    project = srsly.read_yaml(README.parent / "project.yml")
    scripts = " ".join(line for cmd in project["commands"] for line in cmd["script"])
    for key, value in project["vars"].items():
        scripts = scripts.replace("${vars.%s}" % key, str(value))
    for model in models:
        assert model in MODEL_WORKFLOWS, model
        assert f"--name {model[3:]}" in scripts, model  # a package command builds it
    for label, model in rows:
        lang = re.search(r'the default of `spacy\.blank\("(\w+)"\)`', label)
        if lang:
            assert DEFAULT_MODELS[lang.group(1)] == model
    assert DEFAULT_MODELS["en"] == "en_negation_general"


def test_readme_spanish_clinical_model_resolves_uncertainty_per_its_results():
    """The README: es_negation_clinical (and en_negation_speculation) also set doc._.speculations; its committed results
    (results/nubes.json, 3 seeds) have uncertainty cues and scopes found."""
    import json

    readme = " ".join(README.read_text(encoding="utf-8").split())
    assert "`es_negation_clinical` and `config={\"model\": \"en_negation_speculation\"}` also set `doc._.speculations`" in readme
    nubes = json.loads((README.parent / "results" / "nubes.json").read_text(encoding="utf-8"))
    uncertainty = nubes["test"]["uncertainty"]
    assert len(uncertainty["cue_f"]["seeds"]) >= 3
    assert uncertainty["cue_f"]["mean"] > 0.5 and uncertainty["st_f"]["mean"] > 0.5


def test_readme_speculation_model_claims_quote_results_speculation():
    """The README's en_negation_speculation sentence is results/speculation.json (3 seeds,
    scripts/speculation_report.py): its speculation cue F1 per split, its margin over ConText on
    "is this word uncertain?" (every interval above 0), the largest negation NIS_tok loss against
    the default's seeds, and its speed range; and that loss is why the default stays negation-only."""
    import json

    readme = " ".join(README.read_text(encoding="utf-8").split())
    spec = json.loads((README.parent / "results" / "speculation.json").read_text(encoding="utf-8"))
    splits = ("bioscope", "bioscope_clinical", "sfu")
    assert all(len(spec[split]["cue_f"]["seeds"]) >= 3 for split in splits)
    cues = ", ".join(f"{100 * spec[split]['cue_f']['mean']:.2f}" for split in splits[:2])
    assert f"finds hedge cues with F1 {cues} and {100 * spec['sfu']['cue_f']['mean']:.2f}" in readme
    words = [spec[split]["uncertain_word"] for split in splits]
    assert all(w["ci_low"] > 0 for w in words)
    diffs = [100 * (w["model_f"] - w["context_f"]) for w in words]
    assert f"{min(diffs):.1f} to {max(diffs):.1f} F1 points above ConText" in readme
    held = [spec[split] for split in splits] + list(spec.get("negation_only_splits", {}).values())
    losses = [100 * (h["neg_nis_tok_default"]["mean"] - h["neg_nis_tok_f"]["mean"]) for h in held if "neg_nis_tok_default" in h]
    assert max(losses) > 0.5  # the issue's bar: the default would lose negation
    assert f"up to {max(losses):.1f} NIS_tok points" in readme
    speeds = [w["words_per_second"] for w in words]
    assert f"{int(round(min(speeds), -3)):,} to {int(round(max(speeds), -3)):,} words per second" in readme
    from spacy_negation.pipeline.model_loading import DEFAULT_MODELS

    assert DEFAULT_MODELS["en"] == "en_negation_general"
