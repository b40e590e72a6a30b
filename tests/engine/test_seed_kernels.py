"""Tests of replicability.engine._seed_kernels: numpy's spawned generators' first draws, stage by stage."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.random.bit_generator import _coerce_to_uint32_array

from replicability.engine._seed_kernels import (
    first_draws,
    pcg64_first_raw,
    repeat_seeds,
    seed_pool,
    state_words,
    uint32_words,
)

_rand = random.Random(20240611)
SEEDS = [0, 1, 2003, 2**32 - 1, 2**32, 2**64 + 5] + [_rand.getrandbits(bits) for bits in (40, 64, 96, 128, 200)]
PREFIXES = [(), (0,), (5, 1), (123456, 1), (2**33, 7, 1)]


def _numpy_draw(seed, key):
    return int(np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key)).integers(0, 2**32))


def _key_words(key):
    return np.concatenate([uint32_words(k) for k in key]) if key else np.zeros(0, np.uint32)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("n_repeats", [1, 10, 37])
def test_repeat_seeds_equal_numpy(seed, prefix, n_repeats):
    got = repeat_seeds(seed, prefix, n_repeats)
    assert got.dtype == np.int64 and got.shape == (n_repeats,)
    expected = [_numpy_draw(seed, (*prefix, r)) for r in range(n_repeats)]
    assert got.tolist() == expected


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**160),
    prefix=st.lists(st.integers(0, 2**70), max_size=5),
    n_repeats=st.integers(0, 4),
)
def test_repeat_seeds_equal_numpy_property(seed, prefix, n_repeats):
    expected = [_numpy_draw(seed, (*prefix, r)) for r in range(n_repeats)]
    assert repeat_seeds(seed, tuple(prefix), n_repeats).tolist() == expected


def test_first_draws_takes_words_and_numpy_integers_in_the_prefix():
    prefix = (np.int64(17), np.uint32(1))
    expected = [_numpy_draw(2003, (*prefix, r)) for r in range(5)]
    assert repeat_seeds(np.int64(2003), prefix, np.int64(5)).tolist() == expected
    assert first_draws(uint32_words(2003), _key_words((17, 1)), 5).tolist() == expected
    assert repeat_seeds(2003, (17, 1), 0).shape == (0,)


@pytest.mark.parametrize("value", [0, 1, 2**32 - 1, 2**32, 2**33 + 9, 2**64 + 5, 2**130 + 3])
def test_uint32_words_as_numpy_coerces(value):
    words = uint32_words(value)
    assert words.dtype == np.uint32
    np.testing.assert_array_equal(words, _coerce_to_uint32_array(value))
    # without a spawn key, the entropy is not padded: the pool of [value, 7] depends on exactly these words
    np.testing.assert_array_equal(
        seed_pool(np.concatenate([words, uint32_words(7)]), np.zeros(0, np.uint32)),
        np.random.SeedSequence([value, 7]).pool,
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("key", [(), (0,), (3,), (5, 1, 0), (5, 1, 9), (2**33, 7, 1, 4), (1, 2, 3, 4, 5, 6)])
def test_stages_equal_numpy(seed, key):
    sequence = np.random.SeedSequence(seed, spawn_key=key)
    # the entropy pool (padding of the run entropy only with a spawn key, mixing beyond the pool size)
    pool = seed_pool(uint32_words(seed), _key_words(key))
    assert pool.dtype == np.uint32
    np.testing.assert_array_equal(pool, sequence.pool)
    # generate_state(4, np.uint64)
    words = state_words(pool)
    assert words.dtype == np.uint64
    np.testing.assert_array_equal(words, sequence.generate_state(4, np.uint64))
    # PCG64's first 64-bit output
    raw = pcg64_first_raw(words)
    assert isinstance(raw, int)  # not a float: all 64 bits
    assert int(raw) == int(np.random.PCG64(sequence).random_raw())
    # integers(0, 2**32) is the low half of that output (next_uint32 with nothing buffered)
    assert int(np.random.default_rng(sequence).integers(0, 2**32)) == int(raw) & 0xFFFFFFFF


@pytest.mark.parametrize(
    "seed, prefix, n_repeats",
    [
        (-1, (), 3),
        (1.5, (), 3),
        ("2003", (), 3),
        (None, (), 3),
        (2003, (1, -2), 3),
        (2003, (1.0,), 3),
        (2003, "12", 3),
        (2003, 5, 3),
        (2003, ((1, 2),), 3),
        (2003, (1,), -1),
        (2003, (1,), 2.0),
    ],
)
def test_bad_input_raises(seed, prefix, n_repeats):
    with pytest.raises(ValueError, match="non-negative integer"):
        repeat_seeds(seed, prefix, n_repeats)


def test_numpy_rejects_negative_too():
    with pytest.raises(ValueError):
        np.random.SeedSequence(-1)
    with pytest.raises(ValueError):
        np.random.SeedSequence(1, spawn_key=(-2,))
