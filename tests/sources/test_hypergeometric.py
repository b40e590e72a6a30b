"""The compiled hypergeometric sampler gives numpy's draws, bit for bit."""

import ctypes

import numpy as np
import numpy.random._generator
import pytest

from replicability.sources import _hypergeometric as hg


def numpy_log_factorial():
    """numpy's own C ``logfactorial`` (exported by its generator module)."""
    function = ctypes.CDLL(numpy.random._generator.__file__).logfactorial
    function.restype, function.argtypes = ctypes.c_double, [ctypes.c_int64]
    return function


def test_table_is_numpys_log_factorial():
    reference = numpy_log_factorial()
    table = hg.log_factorial_table(300_000)
    assert table.size > 300_000
    expected = np.array([reference(k) for k in range(table.size)])
    np.testing.assert_array_equal(table, expected)


@pytest.mark.parametrize("k", [2**22, 10**7 + 3, 999_999_999])
def test_series_beyond_the_table_is_numpys(k):
    assert hg._stirling(k) == numpy_log_factorial()(k)


def random_urns(rng, shape, max_total):
    total = rng.integers(0, max_total, size=shape, endpoint=True)
    good = rng.integers(0, total, endpoint=True)
    sample = rng.integers(0, total, endpoint=True)
    return good, total - good, sample


def assert_same_as_numpy(bit_generator, seed, good, bad, sample):
    ours, theirs = np.random.Generator(bit_generator(seed)), np.random.Generator(bit_generator(seed))
    np.testing.assert_array_equal(hg.hypergeometric(ours, good, bad, sample), theirs.hypergeometric(good, bad, sample))
    assert continuation(ours) == continuation(theirs)


def continuation(rng):
    """The generator's next outputs, its 32-bit buffer included."""
    return rng.integers(0, 2**32, size=3, dtype=np.uint32).tolist(), rng.random(3).tolist()


@pytest.mark.parametrize("max_total", [5, 30, 300, 5_000, 300_000, 50_000_000])
@pytest.mark.parametrize("seed", range(4))
def test_draws_and_state_equal_numpys(max_total, seed):
    good, bad, sample = random_urns(np.random.default_rng([seed, max_total]), (400,), max_total)
    assert_same_as_numpy(np.random.PCG64, seed, good, bad, sample)


@pytest.mark.parametrize("bit_generator", [np.random.MT19937, np.random.Philox, np.random.SFC64, np.random.PCG64DXSM])
def test_every_bit_generator(bit_generator):
    good, bad, sample = random_urns(np.random.default_rng(7), (2_000,), 1_000)
    assert_same_as_numpy(bit_generator, 3, good, bad, sample)


def test_boundaries_of_the_two_methods():
    # Empty colours, empty and full samples, and samples 9, 10, total-10, total-9
    # (where numpy switches between drawing one by one and ratio of uniforms).
    rows = []
    for total in (0, 1, 19, 20, 21, 40, 1_000):
        possible = set(range(total + 1))
        for good in {0, 1, total // 2, total - 1, total} & possible:
            for sample in {0, 1, 9, 10, total - 10, total - 9, total - 1, total} & possible:
                rows.append((good, total - good, sample))
    good, bad, sample = np.array(rows).T
    for seed in range(20):
        assert_same_as_numpy(np.random.PCG64, seed, good, bad, sample)


def test_broadcast_and_strided_arguments():
    urns = np.random.default_rng(1).integers(0, 500, size=(30, 7, 3))
    good, bad = urns[..., 0], urns[:, :, 1:].sum(axis=-1)  # non-contiguous first argument
    sample = np.arange(7) * 10  # broadcast against the batch
    assert_same_as_numpy(np.random.PCG64, 0, good.T[None], bad.T[None], sample[:, None])
    assert_same_as_numpy(np.random.PCG64, 0, 300, 200, 50)


def test_arguments_beyond_the_table(monkeypatch):
    monkeypatch.setattr(hg, "_MAX_TABLE", 200)
    monkeypatch.setattr(hg, "_table", hg._exact_log_factorials(hg._SMALL))
    assert hg.log_factorial_table(100_000).size == 200
    good, bad, sample = random_urns(np.random.default_rng(5), (500,), 100_000)
    assert_same_as_numpy(np.random.PCG64, 5, good, bad, sample)


@pytest.mark.parametrize("good, bad, sample", [(-1, 5, 2), (3, -1, 2), (3, 4, -1), (3, 4, 8)])
def test_invalid_urns_are_rejected(good, bad, sample):
    with pytest.raises(ValueError, match="sample <= good \\+ bad"):
        hg.hypergeometric(np.random.default_rng(0), good, bad, sample)


@pytest.mark.parametrize("good, bad", [(10**9, 1), (1, 10**9)])
def test_numpys_size_limit(good, bad):
    with pytest.raises(ValueError, match="below 1,000,000,000"):
        hg.hypergeometric(np.random.default_rng(0), good, bad, 5)
    with pytest.raises(ValueError, match="less than 1000000000"):
        np.random.default_rng(0).hypergeometric(good, bad, 5)
