"""``python -m spacy_negation evaluate MODEL DATA.spacy``: a trained pipeline scored on a gold
corpus with the *SEM, NIS and FairEval tables (``spacy evaluate`` prints spaCy's metrics only),
in a chosen convention, with its *SEM file and scores document."""
import copy
import json
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin

from spacy_negation.cli import main
from spacy_negation.negation import set_convention

from util import CNN_TINY, gold_sentences, load_test_nlp, make_examples, make_reference


@pytest.fixture()
def gold_path(tmp_path: Path) -> Path:
    nlp = spacy.blank("en")
    path = tmp_path / "gold.spacy"
    DocBin(docs=[make_reference(nlp.vocab, w, n) for w, n in gold_sentences()], store_user_data=True).to_disk(path)
    return path


def test_a_pipeline_on_a_corpus_prints_the_three_tables(trained_cnn_dir: Path, gold_path: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture) -> None:
    system, scores = tmp_path / "system.txt", tmp_path / "scores.json"
    assert main(["evaluate", str(trained_cnn_dir), str(gold_path), "--system-out", str(system),
                 "--output", str(scores)]) == 0
    out = capsys.readouterr().out
    assert f"{trained_cnn_dir} on {gold_path} (end to end;" in out
    assert "*SEM 2012" in out and "NIS_tok" in out and "FairEval" in out
    assert "Speculation" not in out  # the corpus annotates none
    document = json.loads(scores.read_text())
    assert document["scores"]["neg_cue_f"] == 1.0  # the tiny model learned these sentences
    assert document["gold_cues"] is False and document["speed"]["words"] > 0
    assert system.read_text().strip()  # the *SEM file of the annotation
    assert main(["evaluate", str(trained_cnn_dir), str(gold_path), "--json"]) == 0
    tables = json.loads(capsys.readouterr().out)
    assert tables["nis"]["nis_tok"]["f"] == document["detail"]["nis"]["nis_tok"]["f"] == 1.0


def test_scopes_on_gold_cues(trained_cnn_dir: Path, gold_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["evaluate", str(trained_cnn_dir), str(gold_path), "--gold-cues", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["starsem"]["cues"]["f"] == 1.0


def test_a_convention_the_model_has_no_components_for_is_an_error(tmp_path: Path, gold_path: Path,
                                                                  capsys: pytest.CaptureFixture) -> None:
    nlp = load_test_nlp(CNN_TINY, overrides={"components.negation_cue.convention": "bioscope",
                                             "components.negation_scope.convention": "bioscope"})
    for name in ("negation_cue", "negation_scope"):
        config = copy.deepcopy(dict(nlp.config["components"][name]))
        factory = config.pop("factory")
        config.update({"convention": "sfu", "annotate_unmarked": False, "scorer": None})
        nlp.add_pipe(factory, name=f"{name}_sfu", config=config)
    examples = make_examples(nlp)
    for eg in examples:  # half of them in each convention
        mark = "bioscope" if len(eg.reference) % 2 else "sfu"
        set_convention(eg.reference, mark)
        set_convention(eg.predicted, mark)
    nlp.initialize(lambda: examples)
    nlp.to_disk(tmp_path / "model")
    assert main(["evaluate", str(tmp_path / "model"), str(gold_path), "--convention", "cdsco"]) != 0
    err = capsys.readouterr().err
    assert "[NEG-E901]" in err and str(tmp_path / "model") in err and "bioscope, sfu" in err
    assert main(["evaluate", str(tmp_path / "model"), str(gold_path), "--convention", "sfu", "--json"]) == 0


def test_spacy_evaluate_output_holds_the_negation_scores(trained_cnn_dir: Path, gold_path: Path,
                                                         tmp_path: Path) -> None:
    """The README's `spacy evaluate` route: the console table shows spaCy's metrics only, the
    --output JSON has the package's neg_* scores."""
    import subprocess
    import sys

    out = tmp_path / "scores.json"
    proc = subprocess.run([sys.executable, "-m", "spacy", "evaluate", str(trained_cnn_dir), str(gold_path),
                           "--output", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "NIS" not in proc.stdout
    scores = json.loads(out.read_text())
    assert scores["neg_cue_f"] == 1.0 and "neg_nis_tok_f" in scores


def test_the_model_options_are_refused_with_two_starsem_files(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """`evaluate GOLD SYSTEM` with an option of the model route says so (it ignored them)."""
    from starsem_cases import GOLD

    gold = tmp_path / "gold.txt"
    gold.write_text(GOLD)
    for option in (["--convention", "sfu"], ["--gold-cues"], ["--batch-size", "8"],
                   ["--output", str(tmp_path / "s.json")]):
        assert main(["evaluate", str(gold), str(gold), *option]) == 1
        err = capsys.readouterr().err
        assert "[NEG-E973]" in err and option[0] in err
    assert not (tmp_path / "s.json").exists()


def test_a_corpus_with_speculation_gets_its_table(trained_cnn_dir: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture) -> None:
    """A corpus that annotates speculation (BioScope, SFU Review) is scored on it too, beside
    negation: the table and the JSON's "speculation" (the tiny model resolves none)."""
    from spacy_negation import register_extensions

    register_extensions()
    nlp = spacy.blank("en")
    docs = [make_reference(nlp.vocab, w, n) for w, n in gold_sentences()]
    docs[0]._.speculations = [{"cue": [docs[0][1]], "scope": [docs[0][0]]}]
    path = tmp_path / "spec.spacy"
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    assert main(["evaluate", str(trained_cnn_dir), str(path)]) == 0
    out = capsys.readouterr().out
    assert "Speculation (cues and scopes" in out and "CoNLL-2010 scopes" in out
    assert main(["evaluate", str(trained_cnn_dir), str(path), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["speculation"]["spec_cue_r"] == 0.0 and document["nis"]["nis_tok"]["f"] == 1.0
