"""Differenzler study: how accurately can a player declare?"""
from __future__ import annotations

import numpy as np
import pandas as pd

from cardmc import stats
from cardmc.display import digits
from cardmc.api import simulate
from cardmc.reports import charts
from cardmc.reports.section import Section

RULES = ("random", "heuristic", "calibrated")


def study(folder, games: int, seed: int, progress: bool = False) -> Section:
    runs = {}
    for rule in RULES:
        df = simulate("differenzler", games=games, seed=seed, policy=f"heuristic:{rule}", progress=progress)
        runs[rule] = df[df["extra"] == 0].sort_values(["game", "deal", "seat"], kind="stable")
    base = runs["heuristic"]["penalty"].to_numpy(float)
    rows = []
    for rule in RULES:
        p = runs[rule]["penalty"].to_numpy(float)
        m, d = stats.mean(p), stats.paired_difference(p, base)
        rows.append({"declaration": rule, "estimate": m["estimate"], "se": m["se"], "ci_low": m["ci_low"],
                     "ci_high": m["ci_high"], "n": m["n"], "minus_heuristic": d["estimate"],
                     "minus_heuristic_se": d["se"], "minus_heuristic_ci_low": d["ci_low"],
                     "minus_heuristic_ci_high": d["ci_high"]})  # fmt: skip
    accuracy = pd.DataFrame(rows).set_index("declaration")

    dist = []
    for rule in RULES:
        counts = np.bincount(np.minimum(runs[rule]["penalty"].to_numpy() // 5, 20), minlength=21)
        lo, hi = stats.wilson(counts, counts.sum())
        dist.append(pd.DataFrame({"declaration": rule, "penalty": np.arange(21) * 5, "n": counts,
                                  "share": counts / counts.sum(), "ci_low": lo, "ci_high": hi}))  # fmt: skip
    distribution = pd.concat(dist, ignore_index=True)

    cal = []
    for rule in ("heuristic", "calibrated"):
        r = runs[rule]
        b = (r["declared"] // 10) * 10 + 5
        t = stats.grouped_mean(r.assign(declared_bin=b), ["declared_bin"], "made")
        t = t[t["n"] >= 30].reset_index().rename(columns={"declared_bin": "declared"})
        cal.append(t.assign(declaration=rule))
    calibration = pd.concat(cal, ignore_index=True)

    c = runs["calibrated"]
    keys = [c["trumps"].clip(upper=5).rename("trumps"), c["trump_jack"], c["aces"].clip(upper=3).rename("aces")]
    rows = []
    for (trumps, jack, aces), made in c.groupby(keys, observed=True)["made"]:
        if len(made) >= 50:
            m = stats.median_ci(made)
            rows.append({"trumps": trumps, "trump_jack": jack, "aces": aces, "median_made": m["estimate"],
                         "median_made_ci_low": m["ci_low"], "median_made_ci_high": m["ci_high"], "n": m["n"]})
    guide = pd.DataFrame(rows)
    cells = guide.assign(cell=[f"{e:.0f} [{lo:.0f}, {hi:.0f}]" for e, lo, hi in
                               zip(guide["median_made"], guide["median_made_ci_low"], guide["median_made_ci_high"])])
    guide_show = cells.pivot(index=["trumps", "trump_jack"], columns="aces", values="cell").fillna("")
    guide_show.columns = [{0: "no ace", 1: "1 ace", 2: "2 aces", 3: "3+ aces"}[a] for a in guide_show.columns]
    guide_show.index = guide_show.index.set_names(["trumps (5 = 5+)", "trump J"])

    files = []
    ax = charts.plot_distribution(distribution, by="declaration", value="penalty",
                                  xlabel="penalty |declared - made| (bins of 5 points)",
                                  title="Penalty per hand by declaration rule")  # fmt: skip
    files.append(("penalty_distribution", "Share of hands by penalty, with 95% Wilson bands.",
                  charts.save(ax, folder, "differenzler_penalty_distribution")))  # fmt: skip
    ax = charts.plot_calibration(calibration)
    files.append(("calibration", "Points made against points declared (bins of 10), with 95% CIs.",
                  charts.save(ax, folder, "differenzler_calibration")))  # fmt: skip

    cal_row = accuracy.loc["calibrated"]
    d = digits(cal_row["se"])
    answer = (
        f"Declaring by the calibrated rule, a player misses by {cal_row['estimate']:.{d}f} "
        f"[{cal_row['ci_low']:.{d}f}, {cal_row['ci_high']:.{d}f}] points a hand on average, against "
        f"{accuracy.loc['heuristic', 'estimate']:.{d}f} for the heuristic formula and "
        f"{accuracy.loc['random', 'estimate']:.{d}f} for random declarations on the same deals "
        f"(95% CIs; {int(cal_row['n']):,} hands per rule)."
    )
    return Section(
        game="differenzler",
        title="Differenzler Jass",
        question="How accurately can a player declare, and which declaration rule is best?",
        answer=answer,
        tables=[
            ("accuracy", "Mean penalty per hand by declaration rule (all four players use it; heuristic play), "
             "and the paired difference against the heuristic rule on the same deals.", accuracy),
            ("declaration_guide", "What a good declaration looks like: the median of the points such hands made "
             "(the declaration with the least expected penalty), with its 95% CI, by trumps held, trump J and "
             "aces, when everyone declares by the calibrated rule.", guide_show),
        ],  # fmt: skip
        charts=files,
        data={"differenzler_accuracy": accuracy, "differenzler_penalty_distribution": distribution,
              "differenzler_calibration": calibration, "differenzler_declaration_guide": guide},  # fmt: skip
        frames={"differenzler_calibrated_games": runs["calibrated"]},
        commands=[f"cardmc simulate differenzler --games {games} --seed {seed} --policy heuristic:{r} "
                  f"--out differenzler_{r}.parquet" for r in RULES]  # fmt: skip
        + [f'python -c "from cardmc.differenzler import compare_declarations; '
           f'print(compare_declarations(games={games}, seed={seed}))"'],  # fmt: skip
        sample=f"{games:,} games of four deals ({4 * 4 * games:,} hands per rule), seed {seed}",
    )
