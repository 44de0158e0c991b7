"""`python -m antrap_gym.device.adbd --port P [--serial S] [--host H]`."""

import sys

from antrap_gym.device.adbd.cli import main

sys.exit(main())
