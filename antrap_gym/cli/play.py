"""`antrap play`: drive the simulated phone yourself, one action per line.

Commands: `tap N` (element index) or `tap X Y`, `long N`, `type N some text`,
`scroll up|down|left|right`, `swipe up|down|left|right`, `back`, `home`, `enter`,
`open APP`, `answer TEXT`, `done`, `quit`, or any AndroidWorld JSON action.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

import gymnasium as gym
from PIL import Image

import antrap_gym  # noqa: F401


def parse_command(line: str) -> dict | str | None:
    """A typed command -> an action (dict or JSON string); None to quit."""
    line = line.strip()
    if not line:
        return {"action_type": "wait"}
    if line.startswith("{"):
        return line
    try:
        words = shlex.split(line)
    except ValueError:
        words = line.split()
    cmd, rest = words[0].lower(), words[1:]
    if cmd in ("quit", "exit", "q"):
        return None

    def target(args: list[str]) -> dict:
        if len(args) >= 2 and all(a.lstrip("-").isdigit() for a in args[:2]):
            return {"x": int(args[0]), "y": int(args[1])}
        if args and args[0].isdigit():
            return {"index": int(args[0])}
        return {}

    if cmd in ("tap", "click"):
        return {"action_type": "click", **target(rest)}
    if cmd in ("long", "long_press"):
        return {"action_type": "long_press", **target(rest)}
    if cmd == "type":
        tgt = target(rest)
        skip = 2 if "x" in tgt else 1 if "index" in tgt else 0
        return {"action_type": "input_text", "text": " ".join(rest[skip:]), **tgt}
    if cmd in ("scroll", "swipe") and rest:
        return {"action_type": cmd, "direction": rest[0]}
    simple = {"back": "navigate_back", "home": "navigate_home", "enter": "keyboard_enter",
              "wait": "wait"}
    if cmd in simple:
        return {"action_type": simple[cmd]}
    if cmd == "open":
        return {"action_type": "open_app", "app_name": " ".join(rest)}
    if cmd == "answer":
        return {"action_type": "answer", "text": " ".join(rest)}
    if cmd == "done":
        return {"action_type": "status", "goal_status": "complete"}
    return json.dumps({"action_type": cmd})


def main(args: argparse.Namespace) -> int:
    env = gym.make("antrap/AndroidSim-v0", render_mode="ansi")
    options = {"task": args.task} if args.task else None
    obs, info = env.reset(seed=args.seed, options=options)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(__doc__)
    step = 0
    while True:
        Image.fromarray(obs["screenshot"]).save(out / f"step_{step:03d}.png")
        print(env.render())
        print(obs["ui_elements"])
        print(f"\nGoal: {obs['goal']}   (step {info['step']}/{info['budget']}, "
              f"screenshot: {out / f'step_{step:03d}.png'})")
        if obs["last_action_error"]:
            print(f"! {obs['last_action_error']}")
        try:
            line = input("action> ")
        except EOFError:
            break
        action = parse_command(line)
        if action is None:
            break
        obs, reward, term, trunc, info = env.step(action)
        step += 1
        if term or trunc:
            Image.fromarray(obs["screenshot"]).save(out / f"step_{step:03d}.png")
            print(f"\nEpisode over: success = {info.get('success')}")
            break
    env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(argparse.Namespace(task=None, seed=0, out="play_out")))
