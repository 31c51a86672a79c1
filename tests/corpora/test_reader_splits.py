"""Document-level splits, split loading, statistics and the format registry (tiny data)."""
import configparser
import json
from pathlib import Path

import pytest
import spacy

import spacy_negation.corpora
from spacy_negation.corpora.docs import META_KEY
from spacy_negation.corpora.records import chars_to_parts
from spacy_negation.corpora.registry import format_names, get_reader
from spacy_negation.corpora.splits import (SPLIT_NAMES, SPLITS_DIR, load_split, make_document_split, read_split_ids,
                                           select_documents, split_file)
from spacy_negation.corpora.stats import corpus_statistics, negation_statistics
from spacy_negation.errors import NegationFormatError

from .test_sfu_reader import SAMPLE as SFU_SAMPLE
from .test_sfu_reader import write as write_sfu


def test_make_document_split_fractions_and_determinism():
    ids = [f"d{i}" for i in range(1273)]
    split = make_document_split(ids, seed=7)
    assert [len(split[s]) for s in SPLIT_NAMES] == [1018, 127, 128]
    assert sorted(sum(split.values(), [])) == sorted(ids)  # disjoint and complete
    assert split["dev"] == sorted(split["dev"], key=ids.index)  # corpus order kept
    assert make_document_split(ids, seed=7) == split
    assert make_document_split(ids, seed=8) != split


def test_make_document_split_stratified():
    ids = [f"{dom}/{k}" for dom in ("A", "B") for k in range(50)]
    split = make_document_split(ids, seed=1, strata={d: d.split("/")[0] for d in ids})
    for dom in ("A", "B"):
        assert [sum(d.startswith(dom) for d in split[s]) for s in SPLIT_NAMES] == [40, 5, 5]


def test_make_document_split_rejects_duplicates():
    with pytest.raises(ValueError, match=r"\[NEG-E434\]"):
        make_document_split(["a", "b", "a"], seed=1)


def test_chars_to_parts_whole_partial_and_longest_run():
    spans = [(0, 3), (4, 11), (12, 16)]  # tokens of 3, 7 and 4 characters
    assert chars_to_parts(spans, set(range(0, 3)) | set(range(6, 11))) == [(0, 0, 3), (1, 2, 7)]
    assert chars_to_parts(spans, {4, 5, 8, 9, 10}) == [(1, 4, 7)]
    assert chars_to_parts(spans, set()) == []


def _sfu_corpus(tmp_path: Path) -> Path:
    root = tmp_path / "sfu"
    for name in ("BOOKS/no1done.xml", "BOOKS/no2done.xml", "CARS/yes1done.xml"):
        write_sfu(root, SFU_SAMPLE, name)
    return root


def _split_dir(tmp_path: Path, splits: dict) -> Path:
    folder = tmp_path / "splits"
    folder.mkdir()
    (folder / "sfu.json").write_text(json.dumps({"splits": splits}), encoding="utf-8")
    return folder


def test_load_split_selects_documents(tmp_path):
    root = _sfu_corpus(tmp_path)
    splits = {"train": ["BOOKS/no1done", "CARS/yes1done"], "dev": ["BOOKS/no2done"], "test": []}
    folder = _split_dir(tmp_path, splits)
    assert read_split_ids("sfu", "dev", folder) == ["BOOKS/no2done"]
    train = load_split("sfu", "train", root, spacy.blank("en").vocab, n_sents=2, splits_dir=folder)
    assert [d.user_data[META_KEY]["doc_ids"][0] for d in train] == ["BOOKS/no1done"] * 2 + ["CARS/yes1done"] * 2
    assert negation_statistics(train)["documents"] == 2
    assert load_split("sfu", "test", root, splits_dir=folder) == []


def test_load_split_errors(tmp_path):
    root = _sfu_corpus(tmp_path)
    folder = _split_dir(tmp_path, {"train": ["BOOKS/no9done"], "dev": [], "test": []})
    with pytest.raises(NegationFormatError, match=r"\[NEG-E433\].*BOOKS/no9done"):
        load_split("sfu", "train", root, splits_dir=folder)
    with pytest.raises(ValueError, match=r"\[NEG-E131\] Unknown corpus split"):
        load_split("cdsco", "train", root, splits_dir=folder)
    with pytest.raises(ValueError, match=r"\[NEG-E131\] Unknown split"):
        load_split("sfu", "validation", root, splits_dir=folder)
    (folder / "sfu.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E432\]"):
        read_split_ids("sfu", "train", folder)
    (folder / "sfu.json").write_text(json.dumps({"splits": {"train": "BOOKS/no1done"}}), encoding="utf-8")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E432\]"):
        read_split_ids("sfu", "train", folder)


def test_select_documents_ignores_docs_without_metadata():
    nlp = spacy.blank("en")
    assert select_documents([nlp("no ids")], ["x"]) == []


def test_formats_registered():
    assert format_names() == ["bioscope", "bioscope_clinical", "neges2018", "neges2019", "norec_neg", "nubes", "sfu",
                              "starsem"]
    for name, func in (("bioscope", "read_bioscope"), ("bioscope_clinical", "read_bioscope_clinical"),
                       ("sfu", "read_sfu"), ("neges2018", "read_neges2018"),
                       ("neges2019", "read_neges2019"), ("starsem", "read_starsem_docs"),
                       ("norec_neg", "read_norec"), ("nubes", "read_nubes")):
        assert get_reader(name).__name__ == func


def test_unknown_format_is_a_coded_error():
    with pytest.raises(ValueError, match=r"\[NEG-E131\].*bioscope, bioscope_clinical, neges2018"):
        get_reader("conll2003")


def test_split_files_are_package_data():
    # the splits are found inside the package, not through the repository layout, and
    # setup.cfg ships them (so `convert --split` works after a non-editable pip install)
    package = Path(spacy_negation.corpora.__file__).resolve().parent
    assert SPLITS_DIR.parent.parent == package
    config = configparser.ConfigParser()
    config.read(package.parents[1] / "setup.cfg", encoding="utf-8")
    patterns = config["options.package_data"]["spacy_negation.corpora"].replace(",", " ").split()
    from spacy_negation.corpora.cue_augment import LEXICON_PATH

    names = ("bioscope_abstracts", "bioscope_clinical", "sfu", "nubes")
    for path in [split_file(name) for name in names] + [LEXICON_PATH]:
        assert path.is_file()
        assert any(path.relative_to(package).match(pattern) for pattern in patterns)


def test_committed_split_files_are_well_formed():
    folder = Path(__file__).resolve().parents[2] / "spacy_negation" / "corpora" / "data" / "splits"
    for name, n_docs in (("bioscope_abstracts", 1273), ("bioscope_clinical", 1954), ("sfu", 400)):
        data = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
        ids = [d for s in SPLIT_NAMES for d in data["splits"][s]]
        assert len(ids) == len(set(ids)) == n_docs
        assert [len(data["splits"][s]) for s in SPLIT_NAMES] == [round(n_docs * 0.8), round(n_docs * 0.1),
                                                                 n_docs - round(n_docs * 0.8) - round(n_docs * 0.1)]


def test_convert_split_option(tmp_path, capsys):
    from spacy_negation.cli import main as cli_main

    root = _sfu_corpus(tmp_path)  # its document ids are not in the committed SFU split
    out = tmp_path / "train.spacy"
    assert cli_main(["convert", "--format", "sfu", "--quiet", "--split", "sfu:train", str(root), str(out)]) == 1
    assert "[NEG-E433]" in capsys.readouterr().err and not out.exists()
    assert cli_main(["convert", "--format", "sfu", "--quiet", "--split", "sfu:validation", str(root), str(out)]) == 1
    assert "[NEG-E131]" in capsys.readouterr().err and not out.exists()


@pytest.mark.slow
def test_convert_split_option_on_the_corpus(tmp_path, shared_dir):
    from spacy_negation.cli import main as cli_main
    from spacy_negation.corpora.docbin import read_docbin

    out = tmp_path / "test.spacy"
    corpus = shared_dir / "corpora" / "bioscope" / "abstracts.xml"
    assert cli_main(["convert", "--format", "bioscope", "--quiet", "--split", "bioscope_abstracts:test",
                     str(corpus), str(out)]) == 0
    docs = read_docbin(out)
    assert corpus_statistics(docs) == json.loads(
        (Path(__file__).resolve().parents[2] / "results" / "corpus_stats.json").read_text()
    )["corpora"]["bioscope_abstracts"]["test"]


def test_other_packages_add_formats_through_entry_points(monkeypatch):
    import catalogue
    from importlib.metadata import EntryPoint, EntryPoints

    from spacy_negation.corpora.sfu import read_sfu

    plugin = EntryPoint("myformat", "spacy_negation.corpora.sfu:read_sfu", "spacy_negation_formats")
    monkeypatch.setattr(catalogue, "AVAILABLE_ENTRY_POINTS", EntryPoints((plugin,)))
    assert get_reader("myformat") is read_sfu
    assert "myformat" in format_names()
