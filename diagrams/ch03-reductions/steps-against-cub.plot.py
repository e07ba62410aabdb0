# SPDX-License-Identifier: MIT
"""The benchmark (run reduce-bench), drawn: each step's bandwidth at 2^28 floats
against the read-stream ceiling, and step 8 against CUB at the four sizes,
timed in batches of 20 calls and as CUDA-graph replays."""
RUNS = ["reduce-bench"]
ALT = ("Two charts of the reduce-bench run. Left: horizontal bars of the bandwidth in TB/s "
       "reached at 2^28 floats by steps 1 to 8 and by CUB, with a dashed vertical line at the "
       "read-stream ceiling measured in the same run; the bars grow from step 1, far left of "
       "the line, to steps 7 and 8 and CUB, which come within a few percent of it. Right: step "
       "8's speed relative to CUB at 2^16, 2^20, 2^24 and 2^28 floats, as CUB's median time "
       "over step 8's, once timed in batches of 20 calls, where step 8 is well above 1 at the "
       "two small sizes and close to 1 at the two large ones, and once as CUDA-graph replays, "
       "where step 8's advantage is gone: the points lie at or a little below 1; a dotted line "
       "marks 1, as fast as CUB.")

STEPS = [("interleaved_divergent", "1"), ("interleaved_strided", "2"), ("sequential", "3"),
         ("first_add", "4"), ("last_warp", "5"), ("warp_block", "6"), ("two_pass", "7"),
         ("one_pass", "8"), ("cub", "CUB")]
SIZES = [16, 20, 24, 28]
# The sizes as tick labels, with superscripts of the label's own font size (mathtext
# would shrink them below what a page can show).
SUPERSCRIPT_POWERS = {16: "2¹⁶", 20: "2²⁰", 24: "2²⁴", 28: "2²⁸"}


def draw(fig, runs, theme):
    run = runs["reduce-bench"]
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.1, 1]})

    tbs = [run.result(f"{key}_tbs_2e28") for key, _ in STEPS]
    ceiling = run.result("ceiling_tbs_2e28")
    rows = list(range(len(STEPS)))
    colors = [theme.colors[0]] * 8 + [theme.colors[1]]
    left.barh(rows, tbs, color=colors, height=0.7)
    left.axvline(ceiling, linestyle="--", color=theme.muted, label=f"read ceiling {ceiling:.2f}")
    left.set_yticks(rows, [label for _, label in STEPS])
    left.invert_yaxis()
    left.set_ylabel("step")
    left.set_xlabel("TB/s at 2²⁸ floats")
    left.set_xlim(0, ceiling * 1.25)
    left.legend(loc="upper right")

    events = [run.result(f"best_over_cub_2e{k}") for k in SIZES]
    graphs = [run.result(f"graph_best_over_cub_2e{k}") for k in SIZES]
    right.plot(SIZES, events, "o-", color=theme.colors[0], label="batches of 20 calls")
    right.plot(SIZES, graphs, "s--", color=theme.colors[2], label="CUDA-graph replays")
    right.axhline(1.0, linestyle=":", color=theme.muted)
    right.set_xticks(SIZES, [SUPERSCRIPT_POWERS[k] for k in SIZES])
    right.set_xlabel("floats")
    right.set_ylabel("CUB's time / step 8's")
    right.set_ylim(0, max(events + graphs) * 1.15)
    right.legend(loc="upper right")
