"""Tests of replicability.papers.bouckaert2003.compare: the paper's rows beside ours, numbers stated in words.

The check of ``rate_difference_se`` (``replicability.report.uncertainty``, where the
standard error that ``compare`` once held now lives) stays here with the helpers it served.
"""

import pandas as pd
import pytest

from replicability.papers import bouckaert2003


@pytest.mark.parametrize(("value", "expected"), [(11, 0.5), (90, 5.0), (10, 5.0), (33, 0.5), (0.3, 0.05),
                                                  (2.25, 0.005), (100, 50.0)])
def test_word_rounding_is_half_a_unit_of_the_last_significant_digit(value, expected):
    assert bouckaert2003.word_rounding(value) == pytest.approx(expected)


def test_word_rounding_rejects_zero():
    with pytest.raises(ValueError, match="`value` must be non-zero"):
        bouckaert2003.word_rounding(0)


def test_worst_first_orders_by_margin_and_broadcasts():
    values, se = bouckaert2003.worst_first([2.0, -1.0, 0.5], [20, -10, 5], 0.3)
    assert values.tolist() == [-10.0, 5.0, 20.0]
    assert se.tolist() == [0.3, 0.3, 0.3]


def test_comparison_rows_stacks_paper_ours_difference():
    both = pd.DataFrame({"test": ["b", "b", "a", "a"], "level": [1, 2, 1, 2], "published": [1.0, 2.0, 3.0, 4.0],
                         "reproduced": [1.04, 1.0, 3.0, 4.26]})
    both["difference"] = both["reproduced"] - both["published"]
    rows = bouckaert2003.comparison_rows(both, index="test", columns="level", labels={"a": "A", "b": "B"},
                                         order=["b", "a"])
    assert rows.index.tolist() == [("B", "published"), ("B", "ours"), ("B", "difference"),
                                   ("A", "published"), ("A", "ours"), ("A", "difference")]
    assert rows[1].tolist() == ["1.0", "1.0", "0.0", "3.0", "3.0", "0.0"]  # 0.04 rounds to 0.0, never -0.0
    assert rows[2].tolist() == ["2.0", "1.0", "-1.0", "4.0", "4.3", "+0.3"]
