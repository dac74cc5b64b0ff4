"""Wrong: loads the worked answer from solutions/lesson02.py and returns its policy.

Kind: reads the reference
Fails with: solutions is unavailable while the check runs
Passed the check before lesson 2 was rebuilt: yes
"""

import importlib.util
from pathlib import Path

from core.run.policy import Policy

ANSWER = Path(__file__).resolve().parents[1] / "lesson02.py"
if not ANSWER.is_file():  # as starter/lesson02.py, the answer is next door
    ANSWER = Path(__file__).resolve().parents[1] / "solutions" / "lesson02.py"


def build_my_policy() -> Policy:
    spec = importlib.util.spec_from_file_location("worked_answer", ANSWER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build_my_policy()
