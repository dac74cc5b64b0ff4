"""``python -m tlog``: see tlog/cli.py."""

import sys

from tlog.cli import main

sys.exit(main())
