"""Running one episode of an evaluation and turning it into a record.

A worker (in-process, a subprocess or a Ray actor) keeps one environment per
setting and one agent per agent spec, and reuses them across episodes.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import time
import traceback
import zlib
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from antrap_gym.device.digest import payload_digest
from antrap_gym.device.protocol import Snapshot
from antrap_gym.device.sim import SimDevice
from antrap_gym.eval.errors import INFRASTRUCTURE, error_kind, is_device_replaced
from antrap_gym.eval.spec import EpisodeSpec, EvalConfig
from antrap_gym.registration import make_env
from antrap_gym.rollout import run_episode
from antrap_gym.traps.config import Setting

SCREENS_DIR = "screens"
FRAME_FORMAT = "webp"
#: lossless WebP at its fastest effort: ~4 KB and ~3 ms for a 360x800 UI thumbnail
#: (JPEG at quality 72: ~16 KB, with ringing around text)
FRAME_OPTIONS: dict[str, Any] = {"lossless": True, "quality": 0, "method": 1}
#: how often an episode whose phone came back as another is run again at once
REPLACED_RETRIES = 2
#: phone states whose stored frame a worker remembers (a few dozen bytes each)
PAINTED_CACHE = 50_000


class EpisodeRunner:
    def __init__(self, config: EvalConfig, out_dir: str | Path | None,
                 device: str = "sim") -> None:
        self.config = config
        self.out = Path(out_dir) if out_dir is not None else None
        self.device = device  # every setting's env gets its own connection to this device
        self._envs: dict[tuple[str, str], Any] = {}
        self._agents: dict[Any, Any] = {}
        self._stored: set[str] = set()  # frame files this worker wrote or found
        #: the file stored for a phone state (by its snapshot's digest) and each file's size
        self._painted: dict[bytes, str] = {}
        self._shapes: dict[str, tuple[int, int]] = {}

    # --- caches -----------------------------------------------------------------------------
    def agent(self, spec: EpisodeSpec):
        if spec.agent not in self._agents:
            self._agents[spec.agent] = spec.agent.build()
        return self._agents[spec.agent]

    def env(self, setting: Setting, obs_mode: str):
        key = (setting.name, obs_mode)
        if key not in self._envs:
            # every episode names its task, so the env needs no suite (a suite registered
            # only in the parent process need not exist in a worker)
            kw: dict[str, Any] = {"obs_mode": obs_mode, "device": self.device,
                                  "grading": self.config.grading}
            self._envs[key] = make_env(traps=[t.to_dict() for t in setting.traps] or None, **kw)
        return self._envs[key]

    def warm_up(self) -> None:
        """Build every agent of the run now (a worker does it before it takes episodes, so
        loading a model is not counted against an episode's timeout). An agent that fails
        to build is left to fail its episodes, each with the error."""
        for spec in self.config.agents:
            if spec not in self._agents:
                with contextlib.suppress(Exception):
                    self._agents[spec] = spec.build()

    def close(self) -> None:
        for env in self._envs.values():
            env.close()
        self._envs.clear()

    # --- one episode ---------------------------------------------------------------------------
    def run(self, spec: EpisodeSpec) -> dict[str, Any]:
        """The episode's record. One whose phone came back from an outage as another phone
        (`DeviceReplacedError`: that phone never had the task set up, so the episode says
        nothing of the agent) is run again at once, up to `REPLACED_RETRIES` times, the
        dropped attempts listed in the record's `device_retries`; past that its record is
        that infrastructure error, which `--resume` runs again."""
        dropped: list[dict[str, Any]] = []
        while True:
            record = self._attempt(spec)
            if not is_device_replaced(record) or len(dropped) >= REPLACED_RETRIES:
                break
            dropped.append({k: record.get(k) for k in ("error", "error_kind", "steps", "wall_s")})
        if dropped:
            record["device_retries"] = dropped
        return record

    def _attempt(self, spec: EpisodeSpec) -> dict[str, Any]:
        t0 = time.perf_counter()
        try:
            agent = self.agent(spec)
            obs_mode = self.config.obs_mode or getattr(agent, "observation", "text")
            if obs_mode not in ("text", "screenshot"):
                obs_mode = "screenshot"
            setting = self.config.setting(spec.setting)
            env = self.env(setting, obs_mode)
            attempts = 0
            while True:
                frames: list[Any] = []
                capture = self._capture(env, frames) if self.config.screens != "none" else None
                trap_seed = spec.trap_seed(attempts)
                res = run_episode(env, agent, seed=spec.task_seed,
                                  options={"task": spec.task, "trap_seed": trap_seed},
                                  agent_seed=spec.agent_seed, on_step=capture, on_reset=capture)
                attempts += 1
                fired = bool(res.info.get("traps"))
                if not setting.traps or fired or attempts > self.config.trap_retries:
                    break
            record = self._record(spec, res, env, trap_seed, attempts, setting)
            keep = self.config.keeps_screens(spec, failed=res.success < 1.0 or bool(res.error))
            if keep and frames and self.out is not None:
                record["screens"] = self._save_frames(spec, *self._develop(env, frames))
            return record
        except Exception as e:  # a broken agent or backend fails its episode, not the run
            from antrap_gym.agents.openai_agent import ModelAPIError
            from antrap_gym.device import DeviceError

            infra = isinstance(e, DeviceError | ModelAPIError)
            return error_record(spec, f"{type(e).__name__}: {e}", traceback.format_exc(),
                                time.perf_counter() - t0, kind=INFRASTRUCTURE if infra else None,
                                device=self.device)

    # --- screens ---------------------------------------------------------------------------------
    # In screenshot mode the thumbnail is cut from the agent's own observation. In text mode
    # the screen is the phone's: on the simulated phone each step keeps only a snapshot of the
    # phone (microseconds) and the frames are painted afterwards, for the episodes whose
    # screens are kept (`_develop`) — most successful episodes never paint a pixel. Other
    # devices (adb) are captured as they go.

    def _thumb(self, shot: np.ndarray) -> np.ndarray:
        f = max(1, shot.shape[1] // self.config.screen_width)
        # every f-th pixel: a quarter of the cost of a box filter, and as legible
        if shot.ndim != 3 or shot.dtype != np.uint8:
            return np.ascontiguousarray(shot[f // 2 :: f, f // 2 :: f])
        # each pixel as one item (its channels' bytes): half the time of picking bytes
        h, w, c = shot.shape
        pixels = np.ascontiguousarray(shot).reshape(h, w * c).view(f"V{c}")
        picked = np.ascontiguousarray(pixels[f // 2 :: f, f // 2 :: f])
        return picked.view(np.uint8).reshape(picked.shape[0], picked.shape[1], c)

    def _capture(self, env, frames: list[Any]):
        device = env.unwrapped.device
        deferred = isinstance(device, SimDevice)
        last: list[Any] = [None]

        def grab(obs: dict[str, Any], info: dict[str, Any]) -> None:
            shot = obs.get("screenshot")
            if shot is not None:
                frames.append(self._thumb(shot))
                return
            if deferred:  # text mode on the simulated phone: the state now, pixels later
                snap = device.snapshot()
                if frames and isinstance(frames[-1], Snapshot) and frames[-1].payload == snap.payload:
                    frames.append(frames[-1])  # unchanged: the same frame
                else:
                    frames.append(snap)
                return
            shot = device.screenshot()  # text mode on a real device: the screen now
            if shot is last[0]:  # unchanged (the device's cached frame): reuse the thumbnail
                frames.append(frames[-1])
                return
            last[0] = shot
            frames.append(self._thumb(shot))

        return grab

    def _develop(self, env, frames: list[Any]) -> tuple[list[np.ndarray | str], dict[int, bytes]]:
        """Paint the frames kept as phone snapshots; the phone is left as the episode left it.

        A state this worker already stored comes back as that file's path, unpainted: the
        same screens recur across an eval (a task's start screen in every setting and for
        every agent, a home screen, a list gone back to), and a snapshot's digest names the
        phone's whole state, which is all the picture is painted from. Also returned: the
        state's digest of each thumbnail painted, by the thumbnail's id."""
        keys: dict[int, bytes] = {}
        if not any(isinstance(f, Snapshot) for f in frames):
            return frames, keys
        device = env.unwrapped.device
        final = device.snapshot()
        out: list[np.ndarray | str] = []
        painted: dict[int, np.ndarray | str] = {}  # by snapshot object
        by_key: dict[bytes, np.ndarray] = {}  # by state: a screen gone back to
        try:
            for f in frames:
                if not isinstance(f, Snapshot):
                    out.append(f)
                    continue
                if id(f) not in painted:
                    key = payload_digest((f.backend, f.payload, f.virtual))
                    known = self._painted.get(key) or by_key.get(key)
                    if known is None:
                        device.restore(f)
                        known = by_key[key] = self._thumb(device.screenshot())
                        keys[id(known)] = key
                    painted[id(f)] = known
                out.append(painted[id(f)])
        finally:
            device.restore(final)
        return out, keys

    def _save_frames(self, spec: EpisodeSpec, frames: list[np.ndarray | str],
                     keys: dict[int, bytes] | None = None) -> dict[str, Any]:
        """Store the episode's frames and return its `screens` entry (one path per frame).

        Frames are content-addressed (`screens/<hash>.webp`, lossless WebP: smaller than
        JPEG on UI screens, and sharp), so a frame repeated within an episode or across
        episodes (the same start screen in every setting, a screen the agent did not
        change) is stored once. Workers share the folder: a file is written under a
        temporary name and renamed, and identical names mean identical content."""
        folder = self.out / SCREENS_DIR
        folder.mkdir(parents=True, exist_ok=True)
        files: list[str] = []
        by_object: dict[int, str] = {}  # a frame reused as the same array is hashed once
        size: tuple[int, int] | None = None
        for frame in frames:
            if isinstance(frame, str):  # a state stored before (`_develop`)
                rel, shape = frame, self._shapes[frame]
            else:
                rel = by_object.get(id(frame))
                if rel is None:
                    rel = by_object[id(frame)] = self._store_frame(folder, frame)
                    self._shapes[rel] = frame.shape[:2]
                    if keys and id(frame) in keys:
                        self._remember(keys[id(frame)], rel)
                shape = frame.shape[:2]
            size = size or shape
            files.append(rel)
        h, w = size
        return {"files": files, "width": w, "height": h}

    def _remember(self, key: bytes, rel: str) -> None:
        self._painted[key] = rel
        if len(self._painted) > PAINTED_CACHE:
            self._painted.pop(next(iter(self._painted)))

    def _store_frame(self, folder: Path, frame: np.ndarray) -> str:
        """The frame's path relative to the run (written unless already there)."""
        frame = np.ascontiguousarray(frame)
        digest = hashlib.sha256(repr((frame.shape, frame.dtype.str)).encode())
        digest.update(frame.data)  # sha256: the fastest of hashlib's here (CPU instructions)
        name = f"{digest.hexdigest()[:24]}.{FRAME_FORMAT}"
        path = folder / name
        if name not in self._stored and not path.exists():
            buf = io.BytesIO()
            Image.fromarray(frame).save(buf, format="WEBP", **FRAME_OPTIONS)
            tmp = folder / f".{name}.{os.getpid()}.tmp"
            tmp.write_bytes(buf.getvalue())
            os.replace(tmp, path)
        self._stored.add(name)
        return f"{SCREENS_DIR}/{name}"

    def _record(self, spec: EpisodeSpec, res, env, trap_seed: int, attempts: int,
                setting: Setting) -> dict[str, Any]:
        base = env.unwrapped
        return {
            "id": spec.key,
            "agent": spec.agent.label,
            "task": spec.task,
            "variant": spec.variant,
            "setting": spec.setting,
            "run": spec.run,
            "device": self.device,
            "params": res.params,
            "goal": res.goal,
            "seed": spec.task_seed,
            "trap_seed": trap_seed if setting.traps else None,
            "trap_attempts": attempts if setting.traps else 0,
            "success": res.success,
            "grading": base.grading,
            "steps": res.steps,
            "budget": res.budget,
            "terminated": res.terminated,
            "truncated": res.truncated,
            "answer": res.answer,
            "wall_s": round(res.wall_s, 4),
            "error": res.error,
            "error_kind": error_kind(res.error),
            "traps": res.info.get("traps", []),
            "screen_size": list(base.screen_size),
            "trajectory": [
                {"step": s.step, "action": s.action, "error": s.error, "thought": s.thought,
                 **({"raw": s.raw} if s.raw else {}),
                 **({"intended": s.intended} if s.intended is not None else {})}
                for s in res.trajectory
            ],
        }


def error_record(spec: EpisodeSpec, message: str, tb: str = "", wall_s: float = 0.0,
                 kind: str | None = None, device: str | None = None) -> dict[str, Any]:
    """The record of an episode that could not run (crash, timeout, lost worker).

    kind: `infrastructure` or `episode` (see `antrap_gym.eval.errors`); by default
    read off the message. device: the device name of the worker it ran on, if known."""
    return {
        "id": spec.key, "agent": spec.agent.label, "task": spec.task, "variant": spec.variant,
        "setting": spec.setting, "run": spec.run, "device": device, "params": {}, "goal": "",
        "seed": spec.task_seed,
        "trap_seed": None, "trap_attempts": 0, "success": 0.0, "steps": 0, "budget": 0,
        "terminated": False, "truncated": True, "answer": None, "wall_s": round(wall_s, 4),
        "error": message, "error_kind": kind or error_kind(message), "traceback": tb[-4000:],
        "traps": [], "trajectory": [],
    }


def safe_name(key: str) -> str:
    """A file-system-safe, unique folder name for an episode id."""
    clean = "".join(c if c.isalnum() or c in "-_." else "_" for c in key)[:120]
    return f"{clean}-{zlib.crc32(key.encode()):08x}"
