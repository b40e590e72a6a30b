"""Tests of replicability.papers.raschka2018.holdout (the notebook raschka2018/01_holdout).

The page's reproduced tables are written (``page.write()``) to a temporary folder and
compared with the committed ones under data/reproduced/raschka2018, which the notebooks
wrote before their computation moved into the package.
"""

import math
from pathlib import Path

import numpy as np
import pytest

from replicability.papers.raschka2018 import holdout_page
from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS, SE_MULTIPLE
from replicability.stats.evaluation import random_split_deviation_probability

ROOT = Path(__file__).resolve().parents[3]
COMMITTED = ROOT / "data" / "reproduced" / "raschka2018"


def _same_as_committed(folder, name):
    written = (folder / "raschka2018" / f"{name}.csv").read_text()
    assert written == (COMMITTED / f"{name}.csv").read_text(), f"{name}.csv differs from the committed table"


def test_holdout_page_reproduces_the_committed_table_and_judges_its_claims(reproduced_dir):
    page = holdout_page(scale="smoke")  # Section 1 numbers do not depend on the scale
    assert not any(reproduced_dir.iterdir())  # nothing is written before page.write()
    page.write()
    _same_as_committed(reproduced_dir, "section1_holdout")
    whole = np.array([50, 50, 50])
    expected = round(float(random_split_deviation_probability(whole, np.array([38, 28, 34]))), 3)
    assert page.values["p_as_unbalanced"] == expected
    verdicts = page.claims.verdicts()
    assert verdicts["fig1_random_split"] == (HOLDS if expected >= 0.05 else NOT_HOLDS)
    assert verdicts["eq14_sd"] == HOLDS  # sqrt(10) = 3.162 prints as 3.16
    assert verdicts["eq17_z"] == HOLDS
    assert (reproduced_dir / "claims" / "raschka2018" / "01_holdout.csv").is_file()


def test_holdout_coverage_claim_follows_the_rule(reproduced_dir):
    page = holdout_page(scale="smoke")
    coverage = page.tables["coverage"].frame.astype(float).to_numpy()
    p = np.array(page.tables["coverage"].frame.index, dtype=float)[:, None]
    n = np.array(page.tables["coverage"].frame.columns, dtype=float)[None, :]
    large = (n * p * (1 - p) >= 10).ravel()
    tolerance = SE_MULTIPLE * 100 * math.sqrt(0.95 * 0.05 / 200)
    worst = coverage.ravel()[large].min()
    expected = HOLDS if worst >= 95 else INCONCLUSIVE if worst >= 95 - tolerance - 0.05 else NOT_HOLDS
    assert page.claims.verdicts()["eq17_coverage_large"] == expected


def test_holdout_page_rejects_an_unknown_scale():
    with pytest.raises(ValueError, match="`scale` must be one of"):
        holdout_page(scale="huge")
