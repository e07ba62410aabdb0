# SPDX-License-Identifier: MIT
"""Little's law for memory (run littles-law): the read bandwidth of every point
of the sweep against its bytes in flight per SM, one series per GPU, with the
line the law predicts from that GPU's own latency and ceiling, and its knee."""
RUNS = ["littles-law"]
ALT = ("A chart of read bandwidth in TB/s against the bytes in flight per SM, on a logarithmic "
       "axis, for a streaming read whose warps per SM, independent loads per lane and load width "
       "were swept. Each GPU the book shows has its own colour: its measured points, and a line, "
       "the bandwidth Little's law predicts from the same run's device-memory latency, which "
       "rises in proportion to the bytes in flight and then stays flat at the run's read "
       "ceiling. A dotted vertical line in the GPU's colour marks its knee, the bytes in flight "
       "per SM where the rising line meets the ceiling.")

#: The lines are the model, not measurements (plotting.py: plots-from-records).
REFERENCES = {"Little's law": "the model the measured points are read against: min(ceiling, "
              "bytes in flight x SMs / latency), from the same record's latency and ceiling"}

MARKERS = {4: "o", 8: "s", 16: "^"}
#: What each legend label of data draws (after "<GPU>: "; plotting.py): a load width's points.
SERIES = {"4-byte loads": r"w\d+_k\d+_b4_(tbs|bytes_per_sm)",
          "8-byte loads": r"w\d+_k\d+_b8_(tbs|bytes_per_sm)",
          "16-byte loads": r"w\d+_k\d+_b16_(tbs|bytes_per_sm)"}


def points_of(r):
    """[(bytes in flight per SM, TB/s, load width)] of one GPU's record."""
    results = r.results
    out = []
    for name, value in results.items():
        if name.startswith("w") and name.endswith("_tbs") and not name.endswith("_model_tbs"):
            key = name[:-len("_tbs")]
            width = int(key.split("_b")[-1])
            out.append((results[key + "_bytes_per_sm"], value, width))
    return sorted(out)


def draw(fig, runs, theme):
    run = runs["littles-law"]
    ax = fig.subplots()
    lowest, highest = None, None
    for i, (gpu, r) in enumerate(run.gpus):
        color = theme.colors[i % len(theme.colors)]
        pts = points_of(r)
        name = f"{gpu}: " if len(run.gpus) > 1 else ""
        for width, marker in MARKERS.items():
            mine = [(b, t) for b, t, w in pts if w == width]
            if mine:
                ax.scatter([b for b, _ in mine], [t for _, t in mine], marker=marker, color=color,
                           s=22, label=f"{name}{width}-byte loads")
        ceiling, latency, sms = r.result("ceiling_tbs"), r.result("lat_hbm_ns"), r.result("sms")
        lo, hi = pts[0][0], pts[-1][0]
        lowest = lo if lowest is None else min(lowest, lo)
        highest = hi if highest is None else max(highest, hi)
        xs = [lo * (hi / lo) ** (k / 64) for k in range(65)]
        ax.plot(xs, [min(ceiling, x * sms / latency / 1e3) for x in xs], color=color,
                linestyle="--", label="Little's law" if i == 0 else "_")
        ax.axvline(r.result("knee_bytes_per_sm"), color=color, linestyle=":", linewidth=1.2)
    ax.set_xscale("log", base=2)
    ax.set_xlim(lowest / 1.5, highest * 1.5)
    # Ticks at powers of two, written out in KiB: the default labels, 2 with a
    # superscript, print the exponent smaller than the book's smallest text.
    ticks, t = [], 1
    while t < lowest / 1.5:
        t *= 2
    while t <= highest * 1.5:
        ticks.append(t)
        t *= 2
    ticks = ticks[::2] if len(ticks) > 6 else ticks
    ax.set_xticks(ticks, [f"{t / 1024:g}" for t in ticks])
    ax.minorticks_off()
    ax.set_ylim(bottom=0)
    ax.set_xlabel("bytes in flight per SM (KiB)")
    ax.set_ylabel("read bandwidth (TB/s)")
    ax.set_title("dashed: Little's law; dotted: its knee", color=theme.muted)
    if fig.book_narrow:
        # Inside the axes, below the ceiling and right of the knee, where no point
        # lies: a legend under the axes leaves the y label no room on a phone.
        ax.legend(loc="lower right")
    else:
        ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5))
