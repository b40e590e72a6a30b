"""Compiled first draws of spawned generators: ``default_rng(SeedSequence(seed, spawn_key=...)).integers(0, 2**32)``.

The runner seeds the splits of repeat ``r`` of data set ``i`` with
``int(default_rng(SeedSequence(seed, spawn_key=(i, 1, r))).integers(0, 2**32))``;
built in Python, each such value costs some 30 µs, more than the compiled
splits it seeds. Here the values of all repeats of a data set are one compiled
call, bit-identical to numpy's (checked against numpy 2.4.6's sources):

* :func:`seed_pool` is ``SeedSequence``'s entropy pool
  (``numpy/random/bit_generator.pyx``: ``get_assembled_entropy`` -- the run
  entropy zero-padded to the pool size of 4 words whenever there is a spawn
  key -- and ``mix_entropy`` with its ``hashmix`` and ``mix``; 32-bit
  arithmetic, done here in uint64 and masked to 32 bits);
* :func:`state_words` is ``SeedSequence.generate_state(4, np.uint64)``: eight
  32-bit words hashed from the cycled pool, paired little-endian;
* :func:`pcg64_first_raw` seeds PCG64 from those words as ``PCG64.__init__``
  does (``numpy/random/src/pcg64/pcg64.c``: ``pcg64_set_seed`` with initial
  state ``(words[0], words[1])`` and stream ``(words[2], words[3])``, each
  (high, low); ``pcg64.h``: ``pcg_setseq_128_srandom_r``, the 128-bit LCG step
  ``pcg_setseq_128_step_r`` with the default multiplier, the XSL-RR output
  ``pcg_output_xsl_rr_128_64``) and returns its first 64-bit output, the
  first ``random_raw()``. The 128-bit state is a (high, low) pair of uint64;
* ``integers(0, 2**32)`` (default dtype int64) is ``random_bounded_uint64``
  with range ``0xFFFFFFFF`` (``numpy/random/src/distributions/distributions.c``),
  which returns ``next_uint32`` directly; a fresh PCG64 has no buffered half,
  so that is the low 32 bits of the first output (``pcg64.h``: ``pcg64_next32``).
  :func:`first_draws` does all of it for every repeat, mixing the entropy and
  key prefix the repeats share only once; :func:`repeat_seeds` is its Python
  entry point.

Numba types a mix of uint64 and int64 as float64, so every constant here is a
``np.uint64``. ``tests/engine/test_seed_kernels.py`` checks each stage against numpy.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["first_draws", "pcg64_first_raw", "repeat_seeds", "seed_pool", "state_words", "uint32_words"]

#: ``SeedSequence``'s hash constants and default pool size (``bit_generator.pyx``).
_POOL_SIZE = 4
_INIT_A, _MULT_A = np.uint64(0x43B0D7E5), np.uint64(0x931E8875)
_INIT_B, _MULT_B = np.uint64(0x8B51F9DD), np.uint64(0x58F38DED)
_MIX_MULT_L, _MIX_MULT_R = np.uint64(0xCA01F9DD), np.uint64(0x4973F715)
_XSHIFT = np.uint64(16)
_MASK32 = np.uint64(0xFFFFFFFF)
_SHIFT32 = np.uint64(32)

#: PCG64's default 128-bit LCG multiplier, (high, low) (``pcg64.h``: ``PCG_DEFAULT_MULTIPLIER_HIGH/LOW``).
_MULT_HI, _MULT_LO = np.uint64(2549297995355413924), np.uint64(4865540595714422341)
_ONE, _SIXTY_THREE, _SIXTY_FOUR = np.uint64(1), np.uint64(63), np.uint64(64)
_ROT_SHIFT = np.uint64(58)


# --- SeedSequence -----------------------------------------------------------------------------------------------


@njit(cache=True)
def _hashmix(value, hash_const):
    """``hashmix``: the hash of the 32-bit ``value`` and the advanced multiplier ``hash_const``."""
    value = (value ^ hash_const) & _MASK32
    hash_const = (hash_const * _MULT_A) & _MASK32
    value = (value * hash_const) & _MASK32
    return value ^ (value >> _XSHIFT), hash_const


@njit(cache=True)
def _mix(x, y):
    """``mix`` of two 32-bit words: ``L x - R y`` modulo 2**32, xor-shifted."""
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
    return result ^ (result >> _XSHIFT)


@njit(cache=True)
def _mix_head(pool, head):
    """The first two loops of ``mix_entropy``: hash the first pool-size words of ``head`` (zeros past its end)
    into ``pool`` (uint64, 32-bit values) and mix every pool word into every other; return the multiplier."""
    hash_const = _INIT_A
    for i in range(pool.size):
        word = np.uint64(head[i]) if i < head.size else np.uint64(0)
        pool[i], hash_const = _hashmix(word, hash_const)
    for i_src in range(pool.size):
        for i_dst in range(pool.size):
            if i_src != i_dst:
                hashed, hash_const = _hashmix(pool[i_src], hash_const)
                pool[i_dst] = _mix(pool[i_dst], hashed)
    return hash_const


@njit(cache=True)
def _mix_word(pool, word, hash_const):
    """The last loop of ``mix_entropy`` for one entropy word beyond the pool size; return the multiplier."""
    for i_dst in range(pool.size):
        hashed, hash_const = _hashmix(np.uint64(word), hash_const)
        pool[i_dst] = _mix(pool[i_dst], hashed)
    return hash_const


@njit(cache=True)
def _assembled(entropy, key):
    """``get_assembled_entropy``: ``entropy`` (zero-padded to the pool size if ``key`` is not empty), then ``key``."""
    n_run = entropy.size
    if key.size > 0 and n_run < _POOL_SIZE:
        n_run = _POOL_SIZE
    words = np.zeros(n_run + key.size, np.uint32)
    words[: entropy.size] = entropy
    words[n_run:] = key
    return words


@njit(cache=True)
def _mix_common(entropy, key):
    """Pool (uint64, 32-bit values) and multiplier after mixing ``get_assembled_entropy(entropy, key)``."""
    words = _assembled(entropy, key)
    pool = np.zeros(_POOL_SIZE, np.uint64)
    hash_const = _mix_head(pool, words)
    for i in range(_POOL_SIZE, words.size):
        hash_const = _mix_word(pool, words[i], hash_const)
    return pool, hash_const


@njit(cache=True)
def seed_pool(entropy, key):
    """The entropy pool of ``SeedSequence(entropy, spawn_key=key)`` (its ``pool`` attribute).

    Parameters
    ----------
    entropy, key : ndarray of uint32
        The run entropy and the spawn key as uint32 words (:func:`uint32_words`
        of the seed and of each key element, concatenated).

    Returns
    -------
    ndarray of uint32, shape (4,)
    """
    pool, _ = _mix_common(entropy, key)
    return pool.astype(np.uint32)


@njit(cache=True)
def _state_words(pool, out):
    # generate_state(4, np.uint64) of the pool (uint64, 32-bit values) into out (4 uint64).
    hash_const = _INIT_B
    for i in range(2 * out.size):
        word = pool[i % pool.size] ^ hash_const
        hash_const = (hash_const * _MULT_B) & _MASK32
        word = (word * hash_const) & _MASK32
        word ^= word >> _XSHIFT
        if i % 2 == 0:
            out[i // 2] = word
        else:
            out[i // 2] |= word << _SHIFT32


@njit(cache=True)
def state_words(pool):
    """``SeedSequence.generate_state(4, np.uint64)`` of a sequence whose pool is ``pool``.

    Parameters
    ----------
    pool : ndarray of uint32, shape (4,)

    Returns
    -------
    ndarray of uint64, shape (4,)
        The eight 32-bit words of ``generate_state(8)``, read pairwise as
        little-endian 64-bit words.
    """
    out = np.zeros(4, np.uint64)
    _state_words(pool.astype(np.uint64), out)
    return out


# --- PCG64 ------------------------------------------------------------------------------------------------------


@njit(cache=True)
def _mul_hi(x, y):
    """The high 64 bits of the 128-bit product of two uint64, from their 32-bit halves."""
    x_lo, x_hi = x & _MASK32, x >> _SHIFT32
    y_lo, y_hi = y & _MASK32, y >> _SHIFT32
    low = x_lo * y_lo
    middle = x_hi * y_lo + (low >> _SHIFT32)  # < 2**64: no carry lost
    cross = (middle & _MASK32) + x_lo * y_hi  # likewise
    return x_hi * y_hi + (middle >> _SHIFT32) + (cross >> _SHIFT32)


@njit(cache=True)
def _step(hi, lo, inc_hi, inc_lo):
    """One LCG step ``state * multiplier + inc`` modulo 2**128 of the (high, low) state."""
    prod_lo = lo * _MULT_LO
    prod_hi = _mul_hi(lo, _MULT_LO) + hi * _MULT_LO + lo * _MULT_HI
    new_lo = prod_lo + inc_lo
    carry = _ONE if new_lo < inc_lo else np.uint64(0)
    return prod_hi + inc_hi + carry, new_lo


@njit(cache=True)
def _output(hi, lo):
    """XSL-RR: ``hi ^ lo`` rotated right by the top six bits of the state."""
    value = hi ^ lo
    rot = hi >> _ROT_SHIFT
    return (value >> rot) | (value << ((_SIXTY_FOUR - rot) & _SIXTY_THREE))


@njit(cache=True)
def _first_raw(words):
    # PCG64 seeded with the four uint64 words of generate_state: its first 64-bit output.
    inc_hi = (words[2] << _ONE) | (words[3] >> _SIXTY_THREE)
    inc_lo = (words[3] << _ONE) | _ONE
    hi, lo = _step(np.uint64(0), np.uint64(0), inc_hi, inc_lo)
    lo = lo + words[1]  # state += initstate
    hi = hi + words[0] + (_ONE if lo < words[1] else np.uint64(0))
    hi, lo = _step(hi, lo, inc_hi, inc_lo)  # end of seeding
    hi, lo = _step(hi, lo, inc_hi, inc_lo)  # first draw
    return _output(hi, lo)


@njit(cache=True)
def pcg64_first_raw(words):
    """The first ``random_raw()`` of ``PCG64`` seeded with ``generate_state(4, np.uint64)`` = ``words``.

    Parameters
    ----------
    words : ndarray of uint64, shape (4,)
        Initial state ``(words[0], words[1])`` and stream ``(words[2], words[3])``,
        each (high, low), as ``pcg64_set_seed`` takes them.

    Returns
    -------
    int
        In ``[0, 2**64)`` (numba returns a uint64 scalar as a Python int).
    """
    return _first_raw(words)


# --- all repeats ------------------------------------------------------------------------------------------------


@njit(cache=True)
def first_draws(entropy, prefix, n_repeats):
    """The first ``integers(0, 2**32)`` of the generators of ``n_repeats`` sibling spawn keys.

    ``out[r] = int(np.random.default_rng(np.random.SeedSequence(seed,
    spawn_key=(*prefix, r))).integers(0, 2**32))``, with ``entropy`` and
    ``prefix`` the uint32 words of ``seed`` and of the elements of ``prefix``.

    Parameters
    ----------
    entropy : ndarray of uint32
        The seed's words (:func:`uint32_words`); any number (at least one, as
        numpy coerces an integer), more than the pool size included.
    prefix : ndarray of uint32
        The words of the spawn key's elements before the last, concatenated;
        may be empty.
    n_repeats : int
        The last spawn-key elements are ``0, 1, ..., n_repeats - 1``.

    Returns
    -------
    ndarray of int64, shape (n_repeats,)
        Values in ``[0, 2**32)``.
    """
    # The key is never empty (it ends with r), so the entropy is padded and at least the pool
    # size: mix_entropy's first two loops see only the entropy, its last one the key word by word.
    common, common_const = _mix_common(entropy, prefix)
    pool = np.empty(_POOL_SIZE, np.uint64)
    words = np.empty(4, np.uint64)
    out = np.empty(n_repeats, np.int64)
    for r in range(n_repeats):
        pool[:] = common
        hash_const = common_const
        rest = np.uint64(r)
        while True:  # the words of r, least significant first; 0 is one word
            hash_const = _mix_word(pool, rest & _MASK32, hash_const)
            rest >>= _SHIFT32
            if rest == np.uint64(0):
                break
        _state_words(pool, words)
        out[r] = np.int64(_first_raw(words) & _MASK32)
    return out


# --- Python entry points ----------------------------------------------------------------------------------------


def _words(value) -> list[int]:
    # The 32-bit words of a non-negative integer, least significant first; [0] for 0.
    if not isinstance(value, int | np.integer):
        raise ValueError(f"seeds and spawn-key elements must be non-negative integers, not {value!r}")
    value = int(value)
    if value < 0:
        raise ValueError(f"seeds and spawn-key elements must be non-negative integers, not {value}")
    words = [value & 0xFFFFFFFF]
    value >>= 32
    while value:
        words.append(value & 0xFFFFFFFF)
        value >>= 32
    return words


def uint32_words(value) -> np.ndarray:
    """The uint32 words of a non-negative integer, least significant first, as ``SeedSequence`` coerces it.

    Zero is one word ``[0]`` (numpy's ``_int_to_uint32_array``).

    Raises
    ------
    ValueError
        If ``value`` is not a non-negative integer.
    """
    return np.array(_words(value), np.uint32)


def repeat_seeds(seed, spawn_prefix, n_repeats) -> np.ndarray:
    """First draws of the generators of the spawn keys ``(*spawn_prefix, r)``, ``r < n_repeats``.

    Parameters
    ----------
    seed : int
        Non-negative; any size.
    spawn_prefix : sequence of int
        Non-negative; may be empty.
    n_repeats : int
        Non-negative.

    Returns
    -------
    ndarray of int64, shape (n_repeats,)
        Element ``r`` is ``int(np.random.default_rng(np.random.SeedSequence(seed,
        spawn_key=(*spawn_prefix, r))).integers(0, 2**32))``.

    Raises
    ------
    ValueError
        If ``seed``, an element of ``spawn_prefix`` or ``n_repeats`` is not a
        non-negative integer.

    Examples
    --------
    >>> seeds = repeat_seeds(2003, (7, 1), 3)
    >>> rng = np.random.default_rng(np.random.SeedSequence(2003, spawn_key=(7, 1, 2)))
    >>> int(seeds[2]) == int(rng.integers(0, 2**32))
    True
    """
    entropy = np.array(_words(seed), np.uint32)
    if isinstance(spawn_prefix, str | bytes) or not hasattr(spawn_prefix, "__iter__"):
        raise ValueError(f"the spawn-key prefix must be a sequence of non-negative integers, not {spawn_prefix!r}")
    prefix = np.array([word for element in spawn_prefix for word in _words(element)], np.uint32)
    if not isinstance(n_repeats, int | np.integer) or n_repeats < 0:
        raise ValueError(f"n_repeats must be a non-negative integer, not {n_repeats!r}")
    return first_draws(entropy, prefix, int(n_repeats))
