"""The suite's Hypothesis profiles: deterministic by default, random on demand.

- `ci` (loaded by tests/conftest.py): derandomized, so every run of the suite draws the same
  examples (a hash of each test function seeds it) and a failure reproduces on every run; no
  example database, so nothing saved by an earlier run changes what is drawn.
- `explore`: random seeds on every run, ten times the examples of each test, the example
  database on (a failure found is replayed first next time). For long hunting runs:
  `pytest --hypothesis-profile=explore` (README, "Testing"). Every failure such a run finds
  becomes an `@example(...)` pinned on the test, so the deterministic suite keeps it.

Property tests size themselves with `examples(n)`: n in the `ci` profile, n times the explore
factor there (the profile's max_examples against Hypothesis' default of 100).
"""

from __future__ import annotations

from hypothesis import settings

DEFAULT_EXAMPLES = 100  # Hypothesis' own default max_examples
EXPLORE_FACTOR = 10


def register() -> None:
    settings.register_profile("ci", derandomize=True, database=None, deadline=None,
                              print_blob=True, max_examples=DEFAULT_EXAMPLES)
    settings.register_profile("explore", derandomize=False, deadline=None, print_blob=True,
                              max_examples=DEFAULT_EXAMPLES * EXPLORE_FACTOR)


def examples(n: int) -> int:
    """A test's example count under the loaded profile: n in `ci`, scaled in `explore`."""
    return max(1, n * settings.default.max_examples // DEFAULT_EXAMPLES)
