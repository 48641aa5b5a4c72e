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


def test_at_60x_the_limits_are_real_seconds_scaled_to_shared_ones() -> None:
    """``pubpoker kiosk --speed 60``: samples are in shared seconds, 60 per real one."""
    est = OffsetEstimator(speed=60.0)
    # A 6 ms round trip is 0.36 shared seconds: still tight (the limit is 0.25 real s).
    est.add(Sample.of(0.0, 100.18, 100.18, 0.36))
    assert not est.estimate(1.0, 0.0, is_reference=False).uncertain
    # A sample a real second old (60 shared seconds) is fresh; 16 real seconds is stale.
    assert not est.estimate(60.0, 0.0, is_reference=False).uncertain
    assert est.estimate(16 * 60.0, 0.0, is_reference=False).uncertain
    # A 0.5 real-second round trip is still too loose at any speed.
    loose = OffsetEstimator(speed=60.0)
    loose.add(Sample.of(0.0, 115.0, 115.0, 30.0))
    assert loose.estimate(30.0, 0.0, is_reference=False).uncertain


def test_the_sync_service_estimates_at_its_clock_speed() -> None:
    from kiosk.sync.link import Identity
    from kiosk.sync.service import SyncService
    from kiosk.timebase import SharedClock

    service = SyncService(Identity("d", "console", None, "c"), b"k" * 32,
                          SharedClock(speed=60.0))
    assert service._estimator.speed == 60.0
