# SPDX-License-Identifier: MIT
"""Draw one plot of the book from run records (tools/bookpy/build/plotting.py).

    python3 -m bookpy.build.render_plot runs <repo> <diagrams/<key>/<name>.plot.py>
        print the runs the plot reads, <key>/<run>, one a line (CMake reads
        them at configure time to make the plot depend on their records)
    python3 -m bookpy.build.render_plot draw <repo> <spec> <out-dir> --record <key>/<run>=<record.json>...
            [--gpu-record <key>/<run>=<GPU>=<record.json>...]
        write <out-dir>/<name>.svg (light page), <name>-dark.svg, <name>.pdf, and the
        phone's drawings (panels stacked) <name>-phone.svg and <name>-phone-dark.svg;
        --gpu-record gives a GPU run's record on each GPU (the build's own first,
        its record the --record one), for a series per GPU (plotting.Run.gpus)

Errors name the spec (and its line where there is one) and leave no partial
file behind.
"""
import argparse
import os
import sys

from .plotting import PlotError, load_runs, read_spec, render, spec_key


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["runs", "draw"])
    ap.add_argument("repo")
    ap.add_argument("spec")
    ap.add_argument("out_dir", nargs="?")
    ap.add_argument("--record", action="append", default=[], metavar="KEY=PATH")
    ap.add_argument("--gpu-record", action="append", default=[], metavar="KEY=GPU=PATH")
    a = ap.parse_args()
    try:
        spec_path = os.path.abspath(a.spec)
        spec = read_spec(spec_path, spec_key(os.path.join(os.path.abspath(a.repo), "diagrams"), spec_path))
        if a.mode == "runs":
            print("\n".join(spec.runs))
            return 0
        if not a.out_dir:
            ap.error("draw needs an output folder")
        records = {}
        for item in a.record:
            key, sep, path = item.partition("=")
            if not sep:
                ap.error(f"--record {item}: write <key>/<run>=<path>")
            records[key] = path
        extra = sorted(set(records) - set(spec.runs))
        if extra:
            raise PlotError(f"{spec.path}: given records of runs it does not declare in RUNS: "
                            f"{', '.join(extra)}")
        per_gpu: dict = {}
        for item in a.gpu_record:
            key, sep, rest = item.partition("=")
            gpu, sep2, path = rest.partition("=")
            if not (sep and sep2 and gpu):
                ap.error(f"--gpu-record {item}: write <key>/<run>=<GPU>=<path>")
            per_gpu.setdefault(key, []).append((gpu, path))
        runs = load_runs(spec, records, per_gpu)
        name = spec.key.split("/")[1]
        os.makedirs(a.out_dir, exist_ok=True)
        render(spec, runs, {"light.svg": os.path.join(a.out_dir, name + ".svg"),
                            "dark.svg": os.path.join(a.out_dir, name + "-dark.svg"),
                            "pdf": os.path.join(a.out_dir, name + ".pdf"),
                            "phone.svg": os.path.join(a.out_dir, name + "-phone.svg"),
                            "phone-dark.svg": os.path.join(a.out_dir, name + "-phone-dark.svg")})
        return 0
    except PlotError as e:
        # Each "<spec>[:line]: what" as "<spec from the repository>[:line]: error: what"
        for line in str(e).replace(os.path.abspath(a.repo) + os.sep, "").splitlines():
            where, _, what = line.partition(": ")
            print(f"{where}: error: {what}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
