"""Argument checks shared by the public functions.

Every check raises ``ValueError`` (or ``TypeError``) with a message that names
the argument in backticks, states the rule and echoes the value (STYLE.md).
"""

from __future__ import annotations

import ast
import numbers
import os
import stat
import sys

import numpy as np

_ALTERNATIVES = ("two-sided", "less", "greater")
# The scales of every experiment (DESIGN.md, Scales): the `scale` argument of
# engine.store.cached_result and the `scale` parameter of the experiment notebooks.
SCALES = ("smoke", "quick", "paper")


def as_numbers(x, name):
    """Return ``x`` as a float array of any shape; ``TypeError`` if it does not hold numbers.

    Strings are refused, numeric ones too (``"0.5"``), as scipy.stats refuses them: one
    policy for the whole package.
    """
    try:
        raw = x if isinstance(x, np.ndarray) else np.asarray(x)
        text = raw.dtype.kind in "US" or (raw.dtype.kind == "O" and any(
            isinstance(v, (str, bytes)) for v in raw.ravel()))
        arr = None if text else raw.astype(float, copy=False)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"`{name}` must be array-like of numbers; got {type(x).__name__}.") from exc
    if arr is None:
        raise TypeError(f"`{name}` must hold numbers, not strings; got {x!r}.")
    return arr


def as_numbers_between(x, name, low, high):
    """Return ``x`` as a float array with every value in ``[low, high]`` (NaN rejected)."""
    arr = as_numbers(x, name)
    if not np.all((arr >= low) & (arr <= high)):  # also rejects NaN
        raise ValueError(f"`{name}` must lie in [{low}, {high}]; got {x!r}.")
    return arr


def check_nonempty(arr, name):
    """Return ``arr`` if it holds at least one value (a 0-d array does)."""
    if arr.size == 0:
        raise ValueError(f"`{name}` must not be empty; got shape {arr.shape}.")
    return arr


def check_not_text_or_bool(x, name):
    """Raise ``TypeError`` if ``x`` holds strings or booleans, which numpy would turn into numbers."""
    raw = x if isinstance(x, np.ndarray) else np.asarray(x, dtype=object if isinstance(x, (list, tuple)) else None)
    kinds = {raw.dtype.kind}
    if raw.dtype.kind == "O":
        kinds = {np.asarray(v).dtype.kind for v in raw.ravel()}
    if kinds & set("bUS"):
        kind = "booleans" if "b" in kinds else "strings"
        raise TypeError(f"`{name}` must hold numbers, not {kind}; got {x!r}.")


def as_counts(x, name):
    """Return ``x`` as a float array of non-negative whole numbers (any shape); strings and booleans rejected."""
    check_not_text_or_bool(x, name)
    arr = as_numbers(x, name)
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr != np.round(arr)):
        raise ValueError(f"`{name}` must contain non-negative integers; got {x!r}.")
    return arr


def as_float_array(x, name, *, min_last=1, ndim_min=1):
    """Return ``x`` as a finite float array with at least ``min_last`` values on the last axis."""
    arr = as_numbers(x, name)
    if arr.ndim < ndim_min:
        raise ValueError(f"`{name}` must have at least {ndim_min} dimension(s); got shape {arr.shape}.")
    if arr.shape[-1] < min_last:
        raise ValueError(
            f"`{name}` must have at least {min_last} value(s) on its last axis; got shape {arr.shape}."
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"`{name}` must contain only finite values; got NaN or infinity.")
    return arr


def as_differences(x, y, *, min_last=1, ndim_min=1):
    """Return ``x - y`` (or ``x`` when ``y`` is None), both checked by :func:`as_float_array`."""
    x = as_float_array(x, "x", min_last=min_last, ndim_min=ndim_min)
    if y is None:
        return x
    y = as_float_array(y, "y", min_last=min_last, ndim_min=ndim_min)
    check_same_shape(x, y)
    return x - y


def check_fraction(value, name):
    """Return ``value`` as a float in the open interval (0, 1)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < value < 1:
        raise ValueError(f"`{name}` must be a number in (0, 1); got {value!r}.")
    return float(value)


def check_alpha(alpha, name="alpha"):
    """Return ``alpha`` as a float in the open interval (0, 1)."""
    return check_fraction(alpha, name)


def check_bool(value, name):
    """Return ``value`` if it is True or False (Python or numpy)."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"`{name}` must be True or False; got {value!r}.")
    return value


def check_choice(value, name, choices):
    """Return ``value`` if it is one of ``choices``."""
    if value not in choices:
        raise ValueError(f"`{name}` must be one of {choices}; got {value!r}.")
    return value


def check_test_size(test_size):
    """Return ``test_size``: a fraction in (0, 1) or a positive count, as in ShuffleSplit."""
    is_fraction = isinstance(test_size, (float, np.floating)) and 0 < test_size < 1
    is_count = isinstance(test_size, (int, np.integer)) and not isinstance(test_size, bool) and test_size >= 1
    if not (is_fraction or is_count):
        raise ValueError(
            f"`test_size` must be a fraction in (0, 1) or a positive integer count; got {test_size!r}."
        )
    return test_size


def as_runs_folds(d, name="d"):
    """Return ``d`` as a finite float array of shape (..., r, k) with r, k >= 2."""
    d = as_float_array(d, name, min_last=2, ndim_min=2)
    if d.shape[-2] < 2:
        raise ValueError(f"`{name}` must hold at least 2 runs (axis -2); got shape {d.shape}.")
    return d


def check_positive_int(value, name, *, minimum=1):
    """Return ``value`` as an int that is at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def check_positive(value, name):
    """Return ``value`` as a float that is strictly positive and finite."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not (0 < value < np.inf):
        raise ValueError(f"`{name}` must be a positive finite number; got {value!r}.")
    return float(value)


def check_alternative(alternative):
    """Return ``alternative`` if it is one of the three scipy names."""
    if alternative not in _ALTERNATIVES:
        raise ValueError(f"`alternative` must be one of {_ALTERNATIVES}; got {alternative!r}.")
    return alternative


def check_same_shape(x, y, names=("x", "y")):
    """Raise unless ``x`` and ``y`` have the same shape."""
    if x.shape != y.shape:
        raise ValueError(
            f"`{names[0]}` and `{names[1]}` must have the same shape; got {x.shape} and {y.shape}."
        )


def as_generator(rng):
    """Return a numpy Generator from a Generator, a seed or None."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, (numbers.Integral, np.random.SeedSequence)):
        if isinstance(rng, bool):
            raise ValueError(f"`rng` must be a numpy Generator, a seed or None; got {rng!r}.")
        if isinstance(rng, numbers.Integral) and rng < 0:
            raise ValueError(f"`rng` must be a numpy Generator, a seed or None; got {rng!r}.")
        return np.random.default_rng(rng)
    raise ValueError(f"`rng` must be a numpy Generator, a seed or None; got {rng!r}.")


def as_cell_counts(cell_counts, name="cell_counts"):
    """Return ``cell_counts`` as an int64 array of non-negative counts, 4 on the last axis.

    The four cells are those of Task I (Bouckaert 2005), ``(x, y) = (0, 0), (0, 1), (1, 0), (1, 1)``.
    """
    check_not_text_or_bool(cell_counts, name)
    arr = np.asarray(cell_counts)
    if arr.dtype.kind not in "iu":
        try:
            arr = arr.astype(float)
        except (TypeError, ValueError) as exc:
            raise TypeError(
                f"`{name}` must be array-like of integers; got {type(cell_counts).__name__}."
            ) from exc
        if not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise ValueError(f"`{name}` must contain non-negative integers; got {cell_counts!r}.")
    if arr.ndim < 1 or arr.shape[-1] != 4:
        raise ValueError(f"`{name}` must have {4} cells on its last axis; got shape {arr.shape}.")
    if np.any(arr < 0):
        raise ValueError(f"`{name}` must contain non-negative integers; got {cell_counts!r}.")
    return arr.astype(np.int64, copy=False)


def check_rope(rope, name="rope"):
    """Return ``rope`` (a region of practical equivalence) as a float >= 0: one number, not text or a flag."""
    if isinstance(rope, bool) or not isinstance(rope, numbers.Real) or not 0 <= rope < np.inf:
        raise ValueError(f"`{name}` must be a non-negative finite number (one value, on the scale of the scores); "
                         f"got {rope!r}.")
    return float(rope)


def check_nonnegative(value, name):
    """Return ``value`` as a finite float >= 0."""
    if isinstance(value, bool) or not np.isscalar(value) or not (0 <= float(value) < np.inf):
        raise ValueError(f"`{name}` must be a non-negative finite number; got {value!r}.")
    return float(value)


def sklearn_seed(rng):
    """A scikit-learn ``random_state`` (their convention: an int) drawn from a numpy Generator."""
    return int(rng.integers(2**31 - 1))


def parse_literal(text):
    """A command-line value read as a Python literal when it is one, else as the string itself."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text


_FILE_KINDS = ((stat.S_ISDIR, "is a folder"), (stat.S_ISFIFO, "is a named pipe (FIFO)"),
               (stat.S_ISSOCK, "is a socket"), (stat.S_ISCHR, "is a character device"),
               (stat.S_ISBLK, "is a block device"))


def not_a_regular_file(path):
    """Why ``path`` is no file to read, as the end of a sentence about it, or None if it is one.

    ``"does not exist"``, ``"is a folder"``, ``"is a named pipe (FIFO)"``, ... Reading a
    named pipe blocks until something writes to it, so a path is checked for what it is
    before it is opened, and the message names that.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "does not exist"
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _FILE_KINDS if test(mode)), "is not a regular file")


def command_error(message, command):
    """Print a command's error as one line on standard error; return exit code 2 (argparse's convention)."""
    print(f"replicability {command}: error: {message}", file=sys.stderr)
    return 2
