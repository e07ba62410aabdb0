# SPDX-License-Identifier: MIT
"""K steps of the stencil per trip to global memory (run temporal-steps): the
time per step of stencil_temporal, as a fraction of the fastest one-step
kernel's, against K, beside 1/K (what the trip to memory alone would cost)."""
RUNS = ["temporal-steps"]
ALT = ("A chart of the time per stencil step against the number of steps K applied per trip to "
       "global memory, from 1 to 8, on 2^28 floats at radius 3. The time per step is drawn as a "
       "fraction of the fastest one-step kernel's time, measured in the same run. A dashed curve "
       "shows 1/K, the share of one trip to memory per step. The measured points start a little "
       "above 1 at K = 1, follow the dashed curve down to about a third at K = 4, and then level "
       "off well above it, near three tenths, where shared memory, not DRAM, sets the time. There is "
       "one series of points per GPU the book shows, each in its own colour and marker.")

#: The dashed curve is a model, not a measurement (plotting.py: plots-from-records).
REFERENCES = {"1/K: one trip to memory per K steps":
              "the model the measured points are read against: 1/K of the K values the run swept",
              "the one-step kernel": "what every time is a fraction of: 1 by definition"}
#: What each legend label of data draws (after "<GPU>: "; plotting.py).
SERIES = {"stencil_temporal(, measured)?": r"temporal_k\d+_step_over_one_step"}

MARKERS = ["o", "s", "^", "D"]


def draw(fig, runs, theme):
    run = runs["temporal-steps"]
    ax = fig.subplots()
    ks = [k for k, _ in run.series(r"temporal_k(\d+)_step_over_one_step")]
    ax.plot(ks, [1.0 / k for k in ks], color=theme.muted, linestyle="--",
            label="1/K: one trip to memory per K steps")
    # One series per GPU the book shows, the lead first.
    for i, (gpu, r) in enumerate(run.gpus):
        points = r.series(r"temporal_k(\d+)_step_over_one_step")
        ax.plot([k for k, _ in points], [v for _, v in points], marker=MARKERS[i % len(MARKERS)],
                color=theme.colors[i % len(theme.colors)],
                label=f"{gpu}: stencil_temporal" if len(run.gpus) > 1 else "stencil_temporal, measured")
    ax.axhline(1.0, color=theme.foreground, linewidth=1.2, label="the one-step kernel")
    ax.set_xticks(ks, [f"{k:g}" for k in ks])
    ax.set_xlabel("steps per trip to global memory, K")
    ax.set_ylabel("time per step /\none-step kernel's" if fig.book_narrow
                  else "time per step / one-step kernel's")
    ax.set_ylim(0, 1.15)
    if fig.book_narrow:  # the phone's drawing: under the chart, where it covers no point
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3))
    else:
        ax.legend(loc="upper right")
