"""The core's results, bit for bit, on a fixed set of shots (issue 16: a change made for
speed leaves every result identical; tests/golden/fingerprints.py says how to regenerate the
file after a deliberate physics change)."""

from __future__ import annotations

import json

from tests.golden.fingerprints import FILE, all_fingerprints


def test_every_result_is_bit_for_bit_the_stored_one():
    want = json.loads(FILE.read_text())
    got = all_fingerprints()
    assert list(got) == list(want), "the shot set changed: python -m tests.golden.fingerprints"
    changed = [name for name in want if got[name] != want[name]]
    assert not changed, (f"{len(changed)} of {len(want)} shots changed in some bit: {changed}; "
                         "if the physics changed on purpose, python -m tests.golden.fingerprints")
