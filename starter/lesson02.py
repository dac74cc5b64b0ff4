"""Lesson 2, your edit: write your own operator policy.

``build_my_policy()`` must return a ``Policy`` (see ``core/run/policy.py``)
that authorizes what this course's engagement may do and nothing more, because
the catalogue is the whole list of what may run: any tool it names is a tool
the door lets a model use. It must

- name YOUR OWN authorization reference: any non-empty word that is neither
  the placeholder below nor the course's ``training-authorization-0001`` (for
  example ``training-authorization-0042``);
- authorize exactly one origin, the lab: ``https://lab.example:443``;
- keep the reference ``inspect_headers`` tool exactly as lesson 2's demo
  declares it (passive, requires nothing, family ``fam-recon``, weight 2.0,
  cost 1.0);
- declare a new fictional tool ``inspect_metadata``: passive, in a family of
  your choosing, with a positive weight and cost, that ``requires`` the
  observed field ``has_meta`` to be ``True`` (so the door refuses it until
  something has observed that the page carries a generator meta tag). Like
  ``inspect_headers`` it declares no ``arguments``: a passive tool takes no
  input, not even a query in its URL;
- declare no other tool;
- keep positive budgets: ``max_actions`` and ``max_model_calls``.

The check runs your file in a process of its own and reads your policy as data,
its ``snapshot()``: that is what names a run, and what lesson 2's door judges in
the check's own process, on destinations and tool names it draws fresh for each
run. While your file runs, the course's ``data/``, the worked answers in
``solutions/`` and lesson 3's demo (``core.run.demo_stages``, which declares the
same tool) are unavailable to it. Check your work with ``course check 2`` (or
``python3 -m pytest starter/lesson02_test.py -q``). The worked answer is
``solutions/lesson02.py``: read it after your attempt.
"""

from core.run.policy import Policy


def build_my_policy() -> Policy:
    return Policy.from_dict(
        {
            "reference": "CHANGE-ME",  # TODO 1: your own authorization reference
            "allowed_origins": ["https://lab.example:443"],
            "tools": [
                {
                    "tool_id": "inspect_headers",
                    "activity": "passive",
                    "requires": {},
                    "family": "fam-recon",
                    "weight": 2.0,
                    "cost": 1.0,
                },
                # TODO 2: declare inspect_metadata here; it requires the observed field has_meta.
            ],
            "max_actions": 4,
            "max_model_calls": 4,
        }
    )
