"""``python -m ai.cli``: the ``plyground`` command line without its console script."""

import sys

from ai.cli import main

sys.exit(main())
