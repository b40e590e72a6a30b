"""Tests of replicability.papers.reference.provenance (the page reference/04_reproducibility)."""

import json

from replicability.engine.store import ResultStore, paper_results_dir
from replicability.papers.reference import command_times, command_times_page, committed_results_page


def test_committed_results_page_lists_every_committed_result():
    page = committed_results_page()
    listing = ResultStore(paper_results_dir()).list_results()
    assert len(page.show("listing").frame) == len(listing)
    seconds = listing["wall_time_s"].astype(float).round(1).sum()
    assert page.data["totals"] == f"{len(listing)} committed results, {seconds:.0f} s of computation in all"
    assert int(page.show("per_family").frame["results"].sum()) == len(listing)
    assert page.glue_values() == {}  # the line is printed, not glued


def test_command_times_page_glues_the_measured_times(tmp_path):
    run = {"wall_s": 150.0, "load_before": [0.4, 0.3, 0.2]}
    (tmp_path / "commands.json").write_text(json.dumps({
        "machine": {"cpu_count": 2, "date": "2026-11-25T10:00:00"},
        "results": {"commands": [{"command": "make book", **run}, {"command": "make test", **run}],
                    "reproduce": {"results": 92, "compute_s": 23760.0}}}))
    page = command_times_page(tmp_path)
    table, values = command_times(tmp_path)
    assert page.glue_values() == {"make_book_minutes": 2.5, "make_test_minutes": 2.5, "reproduce_hours": 6.6,
                                  "n_results": 92, "cpu_count": 2, "measured": "2026-11-25"}
    assert list(page.glue_values()) == list(values)
    assert page.show("times").frame.equals(table.frame)
