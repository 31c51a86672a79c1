"""The pragmatic negation probe (Gubelmann & Handschuh 2022) on tiny randomly initialised
masked language models built offline (a WordPiece BERT and a byte-level BPE RoBERTa)."""
import ast
import json
from pathlib import Path
from typing import List

import pytest

from spacy_negation.cli import main
from spacy_negation.probe import templates as tpl
from spacy_negation.probe.run import act_repetition, is_repetition, sample_pairs, summarize

from tiny_mlm import save_bert, save_roberta
from util import cli_error

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bert_dir(tmp_path_factory) -> Path:
    return save_bert(tmp_path_factory.mktemp("tiny_mlm") / "bert")


@pytest.fixture(scope="module", params=["bert", "roberta"])
def mlm_dir(request, tmp_path_factory, bert_dir) -> Path:
    if request.param == "bert":
        return bert_dir
    return save_roberta(tmp_path_factory.mktemp("tiny_mlm") / "roberta")


def _full_ranking(path: Path, sentence: str) -> List[int]:
    """Token ids by probability at the mask, from the full forward pass of the plain
    transformers model (special tokens removed)."""
    tok = transformers.AutoTokenizer.from_pretrained(str(path), local_files_only=True)
    model = transformers.AutoModelForMaskedLM.from_pretrained(str(path), local_files_only=True).eval()
    enc = tok(sentence, return_tensors="pt")
    with torch.no_grad():
        logits = model(**enc).logits[0]
    pos = int((enc["input_ids"][0] == tok.mask_token_id).nonzero()[0, 0])
    order = torch.argsort(logits[pos], descending=True).tolist()
    special = set(tok.all_special_ids)
    return [i for i in order if i not in special]


def test_templates_are_the_papers_43():
    ts = tpl.build_templates()
    assert [sum(t.experiment == e for t in ts) for e in (1, 2, 3)] == [30, 10, 3]
    assert len({t.id for t in ts}) == 43
    e1 = [t for t in ts if t.experiment == 1]
    assert sum(t.negation == "not" for t in e1) == 18 and sum(t.gender == "f" for t in e1) == 15
    t = next(t for t in ts if t.id == "e1_f_3_not_contr_does")
    assert tpl.fill(t, "Petra", "an architect", ["swim", "fish", "surf"], "[MASK]") == (
        "Petra is an architect who doesn't like to surf, fish, or swim. However, she does like to [MASK].")
    t = next(t for t in ts if t.id == "e3_m_Cleo_contr")
    assert tpl.fill(t, "Peter", "a judge", ["swim"], "<mask>") == (
        "Peter is a judge who doesn't like to swim. Unlike Peter, Cleopatra does like to <mask>.")


def test_rank_tailored_act_extraction_returns_the_token_of_the_requested_rank(mlm_dir):
    from spacy_negation.probe.mlm import load
    from spacy_negation.probe.run import extract_acts

    mlm = load(mlm_dir, batch_size=2)
    pairs = [("Peter", "an architect", "m"), ("Mary", "a nurse", "f"), ("John", "a police officer", "m")]
    acts = extract_acts(mlm, pairs, ranks=[0, 3, 7])
    for pair in pairs:
        sentence = tpl.extraction_sentence(*pair, mlm.mask_token)
        ranking = _full_ranking(mlm_dir, sentence)
        for r in (0, 3, 7):
            assert acts[pair][r] == [mlm.decode(i) for i in ranking[r:r + 3]]
    with pytest.raises(ValueError, match=r"\[NEG-E605\]"):
        mlm.topk([f"Peter likes to {mlm.mask_token} and {mlm.mask_token}."], 1)


def test_act_repetition_hand_computed_with_a_constant_head(tmp_path):
    """With a zero decoder and a chosen bias, every mask's ranking is the bias order: the
    rank-0 ACT1 is always predicted (100 %), rank-50 ACTs never are (0 %)."""
    from spacy_negation.probe.mlm import load
    from spacy_negation.probe.run import run_probe

    path = save_bert(tmp_path / "const", tie=False)
    model = transformers.BertForMaskedLM.from_pretrained(str(path))
    tok = transformers.AutoTokenizer.from_pretrained(str(path))
    with torch.no_grad():
        model.cls.predictions.decoder.weight.zero_()
        bias = torch.arange(model.config.vocab_size, 0, -1, dtype=torch.float)  # id order
        model.cls.predictions.bias.copy_(bias)
        model.cls.predictions.decoder.bias.copy_(bias)
    model.save_pretrained(path)
    mlm = load(path)
    result = run_probe(mlm, sample=2, ranks=[0, 50], show_progress=False)
    first = tok.convert_ids_to_tokens(5)  # the first non-special id: "."
    assert result["meta"]["top_predictions"][0][0] == first
    for exp, n_templates in (("experiment_1", 30), ("experiment_2", 10), ("experiment_3", 3)):
        res = result[exp]
        n = n_templates * 2  # 2 pairs of each template's gender
        assert res["by_rank"] == {"0": {"n": n, "hits": n, "act_repetition": 100.0},
                                  "50": {"n": n, "hits": 0, "act_repetition": 0.0}}
        assert res["overall"] == {"n": 2 * n, "hits": n, "act_repetition": 50.0}
    gram = result["meta"]["grammaticality"]
    assert gram["predictions_words_pct"] == 0.0  # "." is no word
    assert gram["distinct_predictions"] == 1 and gram["top_prediction_pct"] == 100.0


def test_summarize_hand_computed():
    ts = [t for t in tpl.build_templates() if t.id in ("e1_m_1_not_none", "e1_m_1_none_none")]
    rows = ([{"template": "e1_m_1_not_none", "rank": 0, "hit": h} for h in (True, False, False, False)]
            + [{"template": "e1_m_1_none_none", "rank": 0, "hit": h} for h in (True, True, True, False)]
            + [{"template": "e1_m_1_not_none", "rank": 100, "hit": h} for h in (True, True)])
    res = summarize(rows, ts, [0, 100])["experiment_1"]
    assert res["headline_ranks"] == [0]
    assert res["by_negation"] == {"none": {"n": 4, "hits": 3, "act_repetition": 75.0},
                                  "not": {"n": 4, "hits": 1, "act_repetition": 25.0}}
    assert res["overall"]["act_repetition"] == 50.0
    assert res["by_negation_rank"]["not/100"] == {"n": 2, "hits": 2, "act_repetition": 100.0}
    assert act_repetition(1, 3) == 33.33
    from spacy_negation.probe.mlm import rank_tokens

    assert rank_tokens([7, 8, 9, 10], 1, 3) == [8, 9, 10]
    with pytest.raises(ValueError, match=r"\[NEG-E606\]"):
        rank_tokens([7, 8, 9, 10], 2, 3)
    assert is_repetition("Swim", ["draw", "swim"]) and not is_repetition("swimming", ["swim"])


def test_sample_pairs_seeded_and_bounded():
    assert sample_pairs("f", 5, 1) == sample_pairs("f", 5, 1) != sample_pairs("f", 5, 2)
    with pytest.raises(ValueError, match=r"\[NEG-E704\]"):
        sample_pairs("m", 0, 0)
    with pytest.warns(UserWarning, match=r"\[NEG-W601\]"):
        assert len(sample_pairs("m", 10 ** 6, 0)) == len(tpl.names("m")) * len(tpl.professions())


def test_encoder_without_head_needs_tied_head(tmp_path):
    from spacy_negation.probe.mlm import load

    enc = save_bert(tmp_path / "enc", head=False)
    with pytest.raises(ValueError, match=r"\[NEG-E602\]"):
        load(enc)
    with pytest.warns(UserWarning, match=r"\[NEG-W600\]"):
        mlm = load(enc, tied_head=True)
    # the tied head is LayerNorm(h) . E^T: the top token is the embedding nearest to it
    sentence = "Peter likes to [MASK]."
    batch = mlm.tokenizer([sentence], return_tensors="pt")
    with torch.no_grad():
        h = mlm.model.bert(**batch).last_hidden_state[0]
        pos = int((batch["input_ids"][0] == mlm.tokenizer.mask_token_id).nonzero()[0, 0])
        scores = torch.nn.functional.layer_norm(h[pos], h.shape[-1:], eps=mlm.model.config.layer_norm_eps) \
            @ mlm.model.get_input_embeddings().weight.T
    scores[mlm.special_ids] = float("-inf")
    assert mlm.topk([sentence], 1)[0][0] == int(scores.argmax())
    with pytest.raises(ValueError, match=r"\[NEG-E604\]"):
        load(save_bert(tmp_path / "full"), tied_head=True)
    with pytest.raises(FileNotFoundError, match=r"\[NEG-E600\]"):
        load(tmp_path / "missing")


def test_folder_without_a_model_or_without_a_mask_token(tmp_path):
    from spacy_negation.probe.mlm import load

    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match=r"\[NEG-E601\] Cannot load a masked language model from .*empty"):
        load(tmp_path / "empty")
    # a BERT whose tokenizer has no mask token: nothing to probe
    out = tmp_path / "no_mask"
    out.mkdir()
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", ".", "a", "b"]
    (out / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    tok = transformers.BertTokenizerFast(str(out / "vocab.txt"), mask_token=None)
    assert tok.mask_token is None
    tok.save_pretrained(out)
    config = transformers.BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1,
                                     num_attention_heads=2, intermediate_size=32)
    transformers.BertForMaskedLM(config).save_pretrained(out)
    with pytest.raises(ValueError, match=r"\[NEG-E603\] The tokenizer of .*no_mask has no mask token"):
        load(out)


def test_cli_probe_writes_json_markdown_png_and_merges(bert_dir, tmp_path, capsys):
    out = tmp_path / "res" / "probe.json"
    args = ["probe", str(bert_dir), "--sample", "2", "--ranks", "0", "1", "--output", str(out),
            "--no-progress"]
    assert main(args + ["--name", "tiny-a"]) == 0
    assert main(args + ["--name", "tiny-b", "--no-plot"]) == 0
    data = json.loads(out.read_text())
    assert set(data["models"]) == {"tiny-a", "tiny-b"}
    for res in data["models"].values():
        assert {"experiment_1", "experiment_2", "experiment_3", "meta"} <= set(res)
        assert res["experiment_1"]["overall"]["n"] == 30 * 2  # templates x pairs at the headline rank 0
        assert res["experiment_1"]["by_rank"]["1"]["n"] == 30 * 2
        assert res["meta"]["n_sentences"] == 43 * 2 * 2
    md = out.with_suffix(".md").read_text()
    assert "tiny-a" in md and "tiny-b" in md and "neg-roberta-large" in md
    assert out.with_suffix(".png").read_bytes()[:4] == b"\x89PNG"
    assert data["models"]["tiny-a"]["experiment_2"] == data["models"]["tiny-b"]["experiment_2"]  # seeded
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    assert main(["probe", str(bert_dir), "--output", str(bad), "--no-progress"]) == 1
    assert "[NEG-E608]" in capsys.readouterr().err
    assert main(["probe", str(bert_dir), "--name", "a", "--name", "b", "--output", str(out)]) == 1
    assert "[NEG-E609]" in capsys.readouterr().err


@pytest.mark.parametrize("module", ["spacy_negation/cli/probe.py", "spacy_negation/cli/challenge.py",
                                    "spacy_negation/probe/__init__.py", "spacy_negation/probe/templates.py",
                                    "spacy_negation/probe/run.py", "spacy_negation/probe/report.py",
                                    "spacy_negation/probe/mlm.py"])
def test_probe_modules_import_nothing_heavy_at_module_level(module):
    tree = ast.parse((REPO / module).read_text(encoding="utf-8"))
    top = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            top += [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            top.append((node.module or "").split(".")[0])
    assert not {"spacy", "torch", "transformers", "matplotlib", "thinc"} & set(top)


def test_probe_ranks_beyond_the_vocabulary(tmp_path, capsys):
    from spacy_negation.probe.mlm import load

    enc = save_bert(tmp_path / "enc", head=False)
    with pytest.warns(UserWarning, match=r"\[NEG-W600\]"):
        err = cli_error(capsys, "probe", enc, "--tied-head", "--ranks", "999999", "--output",
                        tmp_path / "out.json", "--no-progress", "--no-plot", "--sample", "1")
    assert "[NEG-E957]" in err and not (tmp_path / "out.json").exists()
    with pytest.warns(UserWarning, match=r"\[NEG-W600\]"):
        mlm = load(enc, tied_head=True)
    n = mlm.n_predictable
    assert len(mlm.topk(["Peter likes to [MASK]."], n)[0]) == n
    with pytest.raises(ValueError, match=r"\[NEG-E957\]"):
        mlm.topk(["Peter likes to [MASK]."], n + 1)
    # a negative rank is a usage error, before the model loads
    assert main(["probe", str(enc), "--tied-head", "--ranks", "-1", "--output", str(tmp_path / "out.json"),
                 "--no-progress", "--no-plot", "--sample", "1"]) == 2
    assert "[NEG-E971] --ranks must be a whole number from 0 to 1000000, got -1." in capsys.readouterr().err
