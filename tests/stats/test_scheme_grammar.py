"""Tests for replicability.stats.scheme_grammar: one grammar for split schemes and samples."""

import numpy as np
import pytest

from replicability.stats.scheme_grammar import SAMPLES, SCHEME_ALIASES, SplitScheme, check_sample, parse_scheme
from replicability.stats.schemes import SCHEMES, scheme_sample, scheme_ttest


@pytest.mark.parametrize(("spelling", "params", "expected"), [
    ("10x10cv", {}, SplitScheme("cv", 10, 10)),
    ("5x2cv", {}, SplitScheme("cv", 5, 2)),
    ("1x10cv", {}, SplitScheme("cv", 1, 10)),
    ("10x10 cv", {}, SplitScheme("cv", 10, 10)),
    (" 3X5CV ", {}, SplitScheme("cv", 3, 5)),
    ("resampling", {"n_runs": 30}, SplitScheme("resampling", 30, 1)),
    # the engine registry's names and the papers', runs and folds given apart
    ("cv", {"n_runs": 2, "n_folds": 3}, SplitScheme("cv", 2, 3)),
    ("rxk_cv", {}, SplitScheme("cv", 10, 10)),
    ("kfold_cv", {"n_folds": 5}, SplitScheme("cv", 1, 5)),
    ("5x2", {}, SplitScheme("cv", 5, 2)),
    ("resample", {"n_runs": 7}, SplitScheme("resampling", 7, 1)),
    ("random_subsampling", {}, SplitScheme("resampling", 10, 1)),
])
def test_every_spelling_parses_to_one_scheme(spelling, params, expected):
    assert parse_scheme(spelling, **params) == expected


def test_the_canonical_name_parses_back_to_the_same_scheme():
    for spelling in ("10x10cv", "5x2", "kfold_cv", "resample", *SCHEME_ALIASES):
        spec = parse_scheme(spelling, n_runs=4, n_folds=3)
        assert parse_scheme(spec.name, n_runs=4) == spec
        assert spec.n_splits == spec.n_runs * spec.n_folds


@pytest.mark.parametrize("bad", ["10-fold", "10x10", "cv10", "", "x2cv", None, 10])
def test_a_bad_spelling_is_one_line_naming_the_accepted_forms(bad):
    with pytest.raises(ValueError) as info:
        parse_scheme(bad)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("`scheme` must be 'RxKcv'") and "'resampling'" in message and "'rxk_cv'" in message


def test_too_few_runs_or_folds_are_refused():
    with pytest.raises(ValueError, match="at least 1 run and 2 folds"):
        parse_scheme("1x1cv")
    with pytest.raises(ValueError, match="at least 1 run and 2 folds"):
        parse_scheme("0x10cv")
    with pytest.raises(ValueError, match="`n_folds` must be an integer >= 2"):
        parse_scheme("cv", n_folds=1)
    with pytest.raises(ValueError, match="`n_runs` must be an integer >= 1"):
        parse_scheme("resampling", n_runs=0)


def test_the_two_vocabularies_refuse_each_others_words():
    with pytest.raises(ValueError, match="names the sample a test takes"):
        parse_scheme("sorted_runs")
    with pytest.raises(ValueError, match=r"one of \('all', 'folds', 'runs', 'sorted_runs'\).*how the data are split"):
        check_sample("10x10cv")
    with pytest.raises(ValueError, match=r"`scheme` must be one of"):
        check_sample("nonsense")
    assert [check_sample(s) for s in SAMPLES] == list(SAMPLES)


def test_stats_schemes_take_their_samples_from_the_grammar():
    assert SCHEMES is SAMPLES
    d = np.arange(6.0).reshape(2, 3)
    with pytest.raises(ValueError, match="how the data are split"):
        scheme_sample(d, "2x3cv")
    with pytest.raises(ValueError, match="how the data are split"):
        scheme_ttest(d, scheme="resampling")
