"""`python -m atlas_assets.simulator --profile P --port 0 --log FILE`: serve a simulator;
the first stdout line is the base URL."""

import sys

from atlas_assets.simulator.cli import main

sys.exit(main())
