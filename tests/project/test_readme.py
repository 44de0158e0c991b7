"""README shows what the code does: its sample table adds up from the main job's
committed outcome record, a sample of that record repeats today, and its Python example
prints what its comments say."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

from tests.paths import ROOT

README = (ROOT / "README.md").read_text()


def _tool():
    spec = importlib.util.spec_from_file_location("readme_table", ROOT / "docs/tools/readme_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_outcome_record_is_the_whole_main_job_of_todays_suite():
    """docs/main-job holds one outcome per episode README's command runs today: a template
    added, renamed or given another variant count makes this fail until the record is
    regenerated (python docs/tools/readme_table.py)."""
    tool = _tool()
    recorded = [o["id"] for o in tool.load_record()]
    wanted = [s.key for s in tool.main_job_config().episodes()]
    assert len(recorded) == len(set(recorded))
    missing, extra = set(wanted) - set(recorded), set(recorded) - set(wanted)
    assert not missing and not extra, (f"{len(missing)} episodes of today's main job are not "
                                       f"recorded, {len(extra)} recorded ones are gone: "
                                       f"{sorted(missing)[:3]} {sorted(extra)[:3]}")
    assert recorded == wanted  # in the run's own order, so the file is byte-stable
    run = json.loads(tool.RUN.read_text())
    assert run["episodes"] == len(wanted)
    assert re.search(rf"\b{len(wanted):,} episodes", README), "README's episode count is stale"


def test_readme_names_the_default_suite_as_it_is():
    """README's "all N of ... reference templates, on M apps" is today's default suite."""
    from antrap_gym.device.sim.apps import default_apps
    from antrap_gym.tasks import TEMPLATES, get_suite

    ids = get_suite("antrap").templates
    apps = {p for t in ids for p in TEMPLATES[t].apps}
    launchable = {a.package for a in default_apps() if a.launchable}
    assert apps <= launchable
    m = re.search(r"all (\d+) reference templates of AndroidWorld and AnTrap, on (\d+) apps", README)
    assert m, "README no longer says how big the default suite is"
    assert (int(m.group(1)), int(m.group(2))) == (len(ids), len(apps)), (len(ids), len(apps))


def test_the_quoted_main_job_figures_are_run_json():
    """README's cost of the main job and docs/eval.md's output size are the recorded run's
    (run.json), and that run was timed on committed code of today's suite: a re-run that
    changes run.json without the documents, or a hand-edited figure, fails here."""
    tool = _tool()
    run = json.loads(tool.RUN.read_text())
    for key in ("wall_s", "cpu_s", "output_bytes", "output_files", "date", "commit", "machine"):
        assert run.get(key) is not None, f"run.json has no {key}: re-time the main job " \
                                         "(python docs/tools/readme_table.py)"
    assert not run.get("dirty_tree") and not run.get("untimed_rewrite"), run
    for name, (path, make) in tool.FIGURES.items():
        assert tool.quoted(name, path.read_text()) == make(run), \
            f"{path.name} quotes other figures than run.json's: {make(run)!r}"


def test_the_figures_tool_rewrites_a_stale_quote(tmp_path, monkeypatch):
    tool = _tool()
    run = json.loads(tool.RUN.read_text())
    copy = tmp_path / "README.md"
    copy.write_text(README.replace(tool.quoted("main-job-figures", README), "9.2 minutes"))
    monkeypatch.setattr(tool, "FIGURES", {"main-job-figures": (copy, tool.readme_figures)})
    assert tool.quoted("main-job-figures", copy.read_text()) == "9.2 minutes"
    assert tool.write_figures(run) == [copy]
    assert tool.quoted("main-job-figures", copy.read_text()) == tool.readme_figures(run)
    assert tool.write_figures(run) == []  # already current


def test_readmes_table_is_what_the_recorded_main_job_printed():
    tool = _tool()
    table = tool.render(tool.record_summary(tool.load_record()))
    assert tool.readme_table(README) == table, f"README's table is not the record's:\n{table}"


def _sample(config, per_cell: int = 1) -> list:
    """A seeded sample of the main job: for every agent x setting, `per_cell` template(s)
    of each app (first app a template touches) with a seeded variant."""
    import random

    from antrap_gym.tasks import get_template

    by_cell: dict[tuple, list] = {}
    for spec in config.episodes():
        app = get_template(spec.task).apps[0]
        by_cell.setdefault((spec.agent.label, spec.setting, app), []).append(spec)
    rng = random.Random(20231015)
    return [s for cell in sorted(by_cell) for s in rng.sample(by_cell[cell], per_cell)]


@pytest.mark.slow
def test_a_sample_of_the_recorded_episodes_repeats_outcome_by_outcome():
    """Every agent x setting x app: a seeded episode of the record, run again now through
    the evaluation harness, has the recorded success, steps, trap seed, trap events and
    actions (a digest). A change that moves any episode of the sample fails here; the
    record then needs regenerating, and README's table with it."""
    from antrap_gym.eval.worker import EpisodeRunner

    tool = _tool()
    config = tool.main_job_config()
    config.screens = "none"
    recorded = {o["id"]: o for o in tool.load_record()}
    sample = _sample(config)
    agents = {s.agent.label for s in sample}
    assert len(sample) >= 11 * 11 * 3 and agents == {"oracle", "replay", "random"}
    runner = EpisodeRunner(config, None)
    moved = []
    try:
        for spec in sample:
            fresh = tool.outcome(runner.run(spec))
            if fresh != recorded[spec.key]:
                moved.append((spec.key, {k: (recorded[spec.key][k], v) for k, v in fresh.items()
                                         if recorded[spec.key][k] != v}))
    finally:
        runner.close()
    assert not moved, f"{len(moved)} of {len(sample)} sampled episodes moved: {moved[:3]}"


def test_the_table_tool_notices_a_changed_figure(tmp_path):
    tool = _tool()
    table = tool.readme_table(README)
    changed = re.sub(r"\d+\.\d", lambda m: "99.9" if m.group(0) != "99.9" else "0.0", table, count=1)
    assert changed != table
    copy = tmp_path / "README.md"
    copy.write_text(README.replace(table, changed))
    assert tool.readme_table(copy.read_text()) == changed
    assert tool.write_readme(table, copy) and tool.readme_table(copy.read_text()) == table


def test_the_python_example_prints_what_its_comments_say():
    """README's "Use it from Python" block, run as written: the comment on each print
    line is the start of what it prints (up to " ..." or a parenthesis)."""
    block = re.search(r"## Use it from Python\n\n```python\n(.*?)\n```", README, re.S).group(1)
    out = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    printed = out.stdout.splitlines()
    expected = [ln.split("#", 1)[1] for ln in block.splitlines() if ln.startswith("print(") and "#" in ln]
    assert len(expected) == 2, "README's example lost its comments"
    for comment in expected:
        want = re.split(r" \.\.\.| \(", comment.strip())[0].strip()
        want = want[1:-1] if want.startswith('"') and want.endswith('"') else want
        assert any(line.startswith(want) for line in printed), (want, printed[:3])


def test_ci_runs_exactly_the_test_command_readme_gives(tmp_path):
    """.ci/run runs README's test block as written — the real README's `bash tests/run.sh`
    (here a stand-in script that leaves a mark), another README's other command — and
    fails on a README that has no such block."""
    block = README.split("Set up, then run the tests", 1)[1]
    assert block.split("```bash\n", 1)[1].split("\n```", 1)[0] == "bash tests/run.sh"
    (tmp_path / ".ci").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / ".ci" / "run").write_text((ROOT / ".ci" / "run").read_text())
    (tmp_path / "tests" / "run.sh").write_text("echo ran > mark.txt\n")

    def ci(readme: str) -> subprocess.CompletedProcess:
        (tmp_path / "README.md").write_text(readme)
        return subprocess.run(["bash", ".ci/run"], cwd=tmp_path, capture_output=True, text=True)

    out = ci(README)  # the real README
    assert out.returncode == 0, out.stderr
    assert "+ bash tests/run.sh" in out.stderr
    assert (tmp_path / "mark.txt").read_text() == "ran\n"
    (tmp_path / "mark.txt").unlink()
    other = "Set up, then run the tests:\n\n```bash\necho other > mark.txt\nfalse\n```\n"
    out = ci(other)  # README's command runs as written, and its failure is CI's
    assert out.returncode == 1
    assert (tmp_path / "mark.txt").read_text() == "other\n"
    (tmp_path / "mark.txt").unlink()
    out = ci("no test block here\n")
    assert out.returncode == 2 and "no test command" in out.stderr
    assert not (tmp_path / "mark.txt").exists()


def test_template_counts_say_what_they_count():
    """README's count of reference templates is the default suite's, and `antrap tasks`
    says what its longer list holds besides (the package's own templates, by suite)."""
    from antrap_gym.tasks import TEMPLATES, get_suite

    ref, extra = len(get_suite("antrap").templates), len(get_suite("antrap-extra").templates)
    assert ref + extra == len(TEMPLATES)
    assert re.search(rf"\b{ref} reference templates\b", README), "README's template count is stale"
    out = subprocess.run([sys.executable, "-m", "antrap_gym.cli.main", "tasks"], capture_output=True,
                         text=True, cwd=ROOT, timeout=120, env={**os.environ, "COLUMNS": "400"})
    assert out.returncode == 0, out.stderr
    title = out.stdout.splitlines()[0].strip()
    assert title.startswith(f"{len(TEMPLATES)} task templates: {ref} reference ("), title
    assert title.endswith(f"and {extra} antrap-gym's own (suite antrap-extra)"), title
