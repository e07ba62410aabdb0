#!/usr/bin/env python3
"""Tables for tools/explore/ch03.sh's SUMMARY.txt, from the files it wrote.

    ch03_summary.py registers OUTDIR/registers.txt   registers per kernel (ptxas)
    ch03_summary.py sass OUTDIR/sass-summary.txt      SASS counts per kernel
    ch03_summary.py ncu OUTDIR/ncu-2e24.csv           an Nsight Compute profile
    ch03_summary.py final OUTDIR                      step 8 against CUB, side by side

Kernel names are shortened the same way everywhere: stride.plain<4> for a
variant of the layout comparison (layout.load<unroll>), reduce_one_pass<4> for
step 8, cub::DeviceReduceKernel for CUB's.
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys

LAYOUTS = ["stride", "tiles", "even", "old"]
LOADS = ["plain", "ldg", "ldcs", "l2_256"]


def demangle(names):
    """The names demangled by c++filt where there is one, else as they are."""
    tool = shutil.which("c++filt")
    if not tool or not names:
        return list(names)
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True)
    lines = out.stdout.splitlines()
    return lines if len(lines) == len(names) else list(names)


def short(name):
    """A kernel's name in a few characters, mangled or not."""
    m = re.search(r"one_pass_variantILNS_6layoutE(\d)ELNS_9load_kindE(\d)ELi(\d)E", name)
    if not m:
        m = re.search(r"one_pass_variant<\(ch03::layout\)(\d), \(ch03::load_kind\)(\d), (\d)>",
                      name)
    if m:
        return "%s.%s<%s>" % (LAYOUTS[int(m.group(1))], LOADS[int(m.group(2))], m.group(3))
    m = re.search(r"(old_one_pass|reduce_one_pass|read_ceiling_kernel|reduce_grid_stride)"
                  r"(?:ILi(\d)E|<(\d)>)", name)
    if m:
        return "%s<%s>" % (m.group(1), m.group(2) or m.group(3))
    m = re.search(r"(DeviceReduceSingleTileKernel|DeviceReduceKernel|EmptyKernel)", name)
    if m:
        return "cub::" + m.group(1)
    m = re.search(r"(sum_tail_\w+?|reduce_\w+?|fill_\w+?)(?:E|\(|$)", name)
    if m:
        return m.group(1)
    return name[:40]


def registers(path):
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2:
                rows.append((int(parts[0]), parts[1]))
    names = demangle([n for _, n in rows])
    families = {}  # "stride.plain" -> {unroll: registers}
    for (regs, _), name in zip(rows, names):
        m = re.match(r"(.*)<(\d)>$", short(name))
        if m:
            families.setdefault(m.group(1), {})[int(m.group(2))] = regs
    print("%-22s %s" % ("kernel", " ".join("%5s" % ("U=%d" % u) for u in (1, 2, 4, 8))))
    for family in sorted(families):
        print("%-22s %s" % (family, " ".join("%5s" % families[family].get(u, "-")
                                              for u in (1, 2, 4, 8))))


def sass(path):
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines:
        return
    header, rows = lines[0], [l.split() for l in lines[1:] if l.strip()]
    print("%-30s %s" % ("kernel", " ".join("%6s" % h for h in header.split()[1:])))
    for r in sorted(rows, key=lambda r: short(r[0])):
        s = short(r[0])
        if re.search(r"one_pass|read_ceiling|grid_stride|tail|reduce_|\.", s):
            print("%-30s %s" % (s, " ".join("%6s" % v for v in r[1:])))


def ncu(path):
    rows, order = {}, []
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    for r in csv.DictReader(lines):
        k = r.get("ID")
        if k not in rows:
            rows[k] = {"name": short(r.get("Kernel Name", "?"))}
            order.append(k)
        rows[k][r.get("Metric Name")] = r.get("Metric Value")
    cols = [("launch__grid_size", "grid"), ("launch__block_size", "block"),
            ("launch__registers_per_thread", "regs"), ("gpu__time_duration.sum", "ns"),
            ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM %"),
            ("smsp__thread_inst_executed_per_inst_executed.ratio", "SIMT"),
            ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "bank cf")]
    print("%-28s " % "kernel" + " ".join("%8s" % c[1] for c in cols))
    for k in order:
        print("%-28s " % rows[k]["name"][:28] +
              " ".join("%8s" % rows[k].get(c[0], "-") for c in cols))


def results(out, name):
    path = os.path.join(out, "results-%s.jsonl" % name)
    r = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                try:
                    j = json.loads(line)
                except ValueError:
                    continue
                if j.get("kind") == "result":
                    r[j["name"]] = j["value"]
    return r


def final(out):
    sizes = ["2e16", "2e20", "2e24", "2e28"]
    targets = [1.40, 1.40, 1.05, 0.98]
    ratio = lambda r, key: " ".join("%6.2fx" % r.get(key + s, float("nan")) for s in sizes)
    print("%-34s %7s %7s %7s %7s" % ("CUB's time over step 8's", "2^16", "2^20", "2^24", "2^28"))
    print("%-34s %7.2f %7.2f %7.2f %7.2f" % tuple(["target (events around each call)"] + targets))
    for name, label in [("bench", "bench, default policy"),
                        ("bench-policy", "bench, the sweep's policy")]:
        r = results(out, name)
        if not r:
            continue
        print("%-34s %s" % (label, ratio(r, "best_over_cub_")))
        print("%-34s %s" % ("  as CUDA-graph replays", ratio(r, "graph_best_over_cub_")))
        launch = " ".join("%7s" % ("%dx%dx%d" % (r.get("threads_" + s, 0),
                                                 r.get("blocks_per_sm_" + s, 0),
                                                 r.get("unroll_" + s, 0))) for s in sizes)
        print("%-34s %s" % ("  launch (threads x blocks/SM x U)", launch))
        us = " ".join("%7.2f" % r.get("one_pass_us_" + s, float("nan")) for s in sizes)
        cub = " ".join("%7.2f" % r.get("cub_us_" + s, float("nan")) for s in sizes)
        print("%-34s %s" % ("  step 8, median us per call", us))
        print("%-34s %s" % ("  CUB, median us per call", cub))
    for name, label in [("sweep-full", "sweep --full: best at each size"),
                        ("sweep-confirm", "sweep-confirm: best at each size")]:
        r = results(out, name)
        if r:
            print("%-34s %s" % (label, ratio(r, "sweep_best_over_cub_")))


def main(argv):
    modes = {"registers": registers, "sass": sass, "ncu": ncu, "final": final}
    if len(argv) != 3 or argv[1] not in modes:
        sys.stderr.write(__doc__)
        return 2
    modes[argv[1]](argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
