# SPDX-License-Identifier: MIT
"""The divergence sweep (run div-sweep): kernel time and the divergent/uniform
ratio against the grid size in waves, the measured medians with both
straight-line fits."""
RUNS = ["div-sweep"]
ALT = ("Two charts of the div-sweep run against the grid size in waves (1 to 32), (a) and (b). (a): the "
       "median kernel time in milliseconds of the uniform and the divergent launch, with their "
       "straight-line fits; the divergent line is about twice as steep. (b): the divergent to "
       "uniform time ratio, measured and as predicted by the two fits, rising from near 1 at one "
       "wave towards the ratio of the fits' slopes, drawn as a dotted line. Chart (a) is the "
       "lead GPU's; chart (b) has a series of points and fits per GPU the book shows.")

#: What each legend label draws (plotting.py: a label names the series whose data it
#: draws): the label (after "<GPU>: ") and the results it is drawn from.
SERIES = {"uniform, median": r"uniform_w\d+_ms",
          "uniform, fit": r"fit_(t0|slope)_ms_uniform",
          "divergent, median": r"divergent_w\d+_ms",
          "divergent, fit": r"fit_(t0|slope)_ms_divergent",
          "measured( medians)?": r"(uniform|divergent)_w\d+_ms",
          "from (its|the two) fits": r"fit_(t0|slope)_ms_(uniform|divergent)",
          r"slope ratio [0-9.]+": r"fit_slope_ms_(uniform|divergent)"}


def draw(fig, runs, theme):
    run = runs["div-sweep"]
    uniform = run.series(r"uniform_w(\d+)_ms")
    divergent = run.series(r"divergent_w(\d+)_ms")
    waves = [w for w, _ in uniform]
    if waves != [w for w, _ in divergent]:
        raise ValueError("the uniform and divergent sweeps have different wave counts")
    t0_u, slope_u = run.result("fit_t0_ms_uniform"), run.result("fit_slope_ms_uniform")
    t0_d, slope_d = run.result("fit_t0_ms_divergent"), run.result("fit_slope_ms_divergent")
    c_u, c_d, c_fit = theme.colors[0], theme.colors[1], theme.muted

    left, right = fig.subplots(1, 2)
    span = [0, max(waves)]
    left.plot(waves, [t for _, t in uniform], "o", color=c_u, label="uniform, median")
    left.plot(span, [t0_u + slope_u * w for w in span], "--", color=c_u, label="uniform, fit")
    left.plot(waves, [t for _, t in divergent], "s", color=c_d, label="divergent, median")
    left.plot(span, [t0_d + slope_d * w for w in span], "--", color=c_d, label="divergent, fit")
    left.set_xlabel("grid size (waves)")
    left.set_ylabel("kernel time (ms)")
    left.set_xlim(0, max(waves) * 1.04)
    left.set_ylim(0, None)
    left.legend(loc="upper left")
    # Each panel named (a), (b), as the caption names them: the phone's drawing stacks them.
    left.set_title("(a)" + (f" {run.gpus[0][0]}, the slope ratio's too" if len(run.gpus) > 1 else ""),
                   color=theme.muted)

    # The ratio on every GPU the book shows, one series each (the lead first, in the
    # divergent colour; then the palette's next colours), with its fits' prediction.
    dense = [waves[0] * (max(waves) / waves[0]) ** (k / 100) for k in range(101)]
    top = slope_d / slope_u
    for i, (gpu, r) in enumerate(run.gpus):
        u, d = r.series(r"uniform_w(\d+)_ms"), r.series(r"divergent_w(\d+)_ms")
        ratio = [dv / uv for (_, uv), (_, dv) in zip(u, d)]
        fit_u = (r.result("fit_t0_ms_uniform"), r.result("fit_slope_ms_uniform"))
        fit_d = (r.result("fit_t0_ms_divergent"), r.result("fit_slope_ms_divergent"))
        color = c_d if i == 0 else theme.colors[(i + 1) % len(theme.colors)]
        several = len(run.gpus) > 1
        right.plot([w for w, _ in u], ratio, "o", color=color,
                   label=f"{gpu}: measured" if several else "measured medians")
        right.plot(dense, [(fit_d[0] + fit_d[1] * w) / (fit_u[0] + fit_u[1] * w) for w in dense],
                   "--", color=color, label=f"{gpu}: from its fits" if several else "from the two fits")
        top = max(top, max(ratio), fit_d[1] / fit_u[1])
    right.axhline(slope_d / slope_u, linestyle=":", color=c_fit,
                  label=f"slope ratio {slope_d / slope_u:.2f}")
    right.set_xscale("log", base=2)
    right.set_xticks(waves, [f"{w:g}" for w in waves])
    right.set_xlabel("grid size (waves)")
    right.set_ylabel("divergent / uniform time")
    right.set_ylim(0.9, top * 1.08)
    right.legend(loc="lower right")
    right.set_title("(b)", color=theme.muted)
