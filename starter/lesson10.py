"""Lesson 10, your edit: do a pack, its ratification report and a run belong together?

The harness starts only under a ratified safety pack, and verify and replay
trust a sealed report's word about the pack it ran under only when that pack
is ratified. Both ask the one question you write here,
``first_broken_link(pack, ratification, sealed)``, for these inputs:

* ``pack``: a pack document as JSON data (like
  data/packs/safety/harness_safety_v1.json), with its five fields
  ``pack_id``, ``schema_version``, ``description``, ``boundaries`` and
  ``ratification_digest``; the last may be any string;
* ``ratification``: whatever the pack's ratification report file holds (like
  harness_safety_v1.ratification.json), of any shape at all;
* ``sealed``: whatever a sealed report holds as its ``safety_pack`` section
  (what the run says it ran under), of any shape too, or None when no run is
  in question: start-up asks about the pack alone.

The answer is the name of the first link of ``LINKS`` that does not hold, or
"" when every link holds. The links are ordered as they rest on each other:
a report's fields mean nothing until its seal holds, and a run's word about
a pack means nothing until the pack is ratified.

* ``"seal"`` holds when the report is exactly what ratify writes: an object
  with the five fields of ``REPORT_FIELDS`` and no others, whose ``seal`` is
  the digest of the report without its seal;
* ``"pack"`` holds when the report ratifies this very pack: its ``pack_id``
  is the pack's, and its ``pack_digest`` is the digest of the pack without
  its ``ratification_digest``;
* ``"report"`` holds when the pack names this very report: its
  ``ratification_digest`` is the digest of the whole report, seal included;
* ``"run"``, asked only when ``sealed`` is given, holds when the section is
  exactly what a run under this pack, ratified, writes: the fields
  ``pack_id``, ``digest`` and ``ratification``, and no others, holding the
  pack's id, the pack's digest (as ``"pack"`` takes it) and ``"ratified"``.

Why a match and not a presence: a sealed report that sits beside the pack,
or a pack that names some digest, proves nothing about this pack; only the
digests, compared character for character, tie the three together (a digest
in other letter case, or one character short, is another digest). A digest
here is ``core.run.canon.digest``; a value with no canonical JSON form (a
lone surrogate) makes it raise ``core.run.canon.CanonError``, and a report
holding one has no seal that can hold: the answer is then ``"seal"``, never
an exception. The function changes nothing it is handed, and its answer
depends on its three arguments alone.

Check your work with ``course check 10``; ``python3 starter/lesson10_test.py``
asks your function about the committed pack, its report and the reference
run. Read the worked answer, ``solutions/lesson10.py``, after your attempt.
"""

from core.run.canon import CanonError, digest  # noqa: F401  (you will need them)

LINKS = ("seal", "pack", "report", "run")  # each link rests on those before it
REPORT_FIELDS = ("pack_id", "pack_digest", "boundary_ids", "statement", "seal")
RATIFIED = "ratified"  # what a run under a ratified pack says of it


def first_broken_link(pack: dict, ratification: object, sealed: object = None) -> str:
    """The first of LINKS that does not hold between the three; "" when they belong."""
    raise NotImplementedError("TODO: which link, if any, is broken?")
