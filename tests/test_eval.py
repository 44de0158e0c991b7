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

import pytest

from antrap_gym.eval import AgentSpec, EvalConfig, ResultsExist, evaluate, load_records
from antrap_gym.eval.pool import LocalPool
from antrap_gym.traps.taxonomy import LAYERS

ROOT = Path(__file__).resolve().parents[1]


def small_config(agents=("oracle", "replay"), traps="external_interruption,loop,grounding_error",
                 runs=1, **kw) -> EvalConfig:
    return EvalConfig(agents=[AgentSpec.make(a) for a in agents], suite="antrap-mini",
                      traps=traps, runs=runs, screens="none", **kw)


def test_summary_numbers_recomputed_from_episodes(tmp_path):
    cfg = small_config(runs=2)
    summary = evaluate(cfg, tmp_path, workers=1, progress=False, artifacts=False)
    on_disk = json.loads((tmp_path / "summary.json").read_text())
    assert on_disk["agents"].keys() == summary["agents"].keys()
    recs = [json.loads(line) for line in (tmp_path / "episodes.jsonl").read_text().splitlines()]
    assert len(recs) == len({r["id"] for r in recs}) == len(cfg.episodes())
    # recompute by hand: plain counting, no project code
    by = defaultdict(list)
    for r in recs:
        by[(r["agent"], r["setting"])].append(r)
    for agent, a in on_disk["agents"].items():
        rates = {}
        for setting in ["clean", "external_interruption", "loop", "grounding_error"]:
            eps = by[(agent, setting)]
            rate = sum(r["success"] >= 1 for r in eps) / len(eps)
            groups = defaultdict(list)
            for r in eps:
                groups[(r["task"], r["variant"])].append(r["success"] >= 1)
            passk = sum(any(g) for g in groups.values()) / len(groups)
            block = a["clean"] if setting == "clean" else a["traps"][setting]
            assert math.isclose(block["success_rate"], rate)
            assert math.isclose(block["pass_at_k"], passk)
            assert block["k"] == 2
            lo, hi = block["ci95"]
            assert lo <= rate <= hi
            rates[setting] = rate
        avg = (rates["external_interruption"] + rates["loop"] + rates["grounding_error"]) / 3
        assert math.isclose(a["trap_average"], avg)
        assert math.isclose(a["drop"], rates["clean"] - avg)
        state = by[(agent, "external_interruption")]
        assert math.isclose(a["layers"]["state"]["success_rate"],
                            sum(r["success"] >= 1 for r in state) / len(state))
        action = by[(agent, "grounding_error")]
        assert math.isclose(a["layers"]["action"]["success_rate"],
                            sum(r["success"] >= 1 for r in action) / len(action))
        assert set(a["layers"]) <= set(LAYERS)
    md = (tmp_path / "summary.md").read_text()
    assert "| oracle |" in md and "Trap avg" in md and "Pass@2" in md


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
    episodes = out / "episodes.jsonl"
    deadline = time.time() + 120
    while time.time() < deadline:
        if episodes.exists() and episodes.read_bytes().count(b"\n") >= 25:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the eval and its workers, mid-write or not
    proc.wait(timeout=30)
    before = episodes.read_bytes()
    finished = [json.loads(x) for x in before.split(b"\n")[:-1]]  # complete lines only
    assert 25 <= len(finished) < 132
    with episodes.open("ab") as f:  # and a torn line, as if killed mid-write
        f.write(b'{"id": "random|Settings')
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
    from tasks.registry import Suite, register_suite
    from tests.test_openai_agent import ChatServer, guiowl_reply

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
