"""Weka's random numbers: ``java.util.Random``, ``Instances.randomize`` and ``Utils.probRound``.

Shared by the voted perceptron's Weka shuffle
(:mod:`replicability.learners.perceptron`) and Weka's cross-validation folds and
random splits (:mod:`replicability.papers.bouckaert_frank2004.fidelity`).
"""

import math

__all__ = ["JavaRandom", "prob_round", "randomize"]


class JavaRandom:
    """``java.util.Random``: the 48-bit linear congruential generator Weka seeds with ``-S`` and ``-s``."""

    _MULT, _ADD, _MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1

    def __init__(self, seed):
        self._seed = (seed ^ self._MULT) & self._MASK

    def next_bits(self, bits):
        """``Random.next(bits)``."""
        self._seed = (self._seed * self._MULT + self._ADD) & self._MASK
        value = self._seed >> (48 - bits)
        # Java returns a signed 32-bit int.
        return value - (1 << 32) if bits == 32 and value >= 1 << 31 else value

    def next_int(self, bound):
        """``Random.nextInt(bound)``, with Java's rejection rule."""
        if bound & (bound - 1) == 0:  # a power of two
            return (bound * self.next_bits(31)) >> 31
        while True:
            bits = self.next_bits(31)
            val = bits % bound
            # Java's rejection test `bits - val + (bound - 1) < 0` in int32 arithmetic.
            if bits - val + (bound - 1) < 1 << 31:
                return val

    def next_double(self):
        """``Random.nextDouble()``: 53 random bits, ``((next(26) << 27) + next(27)) * 2**-53``."""
        high = self.next_bits(26)
        return ((high << 27) + self.next_bits(27)) * 2.0**-53


def randomize(order, rand):
    """``Instances.randomize(rand)``: Fisher-Yates from the end, in place on the sequence ``order``."""
    for j in range(len(order) - 1, 0, -1):
        k = rand.next_int(j + 1)
        order[j], order[k] = order[k], order[j]


def prob_round(value, rand):
    """``Utils.probRound(value, rand)``: round down or up, up with probability ``value - floor(value)``.

    One ``nextDouble()`` is drawn whatever the value (also for an integer ``value``).
    """
    lower = math.floor(abs(value))
    up = rand.next_double() < abs(value) - lower
    rounded = int(lower) + (1 if up else 0)
    return rounded if value >= 0 else -rounded
