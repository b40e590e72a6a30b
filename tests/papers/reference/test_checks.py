"""Tests of replicability.papers.reference.checks (the pages reference/01_degenerate_cases and 02_weka_agreement)."""

from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from replicability.papers.reference import degenerate_cases, degenerate_cases_page, weka_agreement, weka_agreement_page

ROOT = Path(__file__).resolve().parents[3]


def test_degenerate_cases_follow_the_weka_convention():
    table = degenerate_cases().set_index(["test", "input"])
    zero = table.loc[("paired t-test", "10 zero differences")]
    assert zero["p-value"] == 1.0 and zero["outcome"] == "NO_DIFFERENCE"
    plus = table.loc[("paired t-test", "10 differences of +0.02")]
    assert plus["statistic"] == np.inf and plus["p-value"] == 0.0 and plus["outcome"] == "A_BETTER"
    minus = table.loc[("paired t-test", "10 differences of -0.02")]
    assert minus["statistic"] == -np.inf and minus["outcome"] == "B_BETTER"
    mcnemar = table.loc[("McNemar (chi-square)", "b = c = 0")]
    assert mcnemar["statistic"] == 0.0 and mcnemar["p-value"] == 1.0
    # The sign test on ten positive differences: z = (10 - 0) / sqrt(10), two-sided normal p-value.
    sign = table.loc[("sign test", "10 differences of +0.02")]
    assert sign["statistic"] == pytest.approx(10 / np.sqrt(10))
    assert sign["p-value"] == round(2 * stats.norm.sf(np.sqrt(10)), 6)
    assert not table.isna().any().any()


def test_weka_agreement_on_the_committed_fixtures():
    agreement, trees = weka_agreement(ROOT / "tests" / "fixtures" / "weka_nominal")
    assert agreement["data set"].tolist() == ["indep50", "indep20", "major3", "tree3", "xor4"]
    assert (agreement[["naive Bayes agreement (%)", "C4.5 agreement (%)"]] >= 99).all().all()
    assert (agreement["test instances"] == 300).all()
    assert (trees["folds"] == 10).all()
    assert (trees.drop(columns="folds") <= 10).all().all()


def test_the_pages_show_the_frames_as_pandas_shows_them():
    page = degenerate_cases_page(alpha=0.05)
    shown = page.show("cases")
    frame = degenerate_cases(alpha=0.05)
    assert shown._repr_html_() == frame._repr_html_() and repr(shown) == repr(frame)
    assert page.glue_values() == {} and page.claims.frame().empty
    weka = weka_agreement_page("tests/fixtures/weka_nominal")  # relative to the repository root
    agreement, trees = weka_agreement(ROOT / "tests" / "fixtures" / "weka_nominal")
    assert weka.show("agreement")._repr_html_() == agreement._repr_html_()
    assert repr(weka.show("trees")) == repr(trees)
