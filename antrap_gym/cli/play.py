"""`antrap play`: drive the simulated phone yourself, one command per line.

Only a command that reaches the phone uses a step of the task's budget: a typo, a
missing argument or malformed JSON is reported here and costs nothing.
"""

from __future__ import annotations

import argparse
import difflib
import shlex
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
from PIL import Image

import antrap_gym  # noqa: F401
from antrap_gym.env.actions import DIRECTIONS, Action, ActionError

# play's own commands, with their usage (the help text and the unknown-command error)
COMMANDS: dict[str, str] = {
    "tap": "tap N | tap X Y       tap element N, or the point (X, Y)",
    "double": "double N | double X Y  double-tap",
    "long": "long N | long X Y     long-press",
    "type": "type [N] TEXT         type TEXT (into element N)",
    "scroll": "scroll " + "|".join(DIRECTIONS),
    "swipe": "swipe " + "|".join(DIRECTIONS),
    "back": "back                  the Back button",
    "home": "home                  the Home button",
    "enter": "enter                 the keyboard's Enter",
    "open": "open APP              open an app by name",
    "wait": "wait                  let the phone be for a step",
    "answer": "answer TEXT           answer a question task",
    "done": "done                  say the task is complete",
    "infeasible": "infeasible            say the task cannot be done",
    "help": "help                  this list (no step used)",
    "quit": "quit                  leave (also exit, q, Ctrl-D)",
}
# other spellings, among them AndroidWorld's action types
ALIASES = {"click": "tap", "double_tap": "double", "long_press": "long", "input_text": "type",
           "navigate_back": "back", "navigate_home": "home", "keyboard_enter": "enter",
           "open_app": "open", "exit": "quit", "q": "quit", "?": "help"}
QUIT, HELP, NOTHING = "quit", "help", ""


class CommandError(ValueError):
    """A line play cannot turn into an action; nothing was sent to the phone."""


def usage() -> str:
    """The command list, with a word on JSON actions."""
    lines = ["Commands:", *(f"  {u}" for u in COMMANDS.values()),
             '  {"action_type": ...}  any AndroidWorld JSON action',
             "Only commands that reach the phone use a step of the budget."]
    return "\n".join(lines)


def _unknown(cmd: str) -> CommandError:
    close = difflib.get_close_matches(cmd, [*COMMANDS, *ALIASES], n=1, cutoff=0.6)
    hint = f" (did you mean {ALIASES.get(close[0], close[0])!r}?)" if close else ""
    return CommandError(f"unknown command {cmd[:40]!r}{hint}; commands: {', '.join(COMMANDS)} "
                        "('help' shows their usage)")


def _target(args: list[str]) -> tuple[dict[str, int], int]:
    """The target at the start of `args` and how many words it took: (X, Y), N or none."""
    if len(args) >= 2 and all(a.lstrip("-").isdigit() for a in args[:2]):
        return {"x": int(args[0]), "y": int(args[1])}, 2
    if args and args[0].isdigit():
        return {"index": int(args[0])}, 1
    return {}, 0


def parse_command(line: str) -> dict[str, Any] | str:
    """A typed line -> a validated action (a dict), or QUIT, HELP, NOTHING (empty line).

    Raises CommandError for what play can tell is wrong without the phone: an unknown
    command, a missing or bad argument, malformed JSON. Whether element N exists is the
    phone's to say (that reaches the env, as it would from an agent)."""
    line = line.strip()
    if not line:
        return NOTHING
    if line.startswith("{"):
        try:
            return Action.parse(line).to_dict()
        except ActionError as e:
            raise CommandError(str(e)) from None
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    cmd, rest = words[0].lower(), words[1:]
    cmd = ALIASES.get(cmd, cmd)
    if cmd not in COMMANDS:
        raise _unknown(words[0])
    if cmd in (QUIT, HELP):
        return cmd
    action: dict[str, Any]
    if cmd in ("tap", "double", "long"):
        tgt, used = _target(rest)
        if not used:
            raise CommandError(f"{cmd} needs a target: an element index N or X Y "
                               f"(usage: {COMMANDS[cmd].split('  ')[0]})")
        kind = {"tap": "click", "double": "double_tap", "long": "long_press"}[cmd]
        action = {"action_type": kind, **tgt}
    elif cmd == "type":
        tgt, used = _target(rest)
        if not rest[used:]:
            raise CommandError("type needs the text to type: type [N] TEXT")
        action = {"action_type": "input_text", "text": " ".join(rest[used:]), **tgt}
    elif cmd in ("scroll", "swipe"):
        if len(rest) != 1 or rest[0].lower() not in DIRECTIONS:
            raise CommandError(f"{cmd} needs one direction: {', '.join(DIRECTIONS)}")
        action = {"action_type": cmd, "direction": rest[0].lower()}
    elif cmd in ("back", "home", "enter", "wait"):
        action = {"action_type": {"back": "navigate_back", "home": "navigate_home",
                                  "enter": "keyboard_enter", "wait": "wait"}[cmd]}
    elif cmd == "open":
        action = {"action_type": "open_app", "app_name": " ".join(rest)}
    elif cmd == "answer":
        action = {"action_type": "answer", "text": " ".join(rest)}
    else:  # done, infeasible
        action = {"action_type": "status",
                  "goal_status": "complete" if cmd == "done" else "infeasible"}
    try:
        return Action.parse(action).to_dict()
    except ActionError as e:
        raise CommandError(str(e)) from None


def default_out(root: str | Path = "runs") -> Path:
    """A fresh `runs/play-<time>` folder name (never an existing one): play's screenshots
    go with the other runs."""
    from antrap_gym.eval.store import fresh_run_dir

    return fresh_run_dir("play", root)


#: seeds tried after --seed for a default draw whose goal does not already hold
MAX_REDRAWS = 100


def already_done(env: gym.Env) -> str | None:
    """Why the task just set up in `env` needs no change to the phone, or None: its check
    already passes (a template defect: the contract forbids it), or its reference check
    does (a *Verify* row: the phone starts in the goal state; ours also asks the agent to
    open the page that shows it)."""
    from antrap_gym.tasks.base import grade

    base = env.unwrapped
    task, device = base.episode.task, base.device
    if task.is_successful(device) >= 1.0:
        return "its check already passes"
    if grade(task, device, None, "reference") >= 1.0:
        return "the phone starts in its goal state (a task to verify, not to do)"
    return None


def draw(env: gym.Env, seed: int, task: str | None = None
         ) -> tuple[dict[str, Any], dict[str, Any], int, list[str]]:
    """Reset `env` for play: (obs, info, the seed used, what was skipped). A named `task`
    is set up with `seed` as it is. The default draw (a template of the suite, by seed)
    skips, deterministically, a draw whose goal already holds and takes the next seed, so
    a person's first task asks them to change something."""
    if task:
        obs, info = env.reset(seed=seed, options={"task": task})
        return obs, info, seed, []
    skipped: list[str] = []
    for s in range(seed, seed + MAX_REDRAWS):
        obs, info = env.reset(seed=s)
        why = already_done(env)
        if why is None:
            return obs, info, s, skipped
        skipped.append(f"Skipped seed {s}: {info['task']} — {why}.")
    return obs, info, s, skipped  # every draw was done already: play the last one


def introduce(info: dict[str, Any], seed: int, skipped: list[str], note: str | None) -> str:
    """The lines that say which task play drew: template, seed, goal, step budget."""
    lines = [*skipped,
             f"Task: {info['task']}   seed {seed}   budget {info['budget']} steps",
             f"Goal: {info['goal']}"]
    if note:
        lines.append(f"Note: {note} — look, then say `done`.")
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    env = gym.make("antrap/AndroidSim-v0", render_mode="ansi")
    obs, info, seed, skipped = draw(env, args.seed, args.task)
    out = Path(args.out) if args.out else default_out()
    out.mkdir(parents=True, exist_ok=True)
    print(__doc__.split("\n\n")[0].strip(), "\n")
    print(usage() + "\n")
    print(introduce(info, seed, skipped, already_done(env) if args.task else None) + "\n")
    step = 0
    show = True
    while True:
        if show:
            shot = out / f"step_{step:03d}.png"
            Image.fromarray(obs["screenshot"]).save(shot)
            print(env.render())
            print(obs["ui_elements"])
            print(f"\nGoal: {obs['goal']}   (step {info['step']}/{info['budget']}, "
                  f"screenshot: {shot})")
            if obs["last_action_error"]:
                print(f"! {obs['last_action_error']}")
        show = False
        try:
            line = input("action> ")
        except EOFError:
            break
        try:
            action = parse_command(line)
        except CommandError as e:
            print(f"! {e} — no step used")
            continue
        if action == QUIT:
            break
        if action == HELP:
            print(usage())
            continue
        if action == NOTHING:
            continue
        obs, reward, term, trunc, info = env.step(action)
        step += 1
        show = True
        if term or trunc:
            Image.fromarray(obs["screenshot"]).save(out / f"step_{step:03d}.png")
            if obs["last_action_error"]:
                print(f"! {obs['last_action_error']}")
            print(f"\nEpisode over: success = {info.get('success')}")
            break
    env.close()
    print(f"screenshots: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(argparse.Namespace(task=None, seed=0, out=None)))
