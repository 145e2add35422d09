#!/usr/bin/env python3
"""Independent reference values for crates/arena/src/matchmaking/sprt.rs tests.

Run with plain Python 3 (no packages): python3 llr_reference.py

The SPRT is fishtest's generalised one (LLRcalc.py; OpenBench's stats.py takes
its pentanomial SPRT from there). Results are pentanomial pair counts
[LL, LD, WL+DD, WD, WW] or trinomial game counts [L, D, W]; zero counts are
replaced by 1e-3; the outcomes score a_i = i / (n - 1). For each hypothesis
the maximum-likelihood distribution q is found under a constraint, and
LLR = N * sum p_i log(q1_i / q0_i) with p the observed frequencies.

  logistic Elo:   constraint  mean(q) = s,  s = 1 / (1 + 10^(-elo/400))
  normalized Elo: constraint  (mean(q) - 1/2) / sd(q) = t,
                  t = nelo / (800 / ln 10), times sqrt(2) for pentanomial counts

fishtest reaches q through the secular equation (and, for the t-value, a
fixed-point iteration around it); the Rust code does the same. This script
does NOT: it solves the Karush-Kuhn-Tucker conditions of the constrained
maximisation directly, with a damped Newton method on all unknowns
(q_1..q_n, lambda, nu) and a linear solve by Gaussian elimination:

  p_i / q_i - lambda - nu * dg/dq_i = 0   (i = 1..n)
  sum q_i - 1 = 0
  g(q) = 0

so it shares no code path with the secular-equation route. It prints each
LLR with the constraint residual, to be pasted into the tests.
"""
import math

NELO_PER_T = 800 / math.log(10)


def regularized(counts):
    return [c if c > 0 else 1e-3 for c in counts]


def scores(n):
    return [i / (n - 1) for i in range(n)]


def moments(q, a):
    total = sum(q)
    mu = sum(qi * ai for qi, ai in zip(q, a)) / total
    var = sum(qi * (ai - mu) ** 2 for qi, ai in zip(q, a)) / total
    return mu, var


def constraint(kind, value, a):
    """g(q) and its gradient, for q on the simplex (sum q = 1 is its own equation)."""
    def g(q):
        mu = sum(qi * ai for qi, ai in zip(q, a))
        if kind == "mean":
            return mu - value
        m2 = sum(qi * ai * ai for qi, ai in zip(q, a))
        sd = math.sqrt(m2 - mu * mu)
        return (mu - 0.5) - value * sd

    def grad(q):
        mu = sum(qi * ai for qi, ai in zip(q, a))
        if kind == "mean":
            return list(a)
        m2 = sum(qi * ai * ai for qi, ai in zip(q, a))
        sd = math.sqrt(m2 - mu * mu)
        # d sd / d q_i = (a_i^2 - 2 mu a_i) / (2 sd)
        return [ai - value * (ai * ai - 2 * mu * ai) / (2 * sd) for ai in a]

    return g, grad


def solve_linear(m, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(m)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def kkt_mle(p, a, kind, value):
    n = len(p)
    g, grad = constraint(kind, value, a)
    q, lam, nu = list(p), 1.0, 0.0

    def residual(q, lam, nu):
        gr = grad(q)
        r = [p[i] / q[i] - lam - nu * gr[i] for i in range(n)]
        r.append(sum(q) - 1)
        r.append(g(q))
        return r

    for _ in range(200):
        r = residual(q, lam, nu)
        if max(abs(x) for x in r) < 1e-15:
            break
        # Numerical Jacobian by central differences (small n, plenty accurate).
        x = q + [lam, nu]
        jac = [[0.0] * (n + 2) for _ in range(n + 2)]
        for j in range(n + 2):
            h = 1e-7 * max(1e-3, abs(x[j]))
            xp, xm = list(x), list(x)
            xp[j] += h
            xm[j] -= h
            rp = residual(xp[:n], xp[n], xp[n + 1])
            rm = residual(xm[:n], xm[n], xm[n + 1])
            for i in range(n + 2):
                jac[i][j] = (rp[i] - rm[i]) / (2 * h)
        step = solve_linear(jac, [-v for v in r])
        # Damp so that every q_i stays positive and the residual falls.
        damp = 1.0
        norm = max(abs(v) for v in r)
        while damp > 1e-12:
            y = [x[i] + damp * step[i] for i in range(n + 2)]
            if all(v > 0 for v in y[:n]):
                ry = residual(y[:n], y[n], y[n + 1])
                if max(abs(v) for v in ry) < norm or damp < 1e-6:
                    break
            damp /= 2
        q, lam, nu = y[:n], y[n], y[n + 1]
    return q, max(abs(v) for v in residual(q, lam, nu))


def llr(counts, kind, v0, v1):
    c = regularized(counts)
    n_total = sum(c)
    p = [x / n_total for x in c]
    a = scores(len(c))
    q0, r0 = kkt_mle(p, a, kind, v0)
    q1, r1 = kkt_mle(p, a, kind, v1)
    value = n_total * sum(pi * math.log(b / c0) for pi, c0, b in zip(p, q0, q1))
    return value, max(r0, r1)


def logistic(counts, e0, e1):
    s = lambda e: 1 / (1 + 10 ** (-e / 400))
    return llr(counts, "mean", s(e0), s(e1))


def normalized(counts, e0, e1):
    k = math.sqrt(2) if len(counts) == 5 else 1.0
    return llr(counts, "t", e0 / NELO_PER_T * k, e1 / NELO_PER_T * k)


CASES = [
    # name, counts, model, elo0, elo1
    ("BIG_LOGISTIC", [39, 8843, 26675, 9240, 44], logistic, 0.0, 5.0),
    ("BIG_NORMALIZED", [39, 8843, 26675, 9240, 44], normalized, 0.5, 2.5),
    ("TINY_LOGISTIC", [0, 3, 10, 6, 1], logistic, 0.0, 5.0),
    ("TINY_NORMALIZED", [0, 3, 10, 6, 1], normalized, 0.0, 5.0),
    ("SKEWED_LOGISTIC", [0, 1, 0, 4, 10], logistic, 0.0, 10.0),
    ("SKEWED_NORMALIZED", [0, 1, 0, 4, 10], normalized, 0.0, 10.0),
    ("LOSING_NORMALIZED", [12, 20, 30, 8, 2], normalized, 0.0, 5.0),
    ("TRI_BIG_NORMALIZED", [22569, 44137, 22976], normalized, 0.5, 2.5),
    ("TRI_SMALL_LOGISTIC", [3, 10, 7], logistic, 0.0, 10.0),
    ("TRI_SMALL_NORMALIZED", [3, 10, 7], normalized, 0.0, 10.0),
]

if __name__ == "__main__":
    for name, counts, model, e0, e1 in CASES:
        value, res = model(counts, e0, e1)
        print(f"const {name}: f64 = {value:.10f}; // {counts} [{e0}, {e1}] residual {res:.1e}")
