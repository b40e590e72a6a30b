"""Tests of replicability.papers.bouckaert2004.sorted_runs: the Section 4 sweep (notebook 03_sweep)."""

import numpy as np
import pytest

from replicability.papers.bouckaert2004 import sorted_runs as sweep
from replicability.report.claims import INCONCLUSIVE
from replicability.report.uncertainty import rate_se


def test_sweep_reproduces_the_committed_table_and_judges_by_rate_se(committed):
    res = sweep.sweep()
    assert np.allclose(res.frame["type1_excess_pct"], committed("section4_sweep")["type1_excess_pct"], rtol=1e-8)
    c, values = sweep.sweep_claims(res)
    frame = res.frame[res.frame["factor"] == "learner"]
    worst = float(frame["type1_excess_pct"].max())
    # The learner factor: over the bound of 1 point, by less than 2 SE of a rate at 6% over 1000 data sets.
    assert 1.0 < worst <= 1.0 + 200 * rate_se(0.06, 1000)
    assert values["type1_learner"] == INCONCLUSIVE
    # Paired steps of the run sweep: the same data sets at every number of runs.
    step = res.runs_per_dataset[1, "t", 20] - res.runs_per_dataset[1, "t", 10]
    part = res.by_factor["runs_all"].query("data_source == 1 and test == 't'").set_index("setting")["norm_r2_pct"]
    assert 100 * step.mean() == pytest.approx(part[20] - part[10])


def test_sweep_page_takes_pairs_as_lists_and_writes_only_when_asked(written):
    page = sweep.sweep_page(scale="smoke", learner_pairs=[["naive_bayes", "c45"]])
    assert written("section4_sweep") is None  # nothing is written while the page is built
    assert list(page.tables) == ["alpha", "runs", "class_probability", "n_classes", "learner", "excess", "cost"]
    assert page.show("learner").frame.index.tolist() == ["naive_bayes vs c45"]
    page.write()
    assert len(written("section4_sweep")) == len(page.reproduced["section4_sweep"])
    assert set(page.figures) == {"runs", "class_probability"}
