"""What the store tests run: a registered source and two learners, a base configuration.

Imported by ``test_store.py`` and ``test_store_faults.py``, and by the child processes they
start and kill (as a top-level module, from this folder), so that the child resolves the
same registered names.
"""

import time

import numpy as np
from sklearn.naive_bayes import CategoricalNB
from sklearn.tree import DecisionTreeClassifier

from replicability.engine.registry import register_learner, register_source

__all__ = ["BASE", "data_only", "register", "slow_binary_source"]


def slow_binary_source(rng, *, n_instances, delay=0.0):
    """Independent binary attributes and class; ``delay`` slows the run, not the data."""
    if delay:
        time.sleep(delay)
    X = (rng.random((n_instances, 4)) < 0.5).astype(np.int64)
    y = (rng.random(n_instances) < 0.5).astype(np.int64)
    return X, y


def categorical_nb():
    return CategoricalNB(min_categories=2)


def tree():
    return DecisionTreeClassifier(random_state=0)


def register():
    register_source("store_binary", slow_binary_source)
    register_learner("store_nb", categorical_nb)
    register_learner("store_tree", tree)


register()

BASE = dict(
    source="store_binary",
    learners=["store_nb", "store_tree"],
    scheme_params={"n_runs": 1, "n_folds": 2},
    n_datasets=5,
    n_instances=30,
    n_repeats=2,
    seed=7,
)


def data_only(ds):
    return ds.drop_attrs()
