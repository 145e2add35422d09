#!/usr/bin/env python3
"""Independent reference values for crates/lab/src/sprt.rs tests.

Recipe (fishtest LLRcalc, M. Van den Bergh): pentanomial counts, zeros
replaced by 1e-3; pdf over per-game pair scores a = 0, 1/4, 1/2, 3/4, 1.
For an expected score s, the maximum-likelihood distribution with mean s is
q_i = p_i / (1 + x (a_i - s)) with x the root of sum p_i (a_i - s) / (1 + x (a_i - s)).
LLR = N * sum p_i log(q1_i / q0_i).  Logistic: s = 1 / (1 + 10^(-elo/400)).
Normalized: s = 1/2 + elo / (800 / ln 10) * sigma_pg, sigma_pg = sqrt(2 var_pair).
Here the root is found by safeguarded Newton from x = 0 (the Rust code bisects).
"""
import math

A = [0.0, 0.25, 0.5, 0.75, 1.0]

def pdf_of(counts):
    c = [x if x > 0 else 1e-3 for x in counts]
    n = sum(c)
    return n, [x / n for x in c]

def mle(p, s):
    # Safeguarded Newton: a Newton step that leaves the bracket where every
    # 1 + x (a_i - s) > 0 (or does not shrink it) is replaced by bisection.
    lo, hi = -1 / (1 - s), 1 / s
    x = 0.0
    for _ in range(500):
        f = sum(pi * (a - s) / (1 + x * (a - s)) for pi, a in zip(p, A))
        if f > 0:
            lo = x
        else:
            hi = x
        df = -sum(pi * (a - s) ** 2 / (1 + x * (a - s)) ** 2 for pi, a in zip(p, A))
        step = x - f / df
        x = step if lo < step < hi else (lo + hi) / 2
    return [pi / (1 + x * (a - s)) for pi, a in zip(p, A)]

def llr(counts, s0, s1):
    n, p = pdf_of(counts)
    q0, q1 = mle(p, s0), mle(p, s1)
    return n * sum(pi * math.log(b / a) for pi, a, b in zip(p, q0, q1))

def logistic(elo):
    return 1 / (1 + 10 ** (-elo / 400))

def normalized_scores(counts, e0, e1):
    _, p = pdf_of(counts)
    mu = sum(pi * a for pi, a in zip(p, A))
    var = sum(pi * (a - mu) ** 2 for pi, a in zip(p, A))
    sigma_pg = math.sqrt(2 * var)
    k = 800 / math.log(10)
    return 0.5 + e0 / k * sigma_pg, 0.5 + e1 / k * sigma_pg

big = [39, 8843, 26675, 9240, 44]
tiny = [0, 3, 10, 6, 1]
print("logistic [0,5] big   %.10f" % llr(big, logistic(0), logistic(5)))
print("normalized [0.5,2.5] %.10f" % llr(big, *normalized_scores(big, 0.5, 2.5)))
print("logistic [0,5] tiny  %.10f" % llr(tiny, logistic(0), logistic(5)))
skewed = [0, 1, 0, 4, 10]
print("logistic [0,10] skewed %.10f" % llr(skewed, logistic(0), logistic(10)))
