#!/usr/bin/env python3
"""Fits the analysis's win-chance model on `halma-arena --labels` data (stdlib only).

    python3 crates/ai/data/calibration/fit_win_chance.py labels-2p.txt

Model (`ai::analysis::WinModel`): expected result = 1 / (1 + exp(-(k * x + b))), with
x = steps * sqrt(start / work): `steps` the position's value in steps from the side of the
seat that just moved (as the analysis values a move), `work` the work left to that seat's
side plus the nearest opposing side's (points), `start` the same at the start. So a lead
counts more as the race shortens. In 3p the lone 13-piece seat (B) has its own offset
`b_lone`: the evaluation counts its smaller army's work in the same steps, so it shows a
lead from the start. The result is 1 for a win, 0.5 for a draw, 0 for a loss.
k and b are fitted on the `train` games by maximum likelihood (Newton's method); the
calibration table is on the `test` games (every fifth game, held out). Forced results
(W/L) are left out: the analysis counts them 1 and 0. --plain also fits the model without
the phase, for comparison.
"""
import math
import sys


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) != 10 or w[6][0] in "WL":
                continue
            rows.append({"setup": w[0], "game": int(w[1]), "split": w[2], "mover": w[5],
                         "steps": int(w[6]) / 10.0, "result": float(w[7]),
                         "work": int(w[8]) + int(w[9])})
    start = {}
    for r in rows:
        start[r["mover"]] = max(start.get(r["mover"], 0), r["work"])
    for r in rows:
        r["x"] = r["steps"] * math.sqrt(start[r["mover"]] / max(r["work"], 1))
        r["lone"] = 1.0 if r["setup"] == "3p" and r["mover"] == "B" else 0.0
    return rows


def sigmoid(z):
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def solve(a, g):
    """Solves a x = g (small, by Gaussian elimination)."""
    n = len(g)
    m = [row[:] + [g[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c] != 0:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(features, ys):
    """Logistic regression of ys (0..1) on the feature vectors, by Newton's method."""
    n = len(features[0])
    w = [0.0] * n
    for _ in range(100):
        g = [0.0] * n
        h = [[0.0] * n for _ in range(n)]
        for f, y in zip(features, ys):
            p = sigmoid(sum(a * b for a, b in zip(w, f)))
            for i in range(n):
                g[i] += (y - p) * f[i]
                for j in range(n):
                    h[i][j] += p * (1 - p) * f[i] * f[j]
        step = solve(h, g)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-10:
            break
    return w


def predict(w, f):
    return sigmoid(sum(a * b for a, b in zip(w, f)))


def log_loss(w, features, ys):
    total = 0.0
    for f, y in zip(features, ys):
        p = min(max(predict(w, f), 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / max(len(ys), 1)


def table(w, features, ys):
    bins = [[0, 0.0, 0.0] for _ in range(10)]
    for f, y in zip(features, ys):
        p = predict(w, f)
        i = min(int(p * 10), 9)
        bins[i][0] += 1
        bins[i][1] += p
        bins[i][2] += y
    print("| predicted | positions | mean predicted | observed |")
    print("|---|---|---|---|")
    for i, (n, sp, sy) in enumerate(bins):
        if n:
            print(f"| {i*10}-{i*10+10} % | {n} | {100*sp/n:.1f} % | {100*sy/n:.1f} % |")


def main():
    path = next(a for a in sys.argv[1:] if not a.startswith("--"))
    rows = load(path)
    lone = any(r["lone"] for r in rows)
    feats = lambda r, key: [r[key], 1.0] + ([r["lone"]] if lone else [])
    train = [r for r in rows if r["split"] == "train"]
    test = [r for r in rows if r["split"] == "test"]
    ys = [r["result"] for r in train]
    ty = [r["result"] for r in test]
    w = fit([feats(r, "x") for r in train], ys)
    games = len({r["game"] for r in rows})
    print(f"positions: {len(train)} train, {len(test)} test, from {games} games")
    print(f"k = {w[0]:.5f}, b = {w[1]:.4f}" + (f", b_lone = {w[2]:.4f}" if lone else ""))
    coin = log_loss([0.0] * len(w), [feats(r, "x") for r in test], ty)
    print(f"held-out log loss: {log_loss(w, [feats(r, 'x') for r in test], ty):.4f} (a coin {coin:.4f})")
    table(w, [feats(r, "x") for r in test], ty)
    if "--plain" in sys.argv:
        wp = fit([feats(r, "steps") for r in train], ys)
        print(f"without the phase: k = {wp[0]:.5f}, held-out log loss "
              f"{log_loss(wp, [feats(r, 'steps') for r in test], ty):.4f}")


main()
