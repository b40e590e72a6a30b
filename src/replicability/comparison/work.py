"""The work of a comparison in bounded memory: splits drawn as they are used, the data sent to workers once.

A unit of work is one randomization of the scheme (all its splits): it carries its
splitter's seed and the learners' drawn seeds, and draws its splits one at a time
(scikit-learn's splitters are generators), so no more than one split's index arrays
and training copy exist at once, whatever the number of randomizations. With worker
processes the data (``X``, ``y``, groups and fit parameters) are written once to a
file in shared memory by ``joblib.dump`` and mapped by every worker
(``joblib.load`` with ``mmap_mode="r"``, loaded once per worker): a unit pickles
only the file's name, never the data, as joblib's own memmapping does for
``Parallel``. The values are the same bytes, so results do not depend on ``n_jobs``.
"""

from __future__ import annotations

import shutil
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.model_selection import RepeatedKFold, RepeatedStratifiedKFold

from ..engine.splits import RandomSubsampling
from .folds import score_split
from .inputs import cv_splits

__all__ = ["SharedData", "SplitRecipe", "run_repeat", "split_results"]

_SMALL_CLASS = "The least populated class in y has only"
#: Per worker process: the data of the comparison it works for, mapped from its file (one at a time).
_MAPPED = {}


@dataclass(frozen=True)
class SplitRecipe:
    """How the splits of one randomization are drawn from its seed: a scheme, or the user's splitter.

    Attributes
    ----------
    kind : {"cv", "resampling"}
    n_runs, n_folds : int
    test_size : float
        Test fraction of random subsampling.
    stratified : bool
        Stratified folds or splits (the scheme's; a ``cv`` splitter decides itself).
    cv : scikit-learn splitter or None
        The user's splitter, its ``random_state`` set to the seed (:func:`~replicability.comparison.inputs.cv_splits`).
    """

    kind: str
    n_runs: int
    n_folds: int
    test_size: float = 0.1
    stratified: bool = False
    cv: object = None

    def _draw(self, seed, X, y, groups):
        if self.cv is not None:
            return cv_splits(self.cv, seed, X, y, groups)
        if self.kind == "cv":
            # RepeatedCV's splits (it mirrors these two in compiled code), drawn fold by fold
            cls = RepeatedStratifiedKFold if self.stratified else RepeatedKFold
            return cls(n_splits=self.n_folds, n_repeats=self.n_runs, random_state=seed).split(X, y)
        return RandomSubsampling(self.n_runs, test_size=self.test_size, stratified=self.stratified,
                                 random_state=seed).split(X, y)

    def splits(self, seed, X, y, groups=None, *, quiet=False):
        """Yield the ``(train, test)`` index arrays of one randomization, one at a time.

        ``quiet``: without the splitter's warning that a class is too small for the
        folds (said once already), filtered only while the splitter runs.
        """
        draws = self._draw(seed, X, y, groups)
        while True:
            with warnings.catch_warnings():
                if quiet:
                    warnings.filterwarnings("ignore", message=_SMALL_CLASS, category=UserWarning)
                try:
                    train, test = next(draws)
                except StopIteration:
                    return
            yield np.asarray(train), np.asarray(test)


def _shared_folder():
    """Where the data file goes: ``/dev/shm`` (memory, as joblib prefers) when it can be written, else the temp dir."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and shutil.disk_usage(shm).free > 0 and _writable(shm) else None


def _writable(path):
    try:
        with tempfile.TemporaryFile(dir=path):
            return True
    except OSError:
        return False


class SharedData:
    """The data of a comparison, held here or written once to a file that worker processes map.

    Parameters
    ----------
    data : tuple
        ``(X, y, labels, groups, fit_params)`` as the learners take them.
    share : bool
        Write them to a file (worker processes); otherwise keep them in this object.

    Notes
    -----
    Pickled, a shared instance carries only its file's name. Use it as a context
    manager: the file is removed on exit, also after an error or an interrupt.
    """

    def __init__(self, data, share):
        import joblib

        self._data, self._folder, self.path = data, None, None
        if share:
            self._folder = tempfile.mkdtemp(prefix="replicability-compare-", dir=_shared_folder())
            self.path = str(Path(self._folder) / "data.joblib")
            joblib.dump(data, self.path)
            self._data = None

    def __getstate__(self):
        return {"_data": self._data, "_folder": None, "path": self.path}

    def get(self):
        """The data: this object's own, or the file's, mapped once per process."""
        if self.path is None:
            return self._data
        if self.path not in _MAPPED:
            import joblib

            _MAPPED.clear()  # one comparison's data at a time
            _MAPPED[self.path] = joblib.load(self.path, mmap_mode="r")
        return _MAPPED[self.path]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _MAPPED.pop(self.path, None)
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)


def run_repeat(task, *, learners, shared, error_score="raise"):
    """Fit and score every learner on every split of one randomization of one data set, splits drawn as used.

    Parameters
    ----------
    task : tuple
        ``(recipe, index, seed, seeds, quiet)``: the :class:`SplitRecipe`, the data
        set's index in ``shared``, the splitter's seed, the learners' drawn seeds (one
        array per learner, a row per split) and whether to leave out the small-class
        warning.
    learners : sequence
        As :func:`~replicability.comparison.folds.score_split` takes them.
    shared : SharedData
        A tuple of data sets, each ``(X, y, labels, groups, fit_params)``.
    error_score : "raise" or NaN, default "raise"
        ``"raise"``: the first failure ends the randomization (``problem``); NaN: a
        failing learner scores NaN on that split and the others go on (``failed``).

    Returns
    -------
    scores : list
        Per split scored, the learners' scores.
    problem : tuple of (int, str) or None
        The split (its index in the randomization) where a learner failed, and why.
    sizes : ndarray of int, shape (n_splits, 2)
        Training and test set sizes of the splits scored.
    failed : dict of int to str
        With ``error_score`` NaN, each failing learner's index and its first failure.
    """
    recipe, index, seed, seeds, quiet = task
    X, y, labels, groups, fit_params = shared.get()[index]
    scores, sizes, problem = [], [], None
    failed = None if isinstance(error_score, str) and error_score == "raise" else {}
    for j, (train, test) in enumerate(recipe.splits(seed, X, labels if recipe.cv is None else y, groups,
                                                    quiet=quiet)):
        if j >= len(seeds[0]):
            problem = (j, f"the splitter gave more than the {len(seeds[0])} splits it gave before")
            break
        split, cause = score_split(learners, X, y, train, test, [s[j] for s in seeds], fit_params=fit_params,
                                   failed=failed)
        if cause is not None:
            problem = (j, cause)
            break
        scores.append(split)
        sizes.append((len(train), len(test)))
    return scores, problem, np.array(sizes, dtype=np.int64).reshape(-1, 2), failed or {}


def split_results(repeats, n_splits, sizes):
    """:func:`run_repeat`'s results as the per-split ``(scores, problem)`` pairs that ``gather`` reads.

    Each randomization's split sizes are appended to the list ``sizes`` as it is read.
    A randomization that gave fewer splits than ``n_splits`` without a problem is one.
    """
    for scores, problem, split_sizes, _ in repeats:
        sizes.append(split_sizes)
        for split in scores:
            yield [*split], None
        if problem is not None:
            yield [], problem[1]
            return
        if len(scores) != n_splits:
            yield [], f"the splitter gave {len(scores)} splits, not {n_splits}"
            return
