"""``python3 -m core.run.seal``: verifying a whole report re-derives every section, so the command
lives with the whole harness (core.run.main.seal_command).

A module of its own, so that nothing the harness imports imports the
command back: the lesson's module (``__init__.py``) never imports main.
"""

import sys

from core.run.main import seal_command

sys.exit(seal_command())
