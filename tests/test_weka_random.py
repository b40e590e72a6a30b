"""Tests for replicability._weka_random: java.util.Random and Weka's Utils.probRound, checked against Java."""

from replicability._weka_random import JavaRandom, prob_round


def test_java_random_matches_java():
    # `new java.util.Random(42)`, then nextInt(10), nextInt(7), nextInt(16), nextInt(1000),
    # nextInt(3), nextInt(2147483647), printed by OpenJDK 17: 0 5 10 884 0 2023087525.
    rand = JavaRandom(42)
    assert [rand.next_int(b) for b in (10, 7, 16, 1000, 3, 2147483647)] == [0, 5, 10, 884, 0, 2023087525]

def test_java_next_double_and_prob_round_match_java():
    # OpenJDK 17: `new Random(42)` nextDouble() x 3 prints 0.7275636800328681 0.6832234717598454
    # 0.30871945533265976; with `new Random(7)`, weka.core.Utils.probRound (Weka 3.6.14) of
    # 13.5, 13.5, 13.5, 13.5, 0.0, 2.7, -2.7, 90.0 in turn prints 13 13 14 13 0 3 -3 90.
    rand = JavaRandom(42)
    assert [rand.next_double() for _ in range(3)] == [0.7275636800328681, 0.6832234717598454, 0.30871945533265976]
    rand = JavaRandom(7)
    assert [prob_round(v, rand) for v in (13.5, 13.5, 13.5, 13.5, 0.0, 2.7, -2.7, 90.0)] == [13, 13, 14, 13, 0, 3,
                                                                                                 -3, 90]
