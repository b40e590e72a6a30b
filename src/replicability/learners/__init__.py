"""Learners of the experiments, scikit-learn compatible, plus batched fast paths.

Naive Bayes and C4.5 reproduce Weka 3.6's ``NaiveBayes`` and ``J48`` on nominal
data; IB1, TAN and the voted perceptron follow Weka's classifiers of the same
names (Bouckaert 2003, Table 7); ``AlwaysPredict`` and ``CopyAttribute`` are the
fixed predictors of Task I (Bouckaert 2005). :mod:`~replicability.learners.fastpath`
fits naive Bayes and C4.5 on (pattern, class) count tensors for binary attributes,
many folds at once.
"""

from .c45 import C45
from .fastpath import (
    c45_patterns,
    naive_bayes_patterns,
    pattern_counts,
    pattern_index,
    pattern_matrix,
)
from .naive_bayes import NaiveBayes

from .fixed import AlwaysPredict, CopyAttribute
from .neighbors import IB1
from .perceptron import VotedPerceptron
from .tan import TAN

__all__ = [
    "AlwaysPredict",
    "C45",
    "CopyAttribute",
    "IB1",
    "NaiveBayes",
    "TAN",
    "VotedPerceptron",
    "c45_patterns",
    "naive_bayes_patterns",
    "pattern_counts",
    "pattern_index",
    "pattern_matrix",
]
