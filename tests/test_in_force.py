"""The in-force decision (lexgraph/read/in_force.py) on the period shapes the sample corpus lacks: a synced law with
a scheduled revision (the interface with e-Gov sync) and a repealed law. The spans are values as the
store gives them (`version_spans`, `law_provision_spans`); the sample's own shapes are in test_in_force_property.py.
"""

from __future__ import annotations

from datetime import date

from lexgraph.read.in_force import (
    PAST_KNOWN,
    REPEALED,
    SCHEDULED,
    InForce,
    OutOfForce,
    Unknown,
    version_known_on,
    wording_on,
)
from lexgraph.read.revisions import LawSpans, ProvisionSpan, VersionSpan

LAW = "999AC0000000001"
SYNC_DAY = date(2025, 3, 1)


def _synced(scheduled_from: date | None) -> LawSpans:
    """Two enforced revisions (the newer seen in force on the sync day) and one scheduled from `scheduled_from`."""
    versions = [
        VersionSpan(f"{LAW}_20200401_A", date(2020, 4, 1), date(2024, 4, 1), "A"),
        VersionSpan(f"{LAW}_20240401_B", date(2024, 4, 1), scheduled_from, "B", known_in_force_on=SYNC_DAY),
        VersionSpan(f"{LAW}_2026_C", scheduled_from, None, "C", scheduled=True),
    ]
    spans = [
        ProvisionSpan(f"{LAW}/a1@2020", "a1", "article", 1, date(2020, 4, 1), date(2024, 4, 1)),
        ProvisionSpan(f"{LAW}/a1@2024", "a1", "article", 1, date(2024, 4, 1), scheduled_from),
        ProvisionSpan(f"{LAW}/a1@2026", "a1", "article", 1, scheduled_from, None),
    ] if scheduled_from else [
        ProvisionSpan(f"{LAW}/a1@2020", "a1", "article", 1, date(2020, 4, 1), date(2024, 4, 1)),
        ProvisionSpan(f"{LAW}/a1@2024", "a1", "article", 1, date(2024, 4, 1), None),
    ]
    return LawSpans(versions, spans)


def test_a_synced_law_is_known_up_to_the_sync_day_and_a_scheduled_revision_is_never_in_force() -> None:
    spans = _synced(date(2026, 4, 1))
    inside = wording_on(spans, LAW, "a1", date(2024, 5, 1))
    assert isinstance(inside, InForce) and inside.uid == f"{LAW}/a1@2024"
    after_sync = wording_on(spans, LAW, "a1", date(2025, 6, 1))
    assert isinstance(after_sync, Unknown) and after_sync.why == PAST_KNOWN
    assert after_sync.last_known is not None and after_sync.last_known.uid == f"{LAW}/a1@2024"
    scheduled = wording_on(spans, LAW, "a1", date(2026, 5, 1))
    assert isinstance(scheduled, Unknown) and scheduled.why == SCHEDULED and "施行予定" in scheduled.reason
    assert scheduled.last_known is not None and scheduled.last_known.uid == f"{LAW}/a1@2026"  # shown, labelled


def test_a_scheduled_revision_of_open_day_is_read_on_no_day() -> None:
    spans = _synced(None)
    for day in (date(2019, 1, 1), date(2021, 1, 1), date(2030, 1, 1)):
        answer = wording_on(spans, LAW, "a1", day)
        assert not (isinstance(answer, Unknown) and answer.why == SCHEDULED), answer
    assert isinstance(wording_on(spans, LAW, "a1", date(2024, 5, 1)), InForce)
    assert isinstance(wording_on(spans, LAW, "a1", date(2030, 1, 1)), Unknown)  # past the sync day


def test_after_repeal_a_clause_is_not_in_force_and_says_when() -> None:
    spans = LawSpans([VersionSpan(f"{LAW}_20200401_A", date(2020, 4, 1), date(2023, 1, 1), "A")],
                     [ProvisionSpan(f"{LAW}/a1@2020", "a1", "article", 1, date(2020, 4, 1), date(2023, 1, 1))])
    answer = wording_on(spans, LAW, "a1", date(2024, 1, 1))
    assert isinstance(answer, OutOfForce) and answer.why == REPEALED and answer.when == date(2023, 1, 1)
    assert answer.periods == ((date(2020, 4, 1), date(2023, 1, 1)),)
    assert isinstance(version_known_on(spans, LAW, date(2024, 1, 1)), OutOfForce)
