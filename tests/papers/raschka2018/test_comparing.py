"""Tests of replicability.papers.raschka2018.comparing (the notebook raschka2018/04_comparing_algorithms).

The page's reproduced tables are written (``page.write()``) to a temporary folder and
compared with the committed ones under data/reproduced/raschka2018, which the notebooks
wrote before their computation moved into the package.
At scale="paper" the heavy studies are read from the committed data/results.
"""

import math
from pathlib import Path

import pandas as pd
import pytest

from replicability.papers.raschka2018 import comparing_page
from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS, SE_MULTIPLE

ROOT = Path(__file__).resolve().parents[3]
COMMITTED = ROOT / "data" / "reproduced" / "raschka2018"


def _same_as_committed(folder, name):
    written = (folder / "raschka2018" / f"{name}.csv").read_text()
    assert written == (COMMITTED / f"{name}.csv").read_text(), f"{name}.csv differs from the committed table"


def test_comparing_page_reproduces_the_committed_tables(reproduced_dir):
    page = comparing_page()
    assert not any(reproduced_dir.iterdir())  # nothing is written before page.write()
    page.write()
    for name in ("figure20", "table2", "section48_simulation"):
        _same_as_committed(reproduced_dir, name)
    figure20 = page.tables["figure20"].frame
    assert float(figure20.loc[("A", "chi-squared"), "ours"]) == pytest.approx((11 - 1) ** 2 / 12, abs=1e-4)
    verdicts = page.claims.verdicts()
    assert verdicts["fig20_chi2"] == HOLDS and verdicts["table2_q"] == HOLDS


def test_comparing_simulation_claims_follow_the_rule(reproduced_dir):
    page = comparing_page()
    table = pd.read_csv(COMMITTED / "section48_simulation.csv").set_index("test")
    tolerance = SE_MULTIPLE * 100 * math.sqrt(0.05 * 0.95 / 200)

    def above(rate, bound=5.0):
        # an ordering: beyond the uncertainty either way, inconclusive between
        tol = SE_MULTIPLE * 100 * math.sqrt(bound / 100 * (1 - bound / 100) / 200)
        return HOLDS if rate > bound + tol + 1e-9 else NOT_HOLDS if rate < bound - tol - 1e-9 else INCONCLUSIVE

    def below(rate):
        return HOLDS if rate <= 5 else INCONCLUSIVE if rate <= 5 + tolerance + 1e-9 else NOT_HOLDS

    verdicts = page.claims.verdicts()
    # "high": at least twice the level (QUALIFIERS)
    assert verdicts["s48_proportions"] == above(table.loc["difference of proportions", "null_rate_percent"], 10.0)
    assert verdicts["s48_resampled"] == above(table.loc["resampled paired t", "null_rate_percent"], 10.0)
    assert verdicts["s48_kfold"] == above(table.loc["10-fold cv paired t", "null_rate_percent"])
    assert verdicts["s48_mcnemar"] == below(table.loc["McNemar (Edwards)", "null_rate_percent"])
    assert verdicts["s48_5x2cv_t"] == below(table.loc["Dietterich 5x2cv t", "null_rate_percent"])


@pytest.mark.parametrize("alpha", [0.05, 0.01])
def test_the_proportions_sentence_is_chosen_by_its_claims_verdict(alpha):
    from replicability.papers.raschka2018.comparing import _proportions_reading

    page = comparing_page(alpha=alpha)  # the committed simulations, judged at the level given
    verdict, sentence = page.claims.verdicts()["s48_proportions"], page.values["proportions_reading"]
    assert sentence == _proportions_reading(page.values["type1_proportions_z"], 100 * alpha, verdict)
    assert sentence.startswith("at least twice") == (verdict == HOLDS)
    assert _proportions_reading(7.0, 5.0, NOT_HOLDS).startswith("above the level, short of twice")
    assert _proportions_reading(9.5, 5.0, INCONCLUSIVE).startswith("within its uncertainty of twice")
