"""What a user trips over in the `antrap` CLI: play's budget and messages, closed pipes,
cut ids in tables, options without help, the eval table's title. The commands run as
subprocesses, as a user would run them (real pipes, real terminals widths via $COLUMNS)."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

ANTRAP = [sys.executable, "-m", "antrap_gym.cli.main"]


def run(*args: str, stdin: str | None = None, cwd: Path | None = None,
        env: dict[str, str] | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*ANTRAP, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env={**os.environ, **(env or {})})


def in_terminal(*args: str, columns: int = 40, timeout: int = 300) -> str:
    """What `antrap ARGS` writes to a real terminal (a pseudo-terminal) `columns` wide."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR")}
    proc = subprocess.Popen([*ANTRAP, *args], stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=subprocess.DEVNULL, env={**env, "TERM": "xterm"})
    os.close(slave)
    chunks = []
    try:
        while True:
            try:
                data = os.read(master, 1 << 16)
            except OSError:  # EIO: the command has closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        assert proc.wait(timeout=timeout) == 0
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    return b"".join(chunks).decode("utf-8", "replace")


def plain(text: str) -> str:
    """Terminal output without ANSI escapes."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


# ------------------------------------------------------------------------------------------------
# antrap play


def _steps_shown(stdout: str) -> list[int]:
    return [int(s) for s in re.findall(r"\(step (\d+)/\d+, screenshot", stdout)]


def test_play_typos_and_bad_commands_use_no_step(tmp_path):
    """More mistakes than the task's budget, then one real action: the budget is intact
    (no "Episode over"), the step counter moved once, one screenshot per real step."""
    mistakes = ["tpa 3", "tap", "tap first", "scroll", "scroll sideways", "swipe", "type",
                "open", "{not json", '{"action_type": "fly"}', "bakc", "xyzzy", ""]
    script = "\n".join([*mistakes, "help", "open Settings", "quit"]) + "\n"
    out = run("play", "--task", "SettingsWifiToggle", "--out", str(tmp_path), stdin=script)
    assert out.returncode == 0, out.stderr
    budget = int(re.search(r"\(step 0/(\d+),", out.stdout).group(1))
    assert budget < len(mistakes) - 1  # the empty line is no mistake, just no action
    assert "Episode over" not in out.stdout
    assert _steps_shown(out.stdout) == [0, 1]
    assert out.stdout.count("— no step used") == len(mistakes) - 1
    assert sorted(p.name for p in tmp_path.glob("step_*.png")) == ["step_000.png", "step_001.png"]


def test_play_unknown_command_lists_plays_commands_and_the_closest(tmp_path):
    script = "tpa 3\nscrol down\nbakc\nxyzzy\nquit\n"
    out = run("play", "--task", "SettingsWifiToggle", "--out", str(tmp_path), stdin=script)
    assert out.returncode == 0, out.stderr
    errors = [ln for ln in out.stdout.splitlines() if "unknown command" in ln]
    assert len(errors) == 4
    for wrong, meant in (("tpa", "tap"), ("scrol", "scroll"), ("bakc", "back")):
        line = next(ln for ln in errors if f"'{wrong}'" in ln)
        assert f"did you mean '{meant}'?" in line
    assert "did you mean" not in next(ln for ln in errors if "'xyzzy'" in ln)
    for line in errors:  # play's commands, not the JSON action types
        listed = [w.strip() for w in re.search(r"commands: ([a-z, ]+)", line).group(1).split(",")]
        assert {"tap", "type", "scroll", "back", "home", "open", "answer", "done",
                "quit"} <= set(listed)
        assert not {"click", "navigate_back", "keyboard_enter", "input_text"} & set(listed)


def test_play_writes_under_runs_not_the_working_tree(tmp_path):
    out = run("play", "--task", "SettingsWifiToggle", stdin="back\nquit\n", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    made = sorted(tmp_path.iterdir())
    assert [p.name for p in made] == ["runs"]
    (folder,) = (tmp_path / "runs").iterdir()
    assert re.fullmatch(r"play-\d{8}-\d{6}(-\d+)?", folder.name)
    assert sorted(p.name for p in folder.iterdir()) == ["step_000.png", "step_001.png"]
    assert f"screenshots: runs/{folder.name}" in out.stdout
    # a second session in the same second gets a folder of its own
    again = run("play", "--task", "SettingsWifiToggle", stdin="quit\n", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert len(list((tmp_path / "runs").iterdir())) == 2


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="needs git and the repository's checkout")
def test_gitignore_keeps_play_and_run_output_out_of_git_status():
    for path in ("runs/play-20250101-120000/step_000.png", "runs/eval-x/summary.json",
                 "play_out/step_000.png"):
        res = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=ROOT)
        assert res.returncode == 0, f"{path} is not ignored"


def test_play_parses_commands_into_actions():
    from antrap_gym.cli.play import HELP, NOTHING, QUIT, CommandError, parse_command

    assert parse_command("tap 3") == {"action_type": "click", "index": 3}
    assert parse_command("click 10 20") == {"action_type": "click", "x": 10, "y": 20}
    assert parse_command("double 2") == {"action_type": "double_tap", "index": 2}
    assert parse_command('type 4 "hello world"') == {"action_type": "input_text",
                                                     "text": "hello world", "index": 4}
    assert parse_command("Scroll DOWN") == {"action_type": "scroll", "direction": "down"}
    assert parse_command("open Simple Calendar") == {"action_type": "open_app",
                                                     "app_name": "Simple Calendar"}
    assert parse_command("infeasible") == {"action_type": "status", "goal_status": "infeasible"}
    assert parse_command('{"action_type": "navigate_back"}') == {"action_type": "navigate_back"}
    assert (parse_command("q"), parse_command("?"), parse_command("  ")) == (QUIT, HELP, NOTHING)
    for bad in ("long", "scroll up down", "open", "fly", '{"action_type": "click"}'):
        with pytest.raises(CommandError):
            parse_command(bad)


# ------------------------------------------------------------------------------------------------
# closed pipes: `antrap tasks --json | head`


def _into_closed_pipe(cmd: list[str]) -> subprocess.CompletedProcess:
    """Run `cmd` with stdout a pipe whose reader is already gone (as after `| head`
    has read its lines and quit), so every write meets EPIPE: deterministic."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(cmd, stdout=write_end, stderr=subprocess.PIPE, text=True,
                              timeout=300)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("args", [["tasks", "--json"], ["tasks"], ["traps", "--json"], ["traps"],
                                  ["solvability", "--suite", "antrap-mini", "--traps", "loop"]])
def test_a_closed_pipe_ends_the_command_quietly(args):
    res = _into_closed_pipe([*ANTRAP, *args])
    assert res.stderr == "", res.stderr[-2000:]
    assert res.returncode == 141  # as if SIGPIPE had ended it, like `cat` in a pipe


@pytest.mark.parametrize("cmd", [[*ANTRAP, "--help"], [*ANTRAP, "eval", "--help"],
                                 [sys.executable, "-m", "antrap_gym.training.cli", "train", "sft", "--help"],
                                 [sys.executable, "-m", "antrap_gym.training.cli", "collect", "--help"]])
def test_help_into_a_closed_pipe_is_quiet(cmd):
    """argparse drops a failed write of its help and exits 0; nothing may follow on stderr
    (the interpreter's flush at exit is the usual "Exception ignored ... BrokenPipeError")."""
    res = _into_closed_pipe(cmd)
    assert res.stderr == "", res.stderr[-2000:]
    assert res.returncode in (0, 141)


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("head") is None,
                    reason="needs bash and head")
def test_piping_into_head_shows_no_traceback():
    cmd = " ".join([*ANTRAP, "tasks", "--json"]) + " | head -1"
    res = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0 and res.stdout == "[\n"
    assert res.stderr == "", res.stderr


# ------------------------------------------------------------------------------------------------
# tables: ids are never cut, piped or on a narrow terminal


def _ids_whole(text: str, ids: list[str]) -> list[str]:
    """The ids that do not appear whole, as a cell of their own, in a table's text."""
    cells = {c.strip() for ln in plain(text).splitlines() for c in re.split(r"[│┃]", ln)}
    return [i for i in ids if i not in cells]


needs_pty = pytest.mark.skipif(not sys.platform.startswith(("linux", "darwin")),
                               reason="needs a pseudo-terminal")


@pytest.mark.parametrize("terminal", [False, True], ids=["piped", "narrow-terminal"])
def test_tasks_and_traps_tables_never_cut_ids(terminal):
    """Piped with COLUMNS=40 (rich would lay out 40 columns and write "ContactsAd…"), and
    on a 40-column terminal, where the other columns give way."""
    if terminal and not sys.platform.startswith(("linux", "darwin")):
        pytest.skip("needs a pseudo-terminal")
    from antrap_gym.tasks import TEMPLATES
    from antrap_gym.traps import LAYERS, TRAP_TYPES

    for cmd, ids in (("tasks", sorted(TEMPLATES)), ("traps", [*TRAP_TYPES, *LAYERS])):
        if terminal:
            text = in_terminal(cmd)
        else:
            out = run(cmd, env={"COLUMNS": "40"})
            assert out.returncode == 0, out.stderr
            text = out.stdout
        assert not _ids_whole(text, ids), cmd


@needs_pty
def test_solvability_table_never_cuts_trap_types_on_a_narrow_terminal():
    text = in_terminal("solvability", "--suite", "antrap-mini", "--traps",
                       "external_interruption,loop")
    assert "solvability after injection" in plain(text)
    assert not _ids_whole(text, ["external_interruption", "loop", "state", "round"])


# ------------------------------------------------------------------------------------------------
# every option says what it does


def _parsers(parser: argparse.ArgumentParser, name: str):
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for sub_name, sub in action.choices.items():
                assert helps.get(sub_name), f"`{name} {sub_name}` has no help in `{name} --help`"
                yield from _parsers(sub, f"{name} {sub_name}")


def test_every_option_of_every_command_has_help():
    from antrap_gym.cli.main import build_parser
    from antrap_gym.training.cli import build_parser as training_parser

    missing = []
    for root in (build_parser(), training_parser()):
        for name, parser in _parsers(root, "antrap"):
            for action in parser._actions:
                if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                    continue
                if not action.help or action.help == argparse.SUPPRESS:
                    missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, "options without help: " + ", ".join(missing)
    assert len(list(_parsers(build_parser(), "antrap"))) >= 13  # the walk saw the subcommands


# ------------------------------------------------------------------------------------------------
# the eval table's title says what its cells are


def _title(stdout: str) -> str:
    return next(ln for ln in plain(stdout).splitlines() if ln.startswith("AnTrap"))


def test_eval_table_title_says_success_rate_and_episodes_per_cell(tmp_path):
    common = ["--agent", "oracle", "--suite", "antrap-mini", "--traps", "external_interruption",
              "--workers", "1", "--screens", "none"]
    one = run("eval", *common, "--out", str(tmp_path / "one"), "--label", "oracle-1")
    assert one.returncode == 0, one.stderr[-2000:]
    # 6 episodes per setting (antrap-mini: 6 templates x 1 variant, one run): no Pass@k shown
    assert _title(one.stdout) == "AnTrap — success rate %, 6 episodes per cell"
    assert "Pass@" not in plain(one.stdout)
    two = run("eval", *common, "--runs", "2", "--out", str(tmp_path / "two"))
    assert two.returncode == 0, two.stderr[-2000:]
    assert _title(two.stdout) == "AnTrap — success rate % (Pass@2 % in parentheses), " \
                                 "12 episodes per cell"
    assert re.search(r"│\s+100\.0 \(100\.0\) │", plain(two.stdout))  # the rate (Pass@2)
    merged = run("report", str(tmp_path / "one"), str(tmp_path / "two"), "--allow-mixed",
                 "--out", str(tmp_path / "merged"))  # runs 1 and 2: the cells mix setups
    assert merged.returncode == 0, merged.stderr[-2000:]
    assert _title(merged.stdout) == "AnTrap — success rate % (Pass@2 % in parentheses), " \
                                    "6–12 episodes per cell"


@needs_pty
def test_eval_table_never_cuts_settings_or_agent_names_on_a_narrow_terminal(tmp_path):
    text = in_terminal("eval", "--agent", "oracle", "--label", "oracle-with-a-long-label",
                       "--suite", "antrap-mini", "--traps", "external_interruption", "--workers",
                       "1", "--screens", "none", "--out", str(tmp_path / "run"), columns=50)
    assert _title(text).startswith("AnTrap — success rate %")
    assert not _ids_whole(text, ["oracle-with-a-long-label", "external_interruption",
                                 "Trap average", "State layer"])


def test_training_commands_name_an_unknown_suite_in_one_line(tmp_path, capsys):
    """`antrap` and the training commands run through one runner: an unknown name is a
    line on stderr and exit status 2, not a traceback."""
    from antrap_gym.training.cli import main as training_main

    rc = training_main(["collect", "--suite", "no-such-suite", "--out", str(tmp_path / "c")])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.startswith("antrap: unknown suite 'no-such-suite'") and err.count("\n") == 1
