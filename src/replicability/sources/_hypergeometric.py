"""Numpy's hypergeometric sampler, compiled, with a cost that does not grow with the urn.

:meth:`numpy.random.Generator.hypergeometric` draws by Stadlober's ratio of
uniforms (algorithm HRUA) when the sample and its complement both hold at least
10 items, and by drawing items one by one otherwise. HRUA evaluates
``log(k!)`` several times per draw; numpy looks it up in a table for
``k < 126`` and computes a Stirling series above, so draws from large urns cost
more than draws from small ones. :func:`hypergeometric` runs the same two
algorithms on the same random stream (the generator's ``next_double`` and
``next_uint32`` through its ctypes interface) but reads ``log(k!)`` from a table
of numpy's own values, so a Task I configuration costs about the same at
n = 200,000 as at n = 1,000 and every draw is identical to numpy's: the
results computed with numpy's sampler stay valid. Tests compare the draws,
the generator's state afterwards and the table with numpy's.

References
----------
.. [1] E. Stadlober, "Sampling from Poisson, binomial and hypergeometric
   distributions: ratio of uniforms as a simple and fast alternative",
   Bericht 303, Mathematisch-Statistische Sektion, Forschungsgesellschaft
   Joanneum, Graz, 1989.
"""

import decimal
import math

import numba
import numpy as np

_SMALL = 126  # numpy tabulates log(k!) exactly below this k
_HALF_LOG_2PI = 0.9189385332046728
_D1 = 1.7155277699214135  # 2 sqrt(2/e)
_D2 = 0.8989161620588988  # 3 - 2 sqrt(3/e)
_MAX_TABLE = 1 << 22  # 32 MiB; larger arguments are computed as they come
_MAX_COLOUR = 10**9  # numpy's bound on good and bad


def _exact_log_factorials(n):
    """``log(k!)`` for ``k < n``, correctly rounded (numpy's table)."""
    with decimal.localcontext() as context:
        context.prec = 50
        total, out = decimal.Decimal(0), [0.0]
        for k in range(1, n):
            total += decimal.Decimal(k).ln()
            out.append(float(total))
    return np.array(out)


@numba.njit(cache=True)
def _stirling(k):
    """numpy's series for ``log(k!)``, ``k >= 126``, operation for operation."""
    x = float(k)
    return (x + 0.5) * math.log(x) - x + (_HALF_LOG_2PI + (1.0 / x) * (1 / 12.0 - 1 / (360.0 * x * x)))


@numba.njit(cache=True)
def _fill_stirling(table, start):
    for k in range(start, table.size):
        table[k] = _stirling(k)


_table = _exact_log_factorials(_SMALL)


def log_factorial_table(n):
    """numpy's values of ``log(k!)`` for ``k = 0, ..., n`` (at most ``_MAX_TABLE`` entries).

    Grown on demand and kept for the process.
    """
    global _table
    size = min(n + 1, _MAX_TABLE)
    if _table.size < size:
        grown = np.empty(max(size, 2 * _table.size))[:_MAX_TABLE]
        grown[: _table.size] = _table
        _fill_stirling(grown, _table.size)
        _table = grown
    return _table


@numba.njit(cache=True)
def _log_factorial(table, k):
    return table[k] if k < table.size else _stirling(k)


@numba.njit(cache=True)
def _interval(next_uint32, state, top):
    """Uniform integer in ``[0, top]`` by masked rejection (numpy's ``random_interval``)."""
    if top == 0:
        return 0
    mask = top
    for shift in (1, 2, 4, 8, 16):
        mask |= mask >> shift
    while True:
        value = np.int64(next_uint32(state)) & mask
        if value <= top:
            return value


@numba.njit(cache=True)
def _one_by_one(next_uint32, state, good, bad, sample):
    """Draw items one at a time (the smaller of the sample and its complement)."""
    total = good + bad
    complement = sample > total // 2
    left = total - sample if complement else sample
    remaining, remaining_good = total, good
    while left > 0 and remaining_good > 0 and remaining > remaining_good:
        remaining -= 1
        if _interval(next_uint32, state, remaining) < remaining_good:
            remaining_good -= 1
        left -= 1
    if remaining == remaining_good:  # only good items are left
        remaining_good -= left
    return remaining_good if complement else good - remaining_good


@numba.njit(cache=True)
def _ratio_of_uniforms(next_double, state, table, good, bad, sample):
    """Stadlober's HRUA, in numpy's order of operations; names as in his thesis."""
    total = good + bad
    n = min(sample, total - sample)
    m_small, m_large = min(good, bad), max(good, bad)
    p, q = m_small / total, m_large / total
    a = n * p + 0.5
    c = math.sqrt(float(total - n) * n * p * q / (total - 1) + 0.5)
    h = _D1 * c + _D2
    mode = np.int64(math.floor(float(n + 1) * (m_small + 1) / (total + 2)))
    g = (_log_factorial(table, mode) + _log_factorial(table, m_small - mode)
         + _log_factorial(table, n - mode) + _log_factorial(table, m_large - n + mode))
    b = min(float(min(n, m_small) + 1), math.floor(a + 16 * c))
    while True:
        u = next_double(state)
        v = next_double(state)
        x = a + h * (v - 0.5) / u
        if x < 0.0 or x >= b:
            continue
        k = np.int64(math.floor(x))
        t = g - (_log_factorial(table, k) + _log_factorial(table, m_small - k)
                 + _log_factorial(table, n - k) + _log_factorial(table, m_large - n + k))
        if u * (4.0 - u) - 3.0 <= t:  # quick acceptance
            break
        if u * (u - t) >= 1:  # quick rejection
            continue
        if 2.0 * math.log(u) <= t:
            break
    if good > bad:
        k = n - k
    if n < sample:
        k = good - k
    return k


@numba.njit(cache=True)
def _draw_all(next_double, next_uint32, state, table, good, bad, sample, out):
    for i in range(out.size):
        if 10 <= sample[i] <= good[i] + bad[i] - 10:
            out[i] = _ratio_of_uniforms(next_double, state, table, good[i], bad[i], sample[i])
        else:
            out[i] = _one_by_one(next_uint32, state, good[i], bad[i], sample[i])


def hypergeometric(rng, good, bad, sample):
    """Same draws as ``rng.hypergeometric(good, bad, sample)``, at a cost independent of the urn size.

    Parameters
    ----------
    rng : numpy.random.Generator
        Advanced exactly as numpy's method advances it.
    good, bad, sample : array_like of int
        Broadcast together; ``0 <= sample <= good + bad`` and, as numpy
        requires, ``good, bad < 10**9`` (so every uniform integer the sampler
        draws fits in 32 bits).

    Returns
    -------
    ndarray of int64
        The number of good items drawn, of the broadcast shape.
    """
    good, bad, sample = np.broadcast_arrays(*(np.asarray(a, dtype=np.int64) for a in (good, bad, sample)))
    total = good + bad
    if np.any(good < 0) or np.any(bad < 0) or np.any(sample < 0) or np.any(sample > total):
        raise ValueError("hypergeometric needs good, bad, sample >= 0 and sample <= good + bad.")
    if np.any(good >= _MAX_COLOUR) or np.any(bad >= _MAX_COLOUR):
        raise ValueError(f"hypergeometric needs good and bad below {_MAX_COLOUR:,} (numpy's limit).")
    out = np.empty(good.shape, dtype=np.int64)
    if out.size:
        table = log_factorial_table(int(total.max()))
        bits = rng.bit_generator.ctypes
        with rng.bit_generator.lock:
            _draw_all(bits.next_double, bits.next_uint32, bits.state_address, table,
                      good.ravel(), bad.ravel(), sample.ravel(), out.reshape(-1))
    return out
