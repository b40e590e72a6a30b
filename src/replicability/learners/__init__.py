"""Learners of the experiments, scikit-learn compatible, plus batched fast paths.

Naive Bayes and C4.5 reproduce Weka 3.6's ``NaiveBayes`` and ``J48`` on nominal
data; IB1, TAN and the voted perceptron follow Weka's classifiers of the same
names (Bouckaert 2003, Table 7); ``AlwaysPredict`` and ``CopyAttribute`` are the
fixed predictors of Task I (Bouckaert 2005). :mod:`~replicability.learners.fastpath`
fits naive Bayes and C4.5 on (pattern, class) count tensors for binary attributes,
many folds at once, and :mod:`~replicability.learners.pairs` evaluates two learners on
every split of a data set from them. Every public name is importable from here.
"""

from .._lazy import attach

_MODULES = {
    "naive_bayes": ("NaiveBayes",),
    "c45": ("C45",),
    "neighbors": ("IB1",),
    "tan": ("TAN",),
    "perceptron": ("VotedPerceptron",),
    "fixed": ("AlwaysPredict", "CopyAttribute"),
    "fastpath": ("c45_patterns", "naive_bayes_patterns", "pattern_counts", "pattern_index", "pattern_matrix"),
    "pairs": ("FAST_LEARNERS", "evaluate_learners", "evaluate_nb_c45", "evaluate_pair_fast", "evaluate_pair_loop"),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
