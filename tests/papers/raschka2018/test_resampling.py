"""Tests of replicability.papers.raschka2018.resampling (the notebook raschka2018/02_resampling_bootstrap).

The page's reproduced tables are written (``page.write()``) to a temporary folder and
compared with the committed ones under data/reproduced/raschka2018, which the notebooks
wrote before their computation moved into the package.
At scale="paper" the heavy studies are read from the committed data/results.
"""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from replicability.papers.raschka2018 import quantile_se, resampling_page
from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS, SE_MULTIPLE

ROOT = Path(__file__).resolve().parents[3]
COMMITTED = ROOT / "data" / "reproduced" / "raschka2018"


def _same_as_committed(folder, name):
    written = (folder / "raschka2018" / f"{name}.csv").read_text()
    assert written == (COMMITTED / f"{name}.csv").read_text(), f"{name}.csv differs from the committed table"


def test_quantile_se_against_the_median_formula_and_a_simulation():
    # The median of n normal draws has asymptotic standard error sd * sqrt(pi / (2 n)).
    assert quantile_se(2.0, 100, 0.5) == pytest.approx(2.0 * math.sqrt(math.pi / 200), rel=1e-12)
    draws = np.random.default_rng(0).normal(size=(4000, 200))
    simulated = np.quantile(draws, 0.025, axis=1).std(ddof=1)
    assert quantile_se(1.0, 200, 0.025) == pytest.approx(simulated, rel=0.1)


def test_resampling_page_reproduces_the_committed_table(reproduced_dir):
    page = resampling_page()
    assert not any(reproduced_dir.iterdir())  # nothing is written before page.write()
    page.write()
    _same_as_committed(reproduced_dir, "section2_resampling")
    committed = pd.read_csv(COMMITTED / "section2_resampling.csv").set_index("item")["value"]
    assert page.values["mean_50_50"] == round(100 * committed["mean_accuracy_50_50"], 1)
    assert page.values["mean_90_10"] == round(100 * committed["mean_accuracy_90_10"], 1)


def test_resampling_figure6_claims_follow_the_rule(reproduced_dir):
    page = resampling_page()
    committed = pd.read_csv(COMMITTED / "section2_resampling.csv").set_index("item")["value"]
    m50, m90 = 100 * committed["mean_accuracy_50_50"], 100 * committed["mean_accuracy_90_10"]
    sd = page.tables["figure6"].frame["sd"].astype(float).to_numpy() * 100  # 50/50, 90/10, 4 decimals
    se_gap = math.hypot(*(sd / math.sqrt(50)))
    gap = m90 - m50
    # an ordering holds only beyond its uncertainty (sd printed to 4 decimals: 0.01 either way is undecidable)
    assert abs(abs(gap) - SE_MULTIPLE * se_gap) > 0.01
    expected = HOLDS if gap > SE_MULTIPLE * se_gap else NOT_HOLDS if gap < -SE_MULTIPLE * se_gap else INCONCLUSIVE
    verdicts = page.claims.verdicts()
    assert verdicts["fig6_ordering"] == expected
    # The 50/50 mean against the printed 95%: half a point of rounding plus two standard errors.
    gap50 = abs(m50 - 95)
    expected50 = HOLDS if gap50 <= 0.5 else INCONCLUSIVE if gap50 <= 0.5 + SE_MULTIPLE * sd[0] / math.sqrt(50) + 0.01 \
        else NOT_HOLDS
    assert verdicts["fig6_mean_50_50"] == expected50
    assert verdicts["eq33_out_of_bag"] == NOT_HOLDS  # 0.368, not the printed 0.382 (ERRATA)
    assert verdicts["eq28_t"] == HOLDS and round(stats.t.ppf(0.975, 99), 3) == 1.984
