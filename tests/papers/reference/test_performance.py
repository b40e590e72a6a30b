"""Tests of replicability.papers.reference.performance (the page reference/03_performance)."""

import json
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

from replicability.papers.reference import (
    BENCHMARK_TITLES,
    SECTIONS,
    performance_page,
    performance_report,
    read_benchmarks,
)
from replicability.papers.reference.performance import _workload_label
from replicability.report.page import Table

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[3]


def test_workload_labels_in_words():
    assert _workload_label('naive_bayes-c45 bayesnet {"source": 1} rxk_cv {"n_folds": 10, "n_runs": 10} 1000x10') == (
        "naive Bayes vs C4.5", "Bayesian network 1", "10 × 10-fold cv", "1000 × 10")
    assert _workload_label('ib1-tan independent_binary {"class_probability": null, "n_attributes": 10, '
                           '"n_classes": 3} resample {"n_runs": 100, "test_fraction": 0.1} 200x1') == (
        "1-NN vs TAN", "independent attributes, 3 classes", "100 resamples, 10% test", "200 × 1")
    assert _workload_label("bouckaert2003/calibration_set1")[0] == "Bouckaert 2003: calibration set 1"


def test_performance_report_has_readable_labels_and_no_nan():
    report = performance_report()
    assert set(report.tables) >= {"machine", "statistics", "engine", "engine_speedup", "workload"}
    for name, table in report.tables.items():
        assert not table.isna().any().any(), name
        shown = table.to_string()
        assert "NaN" not in shown and "nan" not in shown, name
        for label in [*map(str, table.index), *map(str, table.columns)]:
            assert "_" not in label, f"{name}: raw key {label!r}"
    speedup = report.tables["engine_speedup"]
    engine = json.loads((ROOT / "data" / "benchmarks" / "engine.json").read_text())["results"]
    assert speedup.loc["over the scikit-learn loop (CPU)", "null data"] == \
        f"{engine['speedup_null_data']['vs_sklearn_loop_cpu']:,.1f}×"
    assert speedup.loc["over the loop through our estimators (CPU)", "source 4"] == "not measured"
    assert set(report.tables["machine"].index) <= set(BENCHMARK_TITLES.values())


def test_performance_report_j48_kernel_section(tmp_path):
    def row(ratio):
        return {"baseline_us_per_fit": 80.0, "current_us_per_fit": 80.0 / ratio, "ratio_median": ratio,
                "ratio_min": ratio - 0.25, "ratio_max": ratio + 0.25, "n_patterns": 250, "identical": True}

    kernel = {"machine": {"date": "2026-01-01", "cpu_count": 2},
              "results": {"baseline_commit": "7044ef8", "rounds": 21, "fits_per_round": 1000, "target_ratio": 2.0,
                          "data": {"null data": row(1.75), "source 4": row(2.5)}}}
    (tmp_path / "j48_kernel.json").write_text(json.dumps(kernel))
    report = performance_report(folder=tmp_path)
    table = report.tables["j48_kernel"]
    assert table.loc["null data"].tolist() == ["80.0", "45.7", "1.75× [1.50–2.00]", "yes"]
    assert table.loc["source 4", "CPU µs per fit at 7044ef8"] == "80.0"
    assert report.lines["j48_kernel"] == [
        "1000 fits per round, 21 interleaved rounds in one process; target 2× on every data set: not met on null data."]


def test_performance_report_reads_only_the_named_files(tmp_path):
    counts = {"machine": {"date": "2026-01-01", "cpu_count": 2},
              "results": {"configuration": {"cpu_seconds": {"n=1,000": 2.0, "n=200,000": 2.5}, "ratio": 1.25},
                          "count_sampling": {"cpu_seconds": {"n=1,000": 0.5, "n=200,000": 0.5}, "ratio": 1.0}}}
    (tmp_path / "counts.json").write_text(json.dumps(counts))
    report = performance_report(folder=tmp_path)
    assert set(report.tables) == {"machine", "counts"}
    assert report.tables["counts"].iloc[0].tolist() == ["2.000", "2.500", "1.250"]
    assert report.lines["counts"] == ["configuration: ratio 1.25, target 1.2: not met."]
    assert isinstance(report.tables["machine"], pd.DataFrame)
    with pytest.raises(FileNotFoundError, match="make benchmark"):
        read_benchmarks(["engine"], folder=tmp_path)


def test_performance_page_shows_every_section_and_notes_the_unmeasured(tmp_path):
    import matplotlib.pyplot as plt

    counts = {"machine": {"date": "2026-01-01", "cpu_count": 2},
              "results": {"configuration": {"cpu_seconds": {"n=1,000": 2.0, "n=200,000": 2.5}, "ratio": 1.25},
                          "count_sampling": {"cpu_seconds": {"n=1,000": 0.5, "n=200,000": 0.5}, "ratio": 1.0}}}
    (tmp_path / "counts.json").write_text(json.dumps(counts))
    page = performance_page(folder=tmp_path)
    assert set(page.tables) == set(SECTIONS) and set(page.data) == {f"{s}_lines" for s in SECTIONS}
    assert isinstance(page.show("counts"), Table)
    assert page.show("counts").frame.equals(performance_report(folder=tmp_path).tables["counts"])
    assert page.data["counts_lines"].data == "* configuration: ratio 1.25, target 1.2: not met."
    assert "Not measured: no <code>data/benchmarks/engine.json</code>." in page.show("engine").data
    assert page.data["engine_lines"].data == ""
    fig = page.figures["scaling"]()  # not measured: a figure with the note
    assert "Not measured" in fig.axes[0].texts[0].get_text()
    plt.close(fig)
    assert page.glue_values() == {} and page.claims.frame().empty


def test_performance_page_on_the_committed_benchmarks():
    page = performance_page()
    report = performance_report()
    for section, table in report.tables.items():
        assert page.show(section).frame.equals(table)
    lines = report.lines["engine_speedup"]
    assert page.data["engine_speedup_lines"].data == "\n".join(f"* {line}" for line in lines)
    assert set(page.figures) == {"engine_speedup", "scaling"}
