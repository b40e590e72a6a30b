"""Tests for replicability._collector: the garbage collector paused around the compiled calls."""

import gc

import pytest

from replicability._collector import collector_paused, paused

_where = ["outside"]


@pytest.fixture
def collections():
    """Where the collections that start while the test runs start, the collector made as eager as it goes."""
    started = []

    def record(phase, info):
        if phase == "start":
            started.append(_where[0])

    threshold, enabled = gc.get_threshold(), gc.isenabled()
    gc.set_threshold(1, 1, 1)  # a collection at almost every container allocated
    gc.enable()
    gc.callbacks.append(record)
    try:
        yield started
    finally:
        gc.callbacks.remove(record)
        gc.set_threshold(*threshold)
        if not enabled:
            gc.disable()


def _allocate(where="inside"):
    _where[0] = where
    try:
        return [[i] for i in range(100)]
    finally:
        _where[0] = "outside"


def test_allocations_collect_when_not_paused(collections):
    # The control: the fixture does provoke collections, so an empty record below means something.
    _allocate()
    assert "inside" in collections


def test_no_collection_while_paused_and_collector_enabled_after(collections):
    with collector_paused():
        _allocate()
        assert not gc.isenabled()
    assert "inside" not in collections
    assert gc.isenabled()


def test_nested_pauses_leave_it_paused_until_the_outermost_ends(collections):
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()
        _allocate()
    assert "inside" not in collections and gc.isenabled()


def test_a_disabled_collector_stays_disabled():
    enabled = gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        if enabled:
            gc.enable()


def test_paused_function_returns_its_result_and_reenables_after_an_error(collections):
    assert paused(_allocate)() == [[i] for i in range(100)]

    @paused
    def fail():
        _allocate()
        raise ValueError("boom")

    collections.clear()
    with pytest.raises(ValueError, match="boom"):
        fail()
    assert "inside" not in collections and gc.isenabled()
