"""``python -m core.run.report``: rendering verifies the whole report first, so the command lives
with the whole harness (core.run.main.report_command).

A module of its own, so that nothing the harness imports imports the
command back: the lesson's module (``__init__.py``) never imports main.
"""

import sys

from core.run.main import report_command

sys.exit(report_command())
