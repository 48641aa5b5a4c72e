"""The offset estimate: the tightest recent sample, uncertain when stale or loose."""

from __future__ import annotations

from kiosk.sync.timesync import OffsetEstimator, Sample, choose_reference


def test_the_sample_with_the_shortest_round_trip_wins() -> None:
    est = OffsetEstimator()
    est.add(Sample.of(0.0, 3600.30, 3600.30, 0.40))   # queued on the way out
    est.add(Sample.of(1.0, 3601.005, 3601.006, 1.011))
    est.add(Sample.of(2.0, 3602.10, 3602.10, 2.30))
    got = est.estimate(2.5, 0.0, is_reference=False)
    assert not got.uncertain
    assert abs(got.offset - 3600.0) < 0.001


def test_no_fresh_or_tight_sample_means_uncertain() -> None:
    est = OffsetEstimator(fresh_for=5.0, max_delay=0.1)
    assert est.estimate(0.0, 0.0, is_reference=False).uncertain
    est.add(Sample.of(0.0, 10.0, 10.0, 0.5))
    assert est.estimate(1.0, 0.0, is_reference=False).uncertain  # 0.5 s round trip
    est.add(Sample.of(1.0, 11.01, 11.01, 1.02))
    assert not est.estimate(2.0, 0.0, is_reference=False).uncertain
    assert est.estimate(60.0, 0.0, is_reference=False).uncertain  # stale


def test_only_the_last_few_samples_count() -> None:
    est = OffsetEstimator(keep=2)
    est.add(Sample.of(0.0, 5.0, 5.0, 0.001))
    est.add(Sample.of(1.0, 1.05, 1.05, 1.1))
    est.add(Sample.of(2.0, 2.05, 2.05, 2.1))
    best = est.best()
    assert best is not None and abs(best.offset) < 0.01


def test_the_reference_is_a_display_else_a_console() -> None:
    assert choose_reference([("t", "table"), ("c", "console"), ("d", "display")]) == "d"
    assert choose_reference([("t", "table"), ("c2", "console"), ("c1", "console")]) == "c1"
    assert choose_reference([("t", "table")]) is None


def test_the_reference_itself_is_never_uncertain() -> None:
    est = OffsetEstimator()
    got = est.estimate(0.0, 12.5, is_reference=True)
    assert not got.uncertain and got.offset == 12.5
