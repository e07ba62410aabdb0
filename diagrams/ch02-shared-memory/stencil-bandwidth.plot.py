# SPDX-License-Identifier: MIT
"""The stencil against the copy ceiling (runs stencil-steps and stencil-sweep):
each step's bandwidth as a fraction of cudaMemcpy's at R = 3, and the sweep's
kernels over the radius R."""
RUNS = ["stencil-steps", "stencil-sweep"]
ALT = ("Two charts of the stencil's bandwidth as a fraction of the cudaMemcpy device-to-device "
       "bandwidth measured in the same run, on 2^28 floats, (a) and (b). (a): one horizontal bar per step at "
       "radius 3, from the plain kernel with one output per thread at about half the copy's "
       "bandwidth, through the tiled kernel, which is slower still, to the kernels with 16-byte "
       "loads at about the copy's bandwidth; a solid line marks the copy at 1 and a dotted line the "
       "target of 0.95. (b): the same fraction against the radius, from 1 to 128 on a logarithmic "
       "axis, for five kernels: the kernels with 16-byte loads stay near the copy for small radii "
       "and fall as the radius grows, when the work per output, not memory, sets the time. Each "
       "GPU the book shows has its own bar in every row of (a), and its own line style in (b) "
       "(the lead's solid).")

# The steps in the order the benchmark prints them, and the sweep's kernels.
STEPS = ["plain", "tiled", "plain_k4", "vec_x1", "tiled_vec_x1", "vec_x4", "tiled_vec_x4",
         "tiled_async_x4"]
SWEEP = ["plain", "vec_x1", "vec_x4", "tiled_vec_x4", "tiled_async_x4"]
MARKERS = ["o", "s", "^", "D", "v"]
#: What each legend label draws (plotting.py): a sweep kernel's line its results (a
#: GPU's bars, labelled with its name, all of that GPU's).
SERIES = {
    "plain": r"sweep_plain_r\d+_over_copy", "vec_x1": r"sweep_vec_x1_r\d+_over_copy",
    "vec_x4": r"sweep_vec_x4_r\d+_over_copy", "tiled_vec_x4": r"sweep_tiled_vec_x4_r\d+_over_copy",
    "tiled_async_x4": r"sweep_tiled_async_x4_r\d+_over_copy"}
LINES = ["-", "--", ":", "-."]
#: The marks that are no data, each in its panel's legend (plotting.py: plots-from-records).
REFERENCES = {"the copy": "cudaMemcpy's bandwidth in the same run, which every figure is a "
                          "fraction of: 1 by definition",
              "the target, 0.95": "the chapter's goal for a step, 95% of the copy's bandwidth"}


def draw(fig, runs, theme):
    steps, sweep = runs["stencil-steps"], runs["stencil-sweep"]
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.15]})

    rows = list(range(len(STEPS)))[::-1]  # the first step on top
    # One bar per GPU the book shows in each step's row, the lead's on top.
    n = len(steps.gpus)
    height = 0.7 / n
    for i, (gpu, r) in enumerate(steps.gpus):
        ratios = [r.result(f"{k}_over_copy") for k in STEPS]
        offset = (n - 1) / 2 * height - i * height
        bars = left.barh([y + offset for y in rows], ratios, color=theme.colors[i % 6],
                         height=height * 0.92, label=gpu)
        # Each bar's value inside it, in a colour that reads on the bar.
        left.bar_label(bars, fmt="%.2f", label_type="center", fontsize=9 if n > 1 else None,
                       color="white" if theme.name == "light" else "#111111")
    left.set_yticks(rows, STEPS)
    left.axvline(1.0, color=theme.foreground, linewidth=1.2, label="the copy")
    left.axvline(0.95, color=theme.muted, linestyle=":", label="the target, 0.95")
    left.set_xlim(0, 1.1)
    left.set_xticks([0, 0.5, 1.0] if fig.book_narrow else [0, 0.25, 0.5, 0.75, 1.0])
    left.set_xlabel("bandwidth / cudaMemcpy's, R = 3")
    # Each panel named (a), (b), as the caption names them: the phone's drawing stacks them.
    left.set_title("(a)" + ("" if n < 2 else " in each row, top to bottom:"
                   + ("\n" if fig.book_narrow else " ") + ", ".join(gpu for gpu, _ in steps.gpus)),
                   color=theme.muted)
    left.grid(axis="y", visible=False)
    # Under the bars, which fill the panel up to the copy's line.
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2)

    top = 0.0
    # A kernel's colour and marker; a GPU's line style (the lead's solid).
    for g, (gpu, run) in enumerate(sweep.gpus):
        for k, marker, color in zip(SWEEP, MARKERS, theme.colors):
            points = run.series(rf"sweep_{k}_r(\d+)_over_copy")
            radii = [r for r, _ in points]
            top = max(top, max(v for _, v in points))
            right.plot(radii, [v for _, v in points], marker=marker, color=color,
                       linestyle=LINES[g % len(LINES)],
                       label=k if g == 0 else None)

    right.axhline(1.0, color=theme.foreground, linewidth=1.2, label="the copy")
    right.set_xscale("log", base=2)
    # (the phone's drawing: every other radius named, so that the names do not run together)
    right.set_xticks(radii, [f"{r:g}" if not fig.book_narrow or i % 2 == 0 else ""
                             for i, r in enumerate(radii)])
    right.set_xlabel("radius R")
    right.set_ylabel("bandwidth / cudaMemcpy's")
    right.set_ylim(0, max(1.1, top * 1.05))
    styles = {"-": "solid", "--": "dashed", ":": "dotted", "-.": "dash-dotted"}
    right.set_title("(b) " + ("the sweep's kernels over R" if len(sweep.gpus) < 2 else ", ".join(
        f"{styles[LINES[g % len(LINES)]]}: {gpu}" for g, (gpu, _) in enumerate(sweep.gpus))),
        color=theme.muted)
    # Beside the axes (on the phone's drawing, under them), never over a line (the
    # lines cover the panel's top and its right).
    if fig.book_narrow:
        right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncols=2)
    else:
        right.legend(loc="center left", bbox_to_anchor=(1.02, 0.5))
