# SPDX-License-Identifier: MIT
"""The benchmark (run reduce-bench), drawn: each step's bandwidth at 2^28 floats
against the read-stream ceiling, and step 8 against CUB at the four sizes,
timed in batches of 20 calls and as CUDA-graph replays."""
RUNS = ["reduce-bench"]
ALT = ("Two charts of the reduce-bench run, (a) and (b). (a): horizontal bars of the bandwidth in TB/s "
       "reached at 2^28 floats by steps 1 to 8 and by CUB, with a dashed vertical line at the "
       "read-stream ceiling measured in the same run; the bars grow from step 1, far left of "
       "the line, to steps 7 and 8 and CUB, which come within a few percent of it. (b): step "
       "8's speed relative to CUB at 2^16, 2^20, 2^24 and 2^28 floats, as CUB's median time "
       "over step 8's, once timed in batches of 20 calls, where step 8 is well above 1 at the "
       "two small sizes and close to 1 at the two large ones, and once as CUDA-graph replays, "
       "where step 8's advantage is gone: the points lie at or a little below 1; a dotted line "
       "marks 1, as fast as CUB. Each GPU the book shows has its own bars, ceiling and lines.")

STEPS = [("interleaved_divergent", "1"), ("interleaved_strided", "2"), ("sequential", "3"),
         ("first_add", "4"), ("last_warp", "5"), ("warp_block", "6"), ("two_pass", "7"),
         ("one_pass", "8"), ("cub", "CUB")]
SIZES = [16, 20, 24, 28]
# The sizes as tick labels, with superscripts of the label's own font size (mathtext
# would shrink them below what a page can show).
SUPERSCRIPT_POWERS = {16: "2¹⁶", 20: "2²⁰", 24: "2²⁴", 28: "2²⁸"}
#: What each legend label of data draws (after "<GPU>: "; plotting.py).
SERIES = {r"(its )?read ceiling( [0-9.]+)?": r"ceiling_tbs_2e28",
          r"batches of (20 )?calls": r"best_over_cub_2e\d+",
          r"CUDA-graph replays": r"graph_best_over_cub_2e\d+"}
#: The mark that is no data (plotting.py: plots-from-records).
REFERENCES = {"CUB's own time": "a time ratio of 1: where step 8 takes CUB's time"}


def draw(fig, runs, theme):
    run = runs["reduce-bench"]
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.1, 1]})

    rows = list(range(len(STEPS)))
    # One bar per GPU the book shows in each step's row (the lead's on top, CUB's
    # row in the palette's next colour), and each GPU's read ceiling as a line.
    n = len(run.gpus)
    height = 0.75 / n
    top = 0.0
    for i, (gpu, r) in enumerate(run.gpus):
        tbs = [r.result(f"{key}_tbs_2e28") for key, _ in STEPS]
        ceiling = r.result("ceiling_tbs_2e28")
        top = max(top, ceiling, max(tbs))
        colors = [theme.colors[(3 * i) % 6]] * 8 + [theme.colors[(3 * i + 1) % 6]]
        offset = i * height - (n - 1) / 2 * height
        left.barh([y + offset for y in rows], tbs, color=colors, height=height * 0.92)
        left.axvline(ceiling, linestyle="--" if i == 0 else ":", color=theme.colors[(3 * i) % 6],
                     label=f"read ceiling {ceiling:.2f}" if n == 1 else f"{gpu}: its read ceiling")
    left.set_yticks(rows, [label for _, label in STEPS])
    left.invert_yaxis()
    left.set_ylabel("step")
    left.set_xlabel("TB/s at 2²⁸ floats")
    left.set_xlim(0, top * 1.25)
    left.legend(loc="upper right")
    # Each panel named (a), (b), as the caption names them: the phone's drawing stacks them.
    left.set_title("(a)", color=theme.muted)

    high = 0.0
    for i, (gpu, r) in enumerate(run.gpus):
        events = [r.result(f"best_over_cub_2e{k}") for k in SIZES]
        graphs = [r.result(f"graph_best_over_cub_2e{k}") for k in SIZES]
        right.plot(SIZES, events, "o-", color=theme.colors[(3 * i) % 6],
                   label=f"{gpu}: batches of calls" if n > 1 else "batches of 20 calls")
        right.plot(SIZES, graphs, "s--", color=theme.colors[(3 * i + 2) % 6],
                   label=f"{gpu}: CUDA-graph replays" if n > 1 else "CUDA-graph replays")
        high = max(high, *events, *graphs)
    right.axhline(1.0, linestyle=":", color=theme.muted, label="CUB's own time")
    right.set_title("(b)", color=theme.muted)
    right.set_xticks(SIZES, [SUPERSCRIPT_POWERS[k] for k in SIZES])
    right.set_xlabel("floats")
    right.set_ylabel("CUB's time / step 8's")
    right.set_ylim(0, high * 1.15)
    if fig.book_narrow:  # the phone's drawing: under the chart, where it covers no line
        right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3))
    else:
        right.legend(loc="upper right", fontsize=9 if len(run.gpus) > 1 else None)
