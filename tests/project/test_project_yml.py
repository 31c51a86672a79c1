"""project.yml: every workflow step is a command, every script and config a command uses
exists, every var is defined and commented (weasel validates the schema)."""
import re
from pathlib import Path

import pytest
from weasel.util import load_project_config

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def project():
    return load_project_config(REPO, interpolate=True)


def test_workflows_name_commands(project):
    names = {c["name"] for c in project["commands"]}
    assert {"all", "smoke", "cross-domain", "neges"} <= set(project["workflows"])
    for workflow, steps in project["workflows"].items():
        assert steps and set(steps) <= names, workflow


def test_main_workflow_builds_and_installs_the_default_model(project):
    """`make project` (`all`) ends with the package the `negation` component loads by default."""
    from spacy_negation.pipeline.model_loading import DEFAULT_MODEL

    steps = project["workflows"]["all"]
    assert steps[-1] == "install-general" and "train-general" in steps and "package-general" in steps
    install = next(c for c in project["commands"] if c["name"] == "install-general")
    assert any(DEFAULT_MODEL in line for line in install["script"])
    assert {"cdsco", "general-seeds"} <= set(project["workflows"])


def test_the_default_model_learns_from_the_teacher_trained_before_it(project):
    """`all` and `general-seeds` train the 6-layer teacher first; the default model's config
    reads its distributions from where that command writes it."""
    import spacy

    commands = {c["name"]: c for c in project["commands"]}
    for workflow, student in (("all", "train-general"), ("general-seeds", "train-general-seeds")):
        steps = project["workflows"][workflow]
        assert steps.index("train-general-teacher") < steps.index(student), workflow
    teacher_out = commands["train-general-teacher"]["outputs"]
    config_path = re.search(r"configs/\S+\.cfg", commands["train-general"]["script"][0]).group(0)
    config = spacy.util.load_config(REPO / config_path, interpolate=False)
    assert config["corpora"]["train"]["@readers"] == "spacy-negation.DistilledCorpus.v1"
    assert config["paths"]["teacher"] in teacher_out
    assert config["paths"]["teacher"] in commands["train-general"]["deps"]
    assert config["paths"]["teacher"] in commands["train-general-seeds"]["deps"]


def test_the_mpnet_distilled_student_learns_from_the_mpnet_teacher(project):
    """`general-mpnet` trains the MPNet teacher first; the student's config is the default's
    but for the teacher, which it reads from where the teacher command writes it."""
    import spacy

    commands = {c["name"]: c for c in project["commands"]}
    steps = project["workflows"]["general-mpnet"]
    assert steps.index("train-general-teacher-mpnet") < steps.index("train-general-mpnet-seeds")
    teacher = spacy.util.load_config(REPO / "configs" / "general_mpnet.cfg", interpolate=False)
    assert teacher["components"]["transformer"]["model"]["name"] == "all-mpnet-base-v2"
    student = spacy.util.load_config(REPO / "configs" / "general_l3_distil_mpnet.cfg", interpolate=False)
    default = spacy.util.load_config(REPO / "configs" / "general_l3_distil.cfg", interpolate=False)
    assert student["paths"]["teacher"] in commands["train-general-teacher-mpnet"]["outputs"]
    assert student["paths"]["teacher"] in commands["train-general-mpnet-seeds"]["deps"]
    assert student["paths"]["teacher"] != default["paths"]["teacher"]
    student["paths"]["teacher"] = default["paths"]["teacher"]
    assert student.to_str() == default.to_str()


def test_commands_over_every_seed_are_never_skipped(project):
    """The deps of a command can name one seed only (vars.seed): a command that reads every
    trained seed (evaluate, select, report) would be skipped as unchanged after more seeds
    trained, so general-seeds and clinical-seeds would report and ship seed 0 alone. (One
    model, `evaluate --model`, is named in its deps.)"""
    for command in project["commands"]:
        script = " ".join(command["script"])
        if re.search(r"general_seeds\.py (evaluate|select)(?! --model)|general_report\.py|general_compare\.py|clinical_report\.py report", script):
            assert command.get("no_skip") is True, command["name"]


def test_scripts_and_configs_exist(project):
    for command in project["commands"]:
        for line in command["script"]:
            assert "${" not in line, line
            for path in re.findall(r"(?:scripts|configs)/[\w./-]+\.(?:py|cfg)", line):
                assert (REPO / path).is_file(), (command["name"], path)


def test_every_var_is_commented():
    text = (REPO / "project.yml").read_text(encoding="utf-8")
    block = text.split("\nvars:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    for k, line in enumerate(block):
        if re.match(r"  \w+:", line):
            above = block[:k]
            assert above and (above[-1].strip().startswith("#") or re.match(r"  \w+:", above[-1])), line
    first = next(line for line in block if line.strip())
    assert first.strip().startswith("#")


def test_deps_and_outputs_are_single_paths(project):
    """Two bare "${vars...}" list items in a row are joined into one string by the
    config interpolation ("a, b"), which weasel then reports as a missing dependency."""
    for command in project["commands"]:
        for key in ("deps", "outputs", "outputs_no_cache"):
            for path in command.get(key, []):
                assert "${" not in path and ", " not in path, (command["name"], key, path)


def test_the_mpnet_report_reads_both_teachers_evaluated_by_the_workflow(project):
    """results/general_mpnet.* sets each teacher's own scores beside the students: every
    metrics folder the report reads is written by a command of the `general-mpnet` workflow."""
    commands = {c["name"]: c for c in project["commands"]}
    steps = project["workflows"]["general-mpnet"]
    report = " ".join(commands["report-general-mpnet"]["script"])
    for teacher in ("evaluate-general-teacher-mpnet", "evaluate-general-teacher"):
        assert steps.index(teacher) < steps.index("report-general-mpnet")
        folder = commands[teacher]["outputs"][0].rsplit("/", 1)[0]
        assert f"={folder}'" in report


def test_seed_trainings_go_through_general_seeds_train():
    """A seed folder (training/NAME/seedN) that general_seeds.py evaluates or selects is trained
    by `general_seeds.py train`, the one that marks a seed finished (training-finished.json):
    a seed trained by a bare `spacy train` would count as still training."""
    import srsly

    project = srsly.read_yaml(REPO / "project.yml")
    for command in project["commands"]:
        for line in command["script"]:
            assert not re.search(r"spacy train .*--output training/\S+/seed", line), (command["name"], line)
