"""Tests of replicability.papers.raschka2018.cross_validation (the notebook raschka2018/03_cross_validation).

The page's reproduced tables are written (``page.write()``) to a temporary folder and
compared with the committed ones under data/reproduced/raschka2018, which the notebooks
wrote before their computation moved into the package.
At scale="paper" the heavy studies are read from the committed data/results.
"""

from pathlib import Path

import pandas as pd

from replicability.papers.raschka2018 import cross_validation_page, one_standard_error_rule
from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS, SE_MULTIPLE

ROOT = Path(__file__).resolve().parents[3]
COMMITTED = ROOT / "data" / "reproduced" / "raschka2018"


def _same_as_committed(folder, name):
    written = (folder / "raschka2018" / f"{name}.csv").read_text()
    assert written == (COMMITTED / f"{name}.csv").read_text(), f"{name}.csv differs from the committed table"


def test_cross_validation_page_reproduces_the_committed_tables(reproduced_dir):
    page = cross_validation_page()
    assert not any(reproduced_dir.iterdir())  # nothing is written before page.write()
    page.write()
    for name in ("section36_bias_variance", "figure18", "section414_nested_cv"):
        _same_as_committed(reproduced_dir, name)
    gamma = page.tables["gamma"].frame
    mean, se = gamma["cv accuracy"].astype(float), gamma["standard error"].astype(float)
    # The one-SE choice from the displayed (rounded) table is the page's choice.
    assert float(gamma["gamma"][one_standard_error_rule(mean, se)]) == page.values["svm_chosen_gamma"]
    verdicts = page.claims.verdicts()
    assert verdicts["fig18_one_se"] == (HOLDS if page.values["svm_chosen_gamma"] == 0.1 else NOT_HOLDS)
    assert verdicts["trend3_cost"] == HOLDS


def test_cross_validation_nested_claims_follow_the_rule(reproduced_dir):
    page = cross_validation_page()
    nested = pd.read_csv(COMMITTED / "section414_nested_cv.csv").set_index("estimate")
    bias, se = nested["bias (estimate - true)"], nested["bias s.e."]
    verdicts = page.claims.verdicts()
    assert verdicts["nested_optimistic"] == (HOLDS if bias["non_nested"] > 0 else NOT_HOLDS)
    b, s = abs(bias["nested"]), se["nested"]
    assert verdicts["nested_unbiased"] == (HOLDS if b == 0 else INCONCLUSIVE if b <= SE_MULTIPLE * s else NOT_HOLDS)
