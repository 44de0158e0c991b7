"""The evaluation harness: summary numbers, resume after SIGKILL, faulty workers, Ray."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from statistics import NormalDist

import pytest

from antrap_gym.eval import AgentSpec, EvalConfig, ResultsExist, evaluate, load_records
from antrap_gym.eval.pool import InlinePool, LocalPool, make_pool
from antrap_gym.eval.report import print_table
from tests.paths import ROOT


def small_config(agents=("oracle", "replay"), traps="external_interruption,loop,grounding_error",
                 runs=1, **kw) -> EvalConfig:
    return EvalConfig(agents=[AgentSpec.make(a) for a in agents], suite="antrap-mini",
                      traps=traps, runs=runs, screens="none", **kw)


Z = NormalDist().inv_cdf(0.975)


def wilson_ref(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval as the two roots p of (k/n - p)^2 = z^2 p (1 - p) / n."""
    ph = k / n
    a = 1 + Z * Z / n
    b = -(2 * ph + Z * Z / n)
    c = ph * ph
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


def newcombe_ref(p1: float, lu1: tuple[float, float], p2: float, lu2: tuple[float, float]
                 ) -> tuple[float, float]:
    """Newcombe's hybrid score interval for p1 - p2 (his method 10)."""
    (l1, u1), (l2, u2) = lu1, lu2
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def close(a, b) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def no_nan(text: str) -> dict:
    """Parse strict JSON: NaN / Infinity literals are an error."""
    def bad(const: str):
        raise AssertionError(f"non-standard JSON literal {const} in summary.json")
    return json.loads(text, parse_constant=bad)


def test_summary_numbers_recomputed_from_episodes(tmp_path):
    """Every figure of summary.json, recomputed from episodes.jsonl by plain counting and
    textbook formulas (no project code): rates, Pass@k, Wilson intervals, recovery, extra
    steps, trap average and drop with their intervals, a layer pooling three types."""
    traps = ("state_deadlock", "context_disruption", "loop", "external_interruption",
             "grounding_error")
    cfg = small_config(agents=("oracle", "replay", "random"),
                       traps="round,external_interruption,grounding_error", runs=2)
    summary = evaluate(cfg, tmp_path, workers=2, progress=False, artifacts=False)
    on_disk = no_nan((tmp_path / "summary.json").read_text())
    assert on_disk["agents"].keys() == summary["agents"].keys() == {"oracle", "replay", "random"}
    recs = load_records(tmp_path)
    assert len(recs) == len({r["id"] for r in recs}) == len(cfg.episodes())
    by = defaultdict(list)
    for r in recs:
        by[(r["agent"], r["setting"])].append(r)

    def rates(eps, groups_of=lambda r: (r["setting"], r["task"], r["variant"])):
        n, k = len(eps), sum(r["success"] >= 1 for r in eps)
        groups = defaultdict(list)
        for r in eps:
            groups[groups_of(r)].append(r["success"] >= 1)
        return n, k, len(groups), sum(any(g) for g in groups.values()), \
            max(len(g) for g in groups.values())

    def check_block(block, eps):
        n, k, g, gp, runs = rates(eps)
        assert block["n"] == n and block["successes"] == k and block["k"] == runs == 2
        assert close(block["success_rate"], k / n)
        assert all(close(x, y) for x, y in zip(block["ci95"], wilson_ref(k, n), strict=True))
        assert close(block["pass_at_k"], gp / g)
        assert all(close(x, y) for x, y in zip(block["pass_at_k_ci95"], wilson_ref(gp, g),
                                               strict=True))

    def check_recovery(block, eps):
        trapped = [r for r in eps if r["traps"]]
        assert block["trapped_episodes"] == len(trapped)
        assert close(block["trapped_fraction"], len(trapped) / len(eps))
        back = [r for r in trapped if all(ev["recovered"] for ev in r["traps"])]
        if trapped:
            assert close(block["recovery_rate"], len(back) / len(trapped))
            lo, hi = wilson_ref(len(back), len(trapped))
            assert close(block["recovery_ci95"][0], lo) and close(block["recovery_ci95"][1], hi)
        else:
            assert block["recovery_rate"] is None and block["recovery_ci95"] == [None, None]
        extra = [ev.get("extra_steps") or 0 for r in trapped for ev in r["traps"] if ev["recovered"]]
        if extra:
            assert close(block["mean_extra_steps"], sum(extra) / len(extra))
        else:
            assert block["mean_extra_steps"] is None  # null in strict JSON, not NaN
        return len(back), len(trapped), extra

    seen_partial_recovery = seen_extra = False
    for agent, a in on_disk["agents"].items():
        check_block(a["clean"], by[(agent, "clean")])
        for t in traps:
            check_block(a["traps"][t], by[(agent, t)])
            back, trapped, extra = check_recovery(a["traps"][t], by[(agent, t)])
            seen_partial_recovery |= 0 < back < trapped
            seen_extra |= any(x > 0 for x in extra)
        # trap average: unweighted mean; its interval the Wilson one of the pooled counts
        per = [sum(r["success"] >= 1 for r in by[(agent, t)]) / len(by[(agent, t)]) for t in traps]
        avg = sum(per) / len(per)
        clean_rate = a["clean"]["success_rate"]
        pooled = [r for t in traps for r in by[(agent, t)]]
        avg_ci = wilson_ref(sum(r["success"] >= 1 for r in pooled), len(pooled))
        assert close(a["trap_average"], avg)
        assert all(close(x, y) for x, y in zip(a["trap_average_ci95"], avg_ci, strict=True))
        assert close(a["drop"], clean_rate - avg)
        lo, hi = newcombe_ref(clean_rate, wilson_ref(a["clean"]["successes"], a["clean"]["n"]),
                              avg, avg_ci)
        assert close(a["drop_ci95"][0], max(-1.0, lo)) and close(a["drop_ci95"][1], min(1.0, hi))
        assert a["drop_ci95"][0] <= a["drop"] <= a["drop_ci95"][1]
        # Pass@k: the same for groups
        g_rates = [rates(by[(agent, t)]) for t in traps]
        pavg = sum(gp / g for _, _, g, gp, _ in g_rates) / len(traps)
        pavg_ci = wilson_ref(sum(gp for *_, gp, _ in g_rates), sum(g for _, _, g, _, _ in g_rates))
        assert close(a["trap_average_pass_at_k"], pavg)
        assert all(close(x, y) for x, y in zip(a["trap_average_pass_at_k_ci95"], pavg_ci,
                                               strict=True))
        clean_pk = a["clean"]["pass_at_k"]
        assert close(a["drop_pass_at_k"], clean_pk - pavg)
        _, _, g, gp, _ = rates(by[(agent, "clean")])
        lo, hi = newcombe_ref(clean_pk, wilson_ref(gp, g), pavg, pavg_ci)
        assert close(a["drop_pass_at_k_ci95"][0], max(-1.0, lo))
        assert close(a["drop_pass_at_k_ci95"][1], min(1.0, hi))
        # layers: round pools three types (groups stay per type, so k is still 2)
        assert set(a["layers"]) == {"round", "state", "action"}
        round_eps = [r for t in ("state_deadlock", "context_disruption", "loop")
                     for r in by[(agent, t)]]
        assert len(round_eps) == 3 * len(by[(agent, "loop")])
        check_block(a["layers"]["round"], round_eps)
        check_recovery(a["layers"]["round"], round_eps)
        check_block(a["layers"]["state"], by[(agent, "external_interruption")])
        check_block(a["layers"]["action"], by[(agent, "grounding_error")])
    # the data exercised the interesting cases, or the checks above prove little
    assert seen_partial_recovery and seen_extra
    assert on_disk["agents"]["oracle"]["trap_average"] == 1.0
    assert 0 < on_disk["agents"]["replay"]["trap_average"] < 1
    md = (tmp_path / "summary.md").read_text()
    assert "| oracle |" in md and "Trap avg" in md and "Pass@2" in md and "NaN" not in md
    assert "nan" not in (tmp_path / "summary.json").read_text().lower()


def test_summary_json_is_strict_json_with_nulls_for_missing_figures(tmp_path):
    """No trap settings: the trap average, drop and their intervals do not exist. They are
    null in summary.json (which any strict JSON parser reads), '–' in summary.md."""
    cfg = small_config(agents=("oracle",), traps="none")
    evaluate(cfg, tmp_path, workers=1, progress=False, artifacts=False)
    text = (tmp_path / "summary.json").read_text()
    a = no_nan(text)["agents"]["oracle"]
    assert a["clean"]["success_rate"] == 1.0 and a["traps"] == {}
    for key in ("trap_average", "drop", "trap_average_pass_at_k", "drop_pass_at_k"):
        assert a[key] is None, key
    for key in ("trap_average_ci95", "drop_ci95", "drop_pass_at_k_ci95"):
        assert a[key] == [None, None], key
    assert "NaN" not in text and "Infinity" not in text
    md = (tmp_path / "summary.md").read_text()
    row = next(line for line in md.splitlines() if line.startswith("| oracle |"))
    assert [c.strip() for c in row.strip("|").split("|")][2:4] == ["–", "–"]  # Trap avg, Drop


def test_same_config_same_results_whatever_the_worker_count(tmp_path):
    cfg = small_config(agents=("random",), traps="loop")
    evaluate(cfg, tmp_path / "one", workers=1, progress=False, artifacts=False)
    evaluate(cfg, tmp_path / "two", workers=2, progress=False, artifacts=False)

    def key(d):
        return {r["id"]: (r["success"], r["steps"], len(r["traps"])) for r in load_records(d)}

    assert key(tmp_path / "one") == key(tmp_path / "two")


def test_existing_results_need_resume(tmp_path):
    cfg = small_config(agents=("oracle",), traps="none")
    evaluate(cfg, tmp_path, workers=1, progress=False, artifacts=False)
    with pytest.raises(ResultsExist):
        evaluate(cfg, tmp_path, workers=1, progress=False, artifacts=False)
    again = evaluate(cfg, tmp_path, workers=1, resume=True, progress=False, artifacts=False)
    assert again["agents"]["oracle"]["clean"]["n"] == len(cfg.episodes())


def test_resume_after_sigkill_loses_nothing_and_duplicates_nothing(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "antrap_gym.cli.main", "eval", "--agent", "random",
           "--agent", "oracle", "--suite", "antrap-mini", "--traps", "all", "--workers", "2",
           "--screens", "none", "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    episodes = out / "episodes.jsonl.gz"
    deadline = time.time() + 120
    while time.time() < deadline:
        if episodes.exists() and len(load_records(episodes)) >= 25:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the eval and its workers, mid-write or not
    proc.wait(timeout=30)
    # and a torn write, as if killed mid-record: the last record's flush cut short
    episodes.write_bytes(episodes.read_bytes()[:-40])
    finished = load_records(episodes)  # the records whose bytes are all there
    assert 24 <= len(finished) < 132
    res = subprocess.run([*cmd, "--resume"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    final = load_records(out)
    ids = [r["id"] for r in final]
    assert len(ids) == len(set(ids)) == 132  # 6 templates x 11 settings x 2 agents
    by_id = {r["id"]: r for r in final}
    for r in finished:  # nothing finished before the kill was lost or redone
        assert by_id[r["id"]] == r
    assert json.loads((out / "summary.json").read_text())["agents"]["oracle"]["episodes"] == 66


def test_each_of_several_workers_takes_its_share_of_the_cores(tmp_path):
    """Two workers on the machine's cores: a model's agent in each runs on half of them
    (torch, loaded in the worker after the limit, reads it), not one thread per core each."""
    from antrap_gym.cpu_threads import share_of_cores

    marks = tmp_path / "marks"
    marks.mkdir()
    cfg = EvalConfig(agents=[AgentSpec.make("tests.faulty_agents:ThreadCountingAgent",
                                            out=str(marks))],
                     suite="antrap-mini", traps="none", screens="none")
    pool = LocalPool(cfg, tmp_path / "run", workers=2)
    records = []
    try:
        pool.run(cfg.episodes(), records.append)
    finally:
        pool.close()
    assert len(records) == len(cfg.episodes()) and not any(r.get("error") for r in records)
    counts = [int(p.read_text()) for p in marks.iterdir()]
    assert counts and all(n == share_of_cores(2) for n in counts), counts


def test_crashing_and_hanging_workers_are_replaced(tmp_path):
    cfg = EvalConfig(agents=[AgentSpec.make("tests.faulty_agents:CrashingAgent"),
                             AgentSpec.make("tests.faulty_agents:HangingAgent"),
                             AgentSpec.make("tests.faulty_agents:RaisingAgent")],
                     suite="antrap-mini", traps="none", screens="none", episode_timeout_s=3.0)
    pool = LocalPool(cfg, tmp_path, workers=2)
    records = []
    t0 = time.time()
    try:
        pool.run(cfg.episodes(), records.append)
    finally:
        pool.close()
    assert time.time() - t0 < 60  # never waits on a lost worker
    by = {r["id"]: r for r in records}
    assert len(by) == len(records) == len(cfg.episodes())
    crash = by["CrashingAgent|SettingsBrightness|0|clean|0"]
    assert "worker died" in crash["error"] and "2 attempts" in crash["error"]
    hang = by["HangingAgent|SettingsBrightness|0|clean|0"]
    assert "timed out" in hang["error"]
    bug = by["RaisingAgent|SettingsBrightness|0|clean|0"]
    assert bug["success"] == 0 and "agent bug" in (bug["error"] or "")
    others = [r for r in records if "SettingsBrightness" not in r["id"]]
    assert others and all(r["success"] == 1.0 and not r["error"] for r in others)
    assert pool.replaced >= 4  # two crashes and two timeouts, each tried twice


def faulty_config(timeout: float = 3.0, flag: Path | None = None, **kw) -> EvalConfig:
    opts = {"only_while": str(flag)} if flag is not None else {}
    return EvalConfig(agents=[AgentSpec.make(f"tests.faulty_agents:{name}", **opts)
                              for name in ("CrashingAgent", "HangingAgent", "RaisingAgent")],
                      suite="antrap-mini", traps="none", screens="none", episode_timeout_s=timeout,
                      **kw)


def check_faults(records: list[dict], n: int) -> None:
    by = {r["id"]: r for r in records}
    assert len(by) == len(records) == n
    crash = by["CrashingAgent|SettingsBrightness|0|clean|0"]
    assert "worker died" in crash["error"] and "2 attempts" in crash["error"]
    assert crash["error_kind"] == "infrastructure"
    hang = by["HangingAgent|SettingsBrightness|0|clean|0"]
    assert "timed out" in hang["error"] and hang["error_kind"] == "infrastructure"
    bug = by["RaisingAgent|SettingsBrightness|0|clean|0"]
    assert bug["success"] == 0 and "agent bug" in (bug["error"] or "")
    assert bug["error_kind"] == "episode"  # the agent's own failure, not the infrastructure's
    others = [r for r in records if "SettingsBrightness" not in r["id"]]
    assert others and all(r["success"] == 1.0 and not r["error"] for r in others)


def test_one_worker_is_a_process_with_timeout_and_crash_recovery(tmp_path):
    """--workers 1 is one worker process, not this process: a hanging agent times out and a
    crashing one (os._exit) is replaced; the run completes and this process lives on."""
    cfg = faulty_config()
    assert isinstance(make_pool("local", cfg, tmp_path, 1), LocalPool)
    assert isinstance(make_pool("local", cfg, tmp_path, 0), LocalPool)
    assert isinstance(make_pool("local", cfg, tmp_path, 1, inline=True), InlinePool)
    t0 = time.time()
    summary = evaluate(cfg, tmp_path, workers=1, progress=False, artifacts=False)
    assert time.time() - t0 < 90  # 2 x 3 s for the hang, and no waiting on the dead worker
    check_faults(load_records(tmp_path), len(cfg.episodes()))
    assert summary["agents"]["HangingAgent"]["infrastructure_errors"] == 1
    assert summary["agents"]["RaisingAgent"]["infrastructure_errors"] == 0
    assert summary["agents"]["RaisingAgent"]["errors"] == 1


def test_inline_pool_runs_in_this_process(tmp_path):
    """The debugging pool: episodes in this very process (no worker to kill)."""
    import tests.faulty_agents as fa

    cfg = EvalConfig(agents=[AgentSpec.make("tests.faulty_agents:SwipingAgent")],
                     suite="antrap-mini", traps="none", screens="none", variants=1)
    calls = []
    original = fa.SwipingAgent.act

    def spy(self, obs, info):
        calls.append(os.getpid())
        return original(self, obs, info)

    fa.SwipingAgent.act = spy
    try:
        evaluate(cfg, tmp_path, inline=True, progress=False, artifacts=False)
    finally:
        fa.SwipingAgent.act = original
    assert calls and set(calls) == {os.getpid()}
    assert len(load_records(tmp_path)) == len(cfg.episodes())


def _run_pool(cfg: EvalConfig, out: Path, workers: int = 2) -> tuple[LocalPool, dict]:
    pool = LocalPool(cfg, out, workers=workers)
    records: list[dict] = []
    try:
        pool.run(cfg.episodes(), records.append)
    finally:
        pool.close()
    assert len(records) == len({r["id"] for r in records}) == len(cfg.episodes())
    by_agent = defaultdict(list)
    for r in records:
        by_agent[r["agent"]].append(r)
    return pool, by_agent


def test_start_up_is_not_episode_time(tmp_path):
    """A worker takes episodes once it has started and built its agents: an agent that takes
    4 s to build runs under a 3 s episode timeout."""
    cfg = EvalConfig(agents=[AgentSpec.make("tests.faulty_agents:SlowToBuildAgent"),
                             AgentSpec.make("oracle")],
                     suite="antrap-mini", traps="none", screens="none", episode_timeout_s=3.0)
    pool, by_agent = _run_pool(cfg, tmp_path)
    done = by_agent["SlowToBuildAgent"] + by_agent["oracle"]
    assert all(r["success"] == 1.0 and not r["error"] for r in done), [r["error"] for r in done]
    assert pool.replaced == 0 and pool.warm


def test_an_agent_that_kills_its_worker_while_built_fails_only_its_episodes(tmp_path):
    """Its construction ends the process: the first workers die warming up, the next build
    their agents at the first episode, and only that agent's episodes fail."""
    cfg = EvalConfig(agents=[AgentSpec.make("tests.faulty_agents:DyingAtBuildAgent"),
                             AgentSpec.make("oracle")],
                     suite="antrap-mini", traps="none", screens="none", episode_timeout_s=30.0)
    pool, by_agent = _run_pool(cfg, tmp_path)
    assert all(r["success"] == 1.0 and not r["error"] for r in by_agent["oracle"])
    dying = by_agent["DyingAtBuildAgent"]
    assert len(dying) == 6 and all("worker died (exit code 4)" in r["error"]
                                   and r["error_kind"] == "infrastructure" for r in dying)
    assert not pool.warm


def test_workers_that_cannot_start_end_the_run_with_errors_not_a_hang(tmp_path):
    """Workers that die before they are ready, again and again: after three in a row the
    episodes left are recorded as infrastructure errors (a resume retries them)."""
    from tests.faulty_agents import ExitOnUnpickle

    cfg = EvalConfig(agents=[AgentSpec.make("oracle", poison=ExitOnUnpickle())],
                     suite="antrap-mini", traps="loop", screens="none")
    t0 = time.time()
    summary = evaluate(cfg, tmp_path, workers=2, progress=False, artifacts=False)
    assert time.time() - t0 < 60
    records = load_records(tmp_path)
    assert len(records) == len(cfg.episodes()) == 12
    assert all("no worker could start" in r["error"] and "3 workers in a row" in r["error"]
               and r["error_kind"] == "infrastructure" for r in records), records[0]["error"]
    assert summary["agents"]["oracle"]["infrastructure_errors"] == 12
    # the table says the 0% is not a measurement, and how to get one
    assert "12 of 12 oracle episodes ended in an infrastructure error" in \
        (tmp_path / "summary.md").read_text()
    from rich.console import Console

    console = Console(record=True, width=200)
    print_table(summary, console)
    assert "12 of 12 oracle episodes ended in an infrastructure error" in console.export_text()


def test_resume_retries_infrastructure_errors_only(tmp_path):
    """A run whose infrastructure failed (a worker crashed, an episode hung) is resumed once
    the problem is gone: those episodes run again; an agent's own exception stays a finished
    failure, and so do infrastructure errors with retry_errors=False."""
    flag = tmp_path / "broken"
    flag.touch()
    cfg = faulty_config(flag=flag)
    out = tmp_path / "run"
    evaluate(cfg, out, workers=2, progress=False, artifacts=False)
    first = load_records(out)
    check_faults(first, len(cfg.episodes()))
    flag.unlink()  # the infrastructure is fixed
    kept = evaluate(cfg, out, workers=2, resume=True, retry_errors=False, progress=False,
                    artifacts=False)
    assert kept["retried"] == 0 and load_records(out) == first
    again = evaluate(cfg, out, workers=2, resume=True, progress=False, artifacts=False)
    assert again["retried"] == 2
    final = load_records(out)
    ids = [r["id"] for r in final]
    assert len(ids) == len(set(ids)) == len(cfg.episodes())
    by = {r["id"]: r for r in final}
    for agent in ("CrashingAgent", "HangingAgent"):
        r = by[f"{agent}|SettingsBrightness|0|clean|0"]
        assert r["success"] == 1.0 and not r["error"], r["error"]
    bug = by["RaisingAgent|SettingsBrightness|0|clean|0"]
    assert "agent bug" in bug["error"]
    untouched = [r for r in first if r.get("error_kind") != "infrastructure"]
    assert all(by[r["id"]] == r for r in untouched)  # finished episodes are not redone
    old = [json.loads(x) for x in (out / "retried.jsonl").read_text().splitlines()]
    assert sorted(r["id"] for r in old) == ["CrashingAgent|SettingsBrightness|0|clean|0",
                                            "HangingAgent|SettingsBrightness|0|clean|0"]
    assert again["agents"]["CrashingAgent"]["clean"]["success_rate"] == 1.0
    assert again["agents"]["RaisingAgent"]["clean"]["errors"] == 1
    # a third resume has nothing left to retry
    assert evaluate(cfg, out, workers=2, resume=True, progress=False, artifacts=False)["retried"] == 0


def test_error_kinds_of_old_records_are_read_off_the_message():
    from antrap_gym.eval.errors import is_infrastructure_error

    def rec(error):
        return {"id": "x", "error": error}

    for msg in ("worker died (exit code -11) (after 2 attempts)",
                "episode timed out after 300s (after 2 attempts)",
                "worker lost: ActorDiedError (after 2 attempts)",
                "agent error: ModelAPIError: http://h/v1/chat/completions failed after 6 attempts",
                "DeviceLostError: cannot connect to emulator-5554"):
        assert is_infrastructure_error(rec(msg)), msg
    for msg in (None, "", "agent error: RuntimeError: agent bug", "ImportError: no module x"):
        assert not is_infrastructure_error(rec(msg)), msg
    assert not is_infrastructure_error({"error": "worker died", "error_kind": "episode"})


@pytest.mark.slow
def test_ray_backend_replaces_crashed_and_hung_actors(tmp_path):
    """On Ray (a local cluster, 2 CPUs): an actor whose process dies and one that hangs past
    the timeout are killed and replaced, their episode retried once, and the run completes."""
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        ray.shutdown()
    cfg = faulty_config(timeout=10.0)
    cfg.agents.append(AgentSpec.make("tests.faulty_agents:DyingAtBuildAgent"))
    t0 = time.time()
    try:
        summary = evaluate(cfg, tmp_path, workers=2, backend="ray", progress=False,
                           artifacts=False)
        assert ray.cluster_resources().get("CPU") == 2
    finally:
        ray.shutdown()
    assert time.time() - t0 < 300
    records = load_records(tmp_path)
    by = {r["id"]: r for r in records}
    crash = by["CrashingAgent|SettingsBrightness|0|clean|0"]
    assert "worker lost" in crash["error"] and "2 attempts" in crash["error"]
    assert crash["error_kind"] == "infrastructure"
    hang = by["HangingAgent|SettingsBrightness|0|clean|0"]
    assert "timed out after 10s" in hang["error"] and "2 attempts" in hang["error"]
    bug = by["RaisingAgent|SettingsBrightness|0|clean|0"]
    assert "agent bug" in bug["error"] and bug["error_kind"] == "episode"
    # actors that died while being built (warming up) were replaced by ones that build lazily
    dying = [r for r in records if r["agent"] == "DyingAtBuildAgent"]
    assert len(dying) == 6 and all("worker lost" in r["error"] for r in dying)
    others = [r for r in records
              if "SettingsBrightness" not in r["id"] and r["agent"] != "DyingAtBuildAgent"]
    assert len(records) == len(by) == len(cfg.episodes())
    assert others and all(r["success"] == 1.0 and not r["error"] for r in others)
    assert summary["agents"]["CrashingAgent"]["clean"]["n"] == 6


@pytest.mark.slow
def test_ray_backend_on_a_local_cluster(tmp_path):
    ray = pytest.importorskip("ray")
    cfg = small_config(agents=("oracle", "random"), traps="loop")
    local = evaluate(cfg, tmp_path / "local", workers=1, progress=False, artifacts=False)
    try:
        remote = evaluate(cfg, tmp_path / "ray", workers=2, backend="ray", progress=False,
                          artifacts=False)
    finally:
        ray.shutdown()
    assert remote["agents"].keys() == local["agents"].keys()
    for agent in local["agents"]:
        assert remote["agents"][agent]["clean"]["successes"] == \
            local["agents"][agent]["clean"]["successes"]
    assert {r["id"] for r in load_records(tmp_path / "ray")} == \
        {r["id"] for r in load_records(tmp_path / "local")}


def test_openai_agent_through_the_harness_records_raw_replies(tmp_path):
    """The whole path: harness -> worker processes -> OpenAI agent -> HTTP -> replies."""
    from antrap_gym.device.elements import parse_element_lines
    from antrap_gym.tasks.registry import Suite, register_suite
    from tests.agents.test_openai_agent import ChatServer, guiowl_reply

    def brain(req):
        user = [m for m in req["messages"] if m["role"] == "user"][-1]["content"]
        text = user if isinstance(user, str) else "".join(p.get("text", "") for p in user)
        want_on = "Turn Wi-Fi on." in text
        block = text.split("screen coordinates):\n", 1)[1].split("\n\n", 1)[0]
        els = [e for e in parse_element_lines(block) if e.bbox_pixels]
        labels = {e.label: list(e.center) for e in els if e.label}
        switch = next((e for e in els if (e.class_name or "").endswith("Switch")), None)
        if switch is not None and "Wi-Fi" in labels:
            if switch.is_checked == want_on:
                return guiowl_reply("Done.", {"action": "terminate", "status": "success"}, "Done.")
            return guiowl_reply("Flip it.", {"action": "click", "coordinate": list(switch.center)},
                                "Tapped the switch.")
        for label in ("Internet", "Network & internet"):
            if label in labels:
                return guiowl_reply(f"Open {label}.", {"action": "click",
                                                        "coordinate": labels[label]}, "Tapped.")
        return guiowl_reply("Open Settings.", {"action": "open", "text": "Settings"}, "Opened.")

    register_suite(Suite("test-wifi", ("SettingsWifiToggle",), variants=3))
    server = ChatServer(brain)
    try:
        cfg = EvalConfig(agents=[AgentSpec.make("openai", model="gui-owl-7b",
                                                base_url=server.base_url, observation="text",
                                                max_tokens=512)],
                         suite="test-wifi", traps="none", screens="all")
        summary = evaluate(cfg, tmp_path, workers=2, progress=False, artifacts=False)
    finally:
        server.close()
    assert summary["agents"]["openai:gui-owl-7b"]["clean"]["success_rate"] == 1.0
    records = load_records(tmp_path)
    assert len(records) == 3 and len(server.requests) >= 3 * 4
    step = records[0]["trajectory"][0]
    assert "<tool_call>" in step["raw"] and step["thought"]
    assert all((tmp_path / f).exists() for f in records[0]["screens"]["files"])
