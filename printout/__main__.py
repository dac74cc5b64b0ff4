"""`python -m printout REPORT.json`: `make run`'s printout of a sealed report (see the package)."""

import sys

from printout import main

sys.exit(main(sys.argv[1:]))
