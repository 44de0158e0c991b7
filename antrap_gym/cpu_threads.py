"""CPU threads when several processes share the machine.

torch (and the BLAS libraries under numpy) start one thread per core in every process;
two evaluation workers or two training units on two cores then run four threads that
fight for two cores, and a model's step takes several times as long (SmolLM2: 0.079 s a
token at one thread against 0.745 s at two, under load). A process that is one of
`n` working side by side takes its share of the cores instead; a limit the user set
in the environment is kept.
"""

from __future__ import annotations

import os
import sys

#: the variables the thread pools of OpenMP, MKL and OpenBLAS read when they start
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def share_of_cores(processes: int) -> int:
    """Threads for one of `processes` processes working at once: the cores divided
    between them, at least one."""
    return max(1, (os.cpu_count() or 1) // max(1, int(processes)))


def limit_threads(threads: int) -> int:
    """Have this process use `threads` CPU threads from now on (libraries that start
    later read the environment; torch, if already loaded, is told). Returns the limit
    in force: the environment's, where the user set one."""
    user = os.environ.get("OMP_NUM_THREADS", "")
    n = int(user) if user.isdigit() and int(user) > 0 else max(1, int(threads))
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, str(n))
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(n)
    return n
