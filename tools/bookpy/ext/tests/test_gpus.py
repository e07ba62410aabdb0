"""Pages that show every GPU (records.py, claims.py, buildinfo.py): a GPU run's
output in one tab per GPU with where it ran, the lead's figure in prose and
every GPU's beside it where asked, each claim checked on every GPU's fresh
records, a scoped claim's sentence naming its GPUs, the lead's outputs alone
in the PDF, and "How this book was built" giving every quoted figure on every
GPU. The fixture's GPUs are the build manifest's alone: a third GPU, the A100,
given only as recordings here, appears with no change to the extension."""
from __future__ import annotations

import json
import os

from .conftest import visible

H200, H100, A100 = "NVIDIA H200", "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB"
RUN = "ch90-fixture/gpu-run"


def _gpu_record(tree, gpu: str, ms: float, stdout: str, stale: bool = False,
                commit: str = "def5678") -> str:
    """The fixture's GPU record as made on another GPU, in gpu-records/<slug>/."""
    record = json.loads(tree.read("build/records/ch90-fixture/gpu-run.json"))
    record["provenance"].update(gpu_name=gpu, commit=commit)
    record["results"]["ms"]["value"] = ms
    record["stdout"] = stdout
    record["stale"] = stale
    record["stale_reasons"] = ["code/ch90-fixture/gprog.cu changed"] if stale else []
    slug = gpu.lower().replace(" ", "-")
    return tree.write(f"build/gpu-records/{slug}/ch90-fixture/gpu-run.json", json.dumps(record))


def _chapter(tree, text: str) -> None:
    """The fixture chapter replaced by `text` (its check-yourself question goes with it)."""
    tree.write("repo/chapters/ch90-fixture.md", text)
    tree.edit_json("build/cy-tags.json", lambda d: d["tags"].pop("ch90-q1", None))


def _three_gpus(tree, lead_pending: str | None = None, checks: str | None = None) -> None:
    """The H200 leads (its record the build's own), the H100's recording is fresh,
    the A100's was made for an older version of the program."""
    h100 = _gpu_record(tree, H100, 2.5, "on the H100\n")
    a100 = _gpu_record(tree, A100, 9.0, "on the A100\n", stale=True, commit="abc1234")
    own = None if lead_pending else os.path.join(tree.build, "records/ch90-fixture/gpu-run.json")

    def change(m):
        m["gpus"] = {"model": H200, "live": False, "lead": H200, "release": False,
                     "reference": [{"name": H100, "slug": "h100", "short": "H100"},
                                   {"name": H200, "slug": "h200", "short": "H200"},
                                   {"name": A100, "slug": "a100", "short": "A100"}]}
        m["runs"][RUN]["gpus"] = {H200: {"slug": "h200", "record": own, "pending": lead_pending},
                                  H100: {"slug": "h100", "record": h100, "pending": None},
                                  A100: {"slug": "a100", "record": a100, "pending": None}}
        m["runs"][RUN]["checks"] = checks
    tree.edit_json("build/book-manifest.json", change)


def test_a_gpu_run_shows_a_tab_per_gpu_each_with_where_it_ran(tree):
    _three_gpus(tree)
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    html = tree.html()
    page = visible(html)
    # The build's own GPU first (the lead), then book/gpus.json's order.
    labels = [html.index(f'for="book-gpus-0-{i}">{label}') for i, label in
              enumerate(["H200 (lead)", "H100", "A100"])]
    assert labels == sorted(labels)
    assert "on the GPU" in page and "on the H100" in page and "on the A100" in page
    assert "Recorded on NVIDIA H100 80GB HBM3 (compute capability 9.0" in page
    # The A100's recording was made for an older version of the program: the tab says
    # so, with the commit, over the output.
    assert "(not yet run in this version; last recorded at commit abc1234)" in page
    assert ("Not yet run in this version on the A100. Below is its last recording there, made "
            "at commit abc1234 for an older version of the program; it is not counted as "
            "checked.") in page
    assert page.index("Not yet run in this version on the A100") < page.index("on the A100\n")


def test_a_run_pending_on_the_lead_shows_that_it_waits(tree):
    _three_gpus(tree, lead_pending="its kernel changed")
    tree.write("repo/chapters/ch90-fixture.md", tree.read("repo/chapters/ch90-fixture.md")
               + "\nIt took {value}`gpu-run:ms` ms.\n")
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    page = visible(tree.html())
    assert ("Not yet run on the H200. This run waits for the H200: its kernel changed. Its "
            "output will be shown here once it has been recorded there.") in page
    assert "It took (not yet run in this version on the H200) ms." in page


PLOT = ('"""A plot of the fixture\'s GPU run."""\nRUNS = ["gpu-run"]\nALT = "A chart of the run\'s time."\n\n'
        "def draw(fig, runs, theme):\n    fig.subplots().plot([0, 1], [0, runs[\"gpu-run\"].result(\"ms\")])\n")


def test_a_plot_of_a_run_pending_on_the_lead_says_that_it_waits(tree):
    """The build draws no plot of a run that waits for its GPU with no record there
    (cmake/BookSite.cmake): the page shows the caption under a note naming the run and
    why it waits, and asks for no drawing; a plot whose drawing is missing for any
    other reason is still an error."""
    _three_gpus(tree, lead_pending="its kernel changed")
    tree.write("repo/diagrams/ch90-fixture/gpu-time.plot.py", PLOT)
    chapter = tree.read("repo/chapters/ch90-fixture.md")
    tree.write("repo/chapters/ch90-fixture.md", chapter
               + "\n```{plot} gpu-time\nThe run\'s time, drawn.\n```\n")
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    page = visible(tree.html())
    assert ("Not yet drawn: not yet run on the H200. This plot "
            "(diagrams/ch90-fixture/gpu-time.plot.py) draws run ch90-fixture/gpu-run, which "
            "waits for the H200: its kernel changed. It will be drawn here once the run has "
            "been recorded there.") in page
    assert "The run\u2019s time, drawn." in page or "The run's time, drawn." in page
    # Not pending: the drawing is required, and it was not made.
    _three_gpus(tree)
    _, warnings, _ = tree.sphinx()
    assert "plot 'ch90-fixture/gpu-time' was not drawn" in warnings, warnings


def test_prose_quotes_the_lead_and_every_gpu_where_asked(tree):
    _three_gpus(tree)
    tree.write("repo/chapters/ch90-fixture.md", tree.read("repo/chapters/ch90-fixture.md")
               + "\nIt took {value}`gpu-run:ms` ms; {gpu-values}`gpu-run:ms|.2f` ms.\n")
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    assert ("It took 1.25 ms; 1.25 on the H200, 2.50 on the H100 and 9.00 on the A100 (not yet "
            "run in this version; last recorded at commit abc1234) ms.") in visible(tree.html())


def test_a_unit_typed_after_every_gpus_figure_is_each_records(tree):
    """units-from-record holds for {gpu-values} as for {value}: the unit typed after
    it is the one each shown GPU's record gives the figure."""
    _three_gpus(tree)
    chapter = tree.read("repo/chapters/ch90-fixture.md")
    tree.write("repo/chapters/ch90-fixture.md", chapter + "\nIt took {gpu-values}`gpu-run:ms|.2f` µs.\n")
    _, warnings, _ = tree.sphinx()
    assert ("ERROR: {gpu-values}`gpu-run:ms|.2f`: the text after it types 'µs', but the record "
            "gives the figure in 'ms'") in warnings, warnings
    # One GPU's record gives it in µs, the others in ms: 'ms' is wrong on that GPU.
    h100 = os.path.join(tree.build, "gpu-records/nvidia-h100-80gb-hbm3/ch90-fixture/gpu-run.json")
    with open(h100, encoding="utf-8") as f:
        record = json.load(f)
    record["results"]["ms"]["unit"] = "us"
    with open(h100, "w", encoding="utf-8") as f:
        json.dump(record, f)
    tree.write("repo/chapters/ch90-fixture.md", chapter + "\nIt took {gpu-values}`gpu-run:ms|.2f` ms.\n")
    _, warnings, _ = tree.sphinx()
    assert ("ERROR: {gpu-values}`gpu-run:ms|.2f`: the text after it types 'ms', but the record "
            "gives the figure in 'us'") in warnings, warnings


def test_a_unit_typed_once_for_several_gpu_figures_is_each_records(tree):
    """units-from-record: a unit typed after the last of several figures listed
    together ("{gpu-values}`a` and {gpu-values}`b` µs") is read as each one's, and
    each one's record must give it; so must a unit typed before the first."""
    _three_gpus(tree)
    chapter = tree.read("repo/chapters/ch90-fixture.md")
    tree.write("repo/chapters/ch90-fixture.md", chapter
               + "\nThey took {gpu-values}`gpu-run:ms|.2f` and {gpu-values}`gpu-run:ms|.1f` µs.\n")
    _, warnings, _ = tree.sphinx()
    assert ("ERROR: {gpu-values}`gpu-run:ms|.2f`: the text after {gpu-values}`gpu-run:ms|.1f`, which "
            "it is listed with, types 'µs', but the record gives the figure in 'ms'") in warnings, warnings
    tree.write("repo/chapters/ch90-fixture.md", chapter
               + "\nIn µs, {gpu-values}`gpu-run:ms|.2f` and {gpu-values}`gpu-run:ms|.1f`.\n")
    _, warnings, _ = tree.sphinx()
    assert ("ERROR: {gpu-values}`gpu-run:ms|.1f`: the text before {gpu-values}`gpu-run:ms|.2f`, which "
            "it is listed with, types 'µs', but the record gives the figure in 'ms'") in warnings, warnings
    tree.write("repo/chapters/ch90-fixture.md", chapter
               + "\nThey took {gpu-values}`gpu-run:ms|.2f` and {gpu-values}`gpu-run:ms|.1f` ms.\n")
    _, warnings, _ = tree.sphinx()
    assert warnings == ""


def test_a_claim_is_checked_on_every_gpu_with_fresh_records(tree):
    _three_gpus(tree)
    chapter = tree.read("repo/chapters/ch90-fixture.md")
    # Holds on the H200 (1.25) and the H100 (2.5); the A100's stale 9.0 is not counted.
    tree.write("repo/chapters/ch90-fixture.md", chapter + "\nIt is quick {check}`gpu-run:ms < 3`.\n")
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    # Holds on the H200, not on the H100: an error naming the GPU.
    tree.write("repo/chapters/ch90-fixture.md", chapter + "\nIt is quick {check}`gpu-run:ms < 2`.\n")
    _, warnings, _ = tree.sphinx()
    assert ("ERROR: on the H100 (NVIDIA H100 80GB HBM3): check 'gpu-run:ms < 2' does not hold "
            "in the medians ('results') of 'ch90-fixture/gpu-run': gpu-run:ms = 2.5") in warnings


def test_a_claim_on_a_scoped_expectation_names_its_gpus(tree):
    """An expectation that holds on the H200 only: evaluated there, not applicable on
    the H100, and the sentence that cites it must name the H200."""
    checks = tree.write("repo/code/ch90-fixture/gpu-run.checks.json", json.dumps(
        {"checks": [{"id": "fast", "value": "ms", "max": 2, "gpus": [H200]}]}))
    _three_gpus(tree, checks=checks)
    entry = {"id": "fast", "what": "", "detail": "ms = 1.25, expected <= 2", "value": 1.25, "ok": True}
    tree.edit_json("build/records/ch90-fixture/gpu-run.json", lambda d: d.update(checks=[entry]))
    na = dict(entry, ok=False, value=2.5, not_applicable=f"not applicable on the {H100}: the "
              f"check holds on the {H200} only")
    h100 = os.path.join(tree.build, "gpu-records/nvidia-h100-80gb-hbm3/ch90-fixture/gpu-run.json")
    with open(h100, encoding="utf-8") as f:
        record = json.load(f)
    record["checks"] = [na]
    with open(h100, "w", encoding="utf-8") as f:
        json.dump(record, f)
    _chapter(tree, "# 90. Fixture\n\nThe GPU run took no longer than its expectation allows\n"
             "{check}`gpu-run:check:fast`.\n")
    _, warnings, _ = tree.sphinx()
    assert ("ch90-fixture.md:4: ERROR: check 'gpu-run:check:fast' names an expectation that holds "
            "on the H200 only, but its sentence does not say so: name the H200 in it") in warnings
    _chapter(tree, "# 90. Fixture\n\nOn the H200 the GPU run took no longer than its "
             "expectation allows\n{check}`gpu-run:check:fast`.\n")
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    # ... the mark right after the sentence's full stop belongs to that sentence.
    _chapter(tree, "# 90. Fixture\n\nOn the H200 the GPU run was quick.\n"
             "{check}`gpu-run:check:fast` The next sentence names no GPU.\n")
    _, warnings, _ = tree.sphinx()
    assert warnings == ""


def test_the_pdf_shows_the_lead_gpus_outputs(tree):
    _three_gpus(tree)
    tree.sphinx(builder="latex", strict=False)
    tex = "".join(open(os.path.join(tree.path("out/latex"), f), encoding="utf-8").read()
                  for f in os.listdir(tree.path("out/latex")) if f.endswith(".tex"))
    assert "on the GPU" in tex
    assert "on the H100" not in tex and "on the A100" not in tex


def test_how_it_was_built_gives_every_quoted_figure_on_every_gpu(tree):
    _three_gpus(tree)
    tree.write("repo/chapters/index.md", tree.read("repo/chapters/index.md")
               + "\n```{build-info}\n```\n")
    tree.write("repo/chapters/ch90-fixture.md", tree.read("repo/chapters/ch90-fixture.md")
               + "\nIt took {value}`gpu-run:ms` ms.\n")
    tree.sphinx(strict=False)
    page = visible(tree.html("index"))
    at = page.index("Quoted figures on each GPU")
    table = page[at:]
    for column in ("H200 (lead)", "H100", "A100"):
        assert column in table
    assert ("ch90-fixture/gpu-run:ms" in table and "1.25" in table and "2.5" in table
            and "9; not yet run in this version (recorded at commit abc1234)" in table)
