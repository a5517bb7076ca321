"""The core's results, bit for bit, on a fixed set of shots (issue 16: a change made for
speed leaves every result identical; tests/golden/fingerprints.py says how to regenerate the
file after a deliberate physics change)."""

from __future__ import annotations

import json

from tests.golden.fingerprints import FILE, all_fingerprints, changed_shots


def test_every_result_is_bit_for_bit_the_stored_one():
    want = json.loads(FILE.read_text())
    got = all_fingerprints()
    assert list(got) == list(want), "the shot set changed: python -m tests.golden.fingerprints"
    changed = changed_shots(got, want)
    assert not changed, (f"{len(changed)} of {len(want)} shots changed in some bit: {changed}; "
                         "if the physics changed on purpose, python -m tests.golden.fingerprints")


def test_a_host_variant_passes_only_for_its_own_shot(monkeypatch):
    """A hash recorded for another host (fingerprints_hosts.json) is accepted for that shot
    alone; any other hash is a change."""
    import tests.golden.fingerprints as fp

    monkeypatch.setattr(fp, "host_variants", lambda: {"a": {"h2": "another host"}})
    want = {"a": "h1", "b": "h1"}
    assert fp.changed_shots({"a": "h1", "b": "h1"}, want) == []
    assert fp.changed_shots({"a": "h2", "b": "h1"}, want) == []
    assert fp.changed_shots({"a": "h3", "b": "h2"}, want) == ["a", "b"]
