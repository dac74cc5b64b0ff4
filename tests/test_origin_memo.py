"""core/run/origins.py remembers what it read for exact strings; the memory never changes an answer.

A run asks about the same destinations many times (the policy, the act's
identity, the verification plan), so `_parse` keeps its answers for exact `str`
input. These tests hold the remembered answer to the one read afresh, and show
that a subclass of str, which may compare and hash as other text, is never
answered from memory.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.run import origins

URLS = st.builds(lambda scheme, host, tail: f"{scheme}://{host}{tail}",
                 st.sampled_from(["http", "https", "HTTPS", "ftp"]),
                 st.from_regex(r"[A-Za-z0-9.\-\[\]:@%]{0,20}", fullmatch=True),
                 st.text(max_size=20))


def _answer(read, text):
    try:
        return ("value", read(text))
    except origins.OriginError as exc:
        return ("error", exc.category)


@given(st.one_of(URLS, st.text(max_size=40)))
def test_a_remembered_answer_is_the_answer_read_afresh(text):
    origins._parsed.cache_clear()
    fresh = _answer(origins._parse_afresh, text)
    assert _answer(origins._parse, text) == fresh  # first read: into memory
    assert _answer(origins._parse, text) == fresh  # second read: from memory


class LooksLikeTheLab(str):
    """Text that says it is equal to, and hashes as, the authorized destination."""

    def __eq__(self, other):
        return True

    def __hash__(self):
        return hash("https://lab.example/")


def test_a_str_subclass_is_never_answered_from_memory():
    origins._parsed.cache_clear()
    assert origins.canonical_origin("https://lab.example/") == "https://lab.example:443"
    assert origins.canonical_origin(LooksLikeTheLab("https://attacker.test/")) == "https://attacker.test:443"
    with pytest.raises(origins.OriginError):
        origins.canonical_origin(LooksLikeTheLab("https://lab.example@attacker.test/"))


def test_the_memory_is_bounded():
    assert origins._parsed.cache_info().maxsize == 1024
