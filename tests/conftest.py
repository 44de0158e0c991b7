from __future__ import annotations

import os

# pytest-xdist runs one process per worker: give each its share of the cores for torch's
# and OpenMP's thread pools (set before torch is imported, so its pool starts that size).
# Two workers each spinning one thread per core fight over the cores: the GRPO warm start
# took 575 s beside another worker that way, 224 s alone.
if os.environ.get("PYTEST_XDIST_WORKER_COUNT"):
    _share = max(1, (os.cpu_count() or 1) // int(os.environ["PYTEST_XDIST_WORKER_COUNT"]))
    for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(_var, str(_share))

import gymnasium as gym
import pytest

import antrap_gym  # noqa: F401  (registers the environments)
from antrap_gym.device.sim import SimDevice
from tests.adb_server import adb_server


@pytest.fixture(scope="module")
def adb(tmp_path_factory):
    """A private adb server (the stock binary) for this module's tests."""
    yield from adb_server(tmp_path_factory)


@pytest.fixture
def dev() -> SimDevice:
    return SimDevice()


@pytest.fixture
def text_env():
    env = gym.make("antrap/AndroidSim-Text-v0")
    yield env
    env.close()


@pytest.fixture
def shot_env():
    env = gym.make("antrap/AndroidSim-v0")
    yield env
    env.close()


#: test files by their cost on 2 cores, dearest first (from `--durations`): the two xdist
#: workers take whole files in this order (tests/run.sh passes --no-loadscope-reorder), so
#: the long files start at once instead of trailing a finished worker at the end. Files are
#: named without their folder (tests/<layer>/...): test file names are unique across folders
HEAVY_FIRST = ("test_training_grpo.py", "test_traps.py", "test_training_sft.py",
               "test_oracle_off_script.py", "test_training_data.py", "test_oracle_golden.py",
               "test_training_table.py", "test_template_contract.py", "test_qwen_vl.py",
               "test_eval.py", "test_training_lora.py", "test_smollm2.py")


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest keep order


def canonical(payload: tuple[bytes, dict]) -> tuple[bytes, dict]:
    """A sim snapshot's payload in a form equal for equal phones: re-pickled once loaded,
    so which equal strings share one object (a live phone's literals are interned, a
    restored phone's are not) no longer shows in the bytes."""
    import pickle

    blob, dbs = payload
    return pickle.dumps(pickle.loads(blob), protocol=pickle.HIGHEST_PROTOCOL), dbs
