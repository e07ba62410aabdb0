# SPDX-License-Identifier: MIT
""""Run it yourself" under every output block: this module alone renders it.

records.run_block adds a ``run_yourself`` node (``run_yourself_node``) to every
output block; once the configuration is known, RunYourselfBlocks replaces it
with what the reader needs to reproduce the block: the repository and commit,
the build target, the binary's path after ``tools/book build``, the exact
command (its words quoted for a POSIX shell), and on a GPU block the GPU it
needs. The repository is ``book_repository_url`` (BOOK_REPOSITORY_URL) or, where
the build names none, said to be unnamed: an address is never made up. In the
PDF it is one line with the command.
"""
from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .booknodes import fold
from .common import BookError, literal

if TYPE_CHECKING:
    from typing import Any

    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.docutils import SphinxTranslator


class run_yourself(nodes.General, nodes.Element):
    """Where a run's output came from, for a reader who wants to reproduce it:
    attributes ``run`` (<key>/<run>), ``argv`` (the command as the runner ran
    it), ``program`` (the index in ``argv`` of the book's program: after the
    words of a tool that wraps it, such as compute-sanitizer), ``env``
    ({name: value} set for the run), ``text`` (the record's text the block shows,
    '' for the program's output), ``gpu`` (the GPU it ran on, '' for a CPU run),
    ``cc`` (its compute capability) and ``commit``. Replaced by the transform
    RunYourselfBlocks once the configuration is known."""


#: Where `tools/book build` builds (the `book` preset's folder, CMakePresets.json):
#: the "Run it yourself" of every block names its programs there, whatever folder
#: this copy of the book was built in (an instructor's build/instructor, a
#: fixture's), because that is the command it tells the reader to run.
TOOLS_BOOK_BUILD = "build/book"


def program_index(record: dict) -> int:
    """Where the book's program is in a record's command: the word before its
    own arguments (the record's ``inputs.args``), so that a run under a tool
    (``compute-sanitizer --tool memcheck stencil --check``) names the program,
    not the tool. A command that does not end with those arguments is an error:
    the block would tell the reader to run something else."""
    argv = [str(a) for a in record.get("command", [])]
    inputs = record.get("inputs", {}) if isinstance(record.get("inputs"), dict) else {}
    args = [str(a) for a in inputs.get("args", [])] if isinstance(inputs.get("args"), list) else []
    i = len(argv) - len(args) - 1
    if i < 0 or argv[i + 1:] != args:
        raise BookError(f"run record '{record.get('name', '?')}': its command {argv} does not end "
                        f"with the program's arguments {args} (inputs.args): which word is the "
                        "program is not known")
    return i


def run_yourself_node(record: dict, text: str = "", picked: bool = False) -> run_yourself:
    """The "Run it yourself" of a run record (records.run_block adds it to every
    output block); ``text``: the record's text the block shows (``sass:<kernel>``,
    ``sanitizer:<tool>``), '' for the program's output; ``picked``: the block
    shows only some of its lines."""
    p = record.get("provenance", {})
    inputs = record.get("inputs", {}) if isinstance(record.get("inputs"), dict) else {}
    env = inputs.get("env", {}) if isinstance(inputs.get("env"), dict) else {}
    return run_yourself("", run=str(record.get("name", "")), argv=[str(a) for a in record.get("command", [])],
                        program=program_index(record), text=text, picked=picked,
                        env={str(k): str(v) for k, v in sorted(env.items())},
                        gpu=str(p.get("gpu_name", "")), cc=str(p.get("compute_capability", "")),
                        commit=str(p.get("commit", "")))


def run_yourself_parts(config: Config, node: run_yourself) -> dict:
    """What the block says, from the node and the configuration: the repository
    (book_repository_url, or none configured), the commit, the build target, the
    binary's path after `tools/book build` and the exact command that prints
    what the block shows, from the repository's root: the run's command with the
    binary's path in place of the program's name (any tool wrapping it, such as
    compute-sanitizer, kept), or for a kernel's SASS, cuobjdump on the binary;
    ``shows``: what of that command's output the block shows, where it is not
    all of it."""
    key = node["run"].split("/")[0] if "/" in node["run"] else ""
    argv, i = node["argv"], node["program"]
    program = argv[i] if argv else ""
    binary = f"{TOOLS_BOOK_BUILD}/bin/{key}/{program}"
    text = node.get("text", "")
    shows = ""
    if text.startswith("sass:"):
        words = ["cuobjdump", "-sass", binary]
        shows = (f"the SASS of the kernel {text[5:]} from what it prints, one instruction a line "
                 "after its address, the encodings left out")
    else:
        words = [f"{k}={shlex.quote(v)}" for k, v in node["env"].items()]
        words += [shlex.quote(a) for a in argv[:i]] + [binary] + [shlex.quote(a) for a in argv[i + 1:]]
        if text.startswith("sanitizer:"):
            shows = f"the report of compute-sanitizer's {text[10:]} tool from what it prints"
        elif text:
            shows = f"the text '{text}' the program reports (book::report)"
    if node.get("picked"):
        shows = (shows or "what it prints") + ": the lines the chapter picks, the others elided"
    return {"repository": (config.book_repository_url or "").rstrip("/"), "commit": node["commit"],
            "target": f"{key}.{program}", "binary": binary, "command": " ".join(words),
            "shows": shows, "sass": text.startswith("sass:"), "chapter": key, "gpu": node["gpu"], "cc": node["cc"]}


class RunYourselfBlocks(SphinxPostTransform):
    """HTML: a fold "Run it yourself" under the output; elsewhere (the PDF) one
    line with the command."""
    default_priority = 100

    def run(self, **kwargs: Any) -> None:
        config = self.app.config
        for node in list(self.document.findall(run_yourself)):
            p = run_yourself_parts(config, node)
            if self.app.builder.format != "html":
                para = nodes.paragraph(classes=["book-run-yourself"])
                para += nodes.Text("Run it yourself: ")
                para += nodes.literal(p["command"], p["command"])
                gpu = "; needs an NVIDIA GPU" if p["gpu"] and not p["sass"] else ""
                para += nodes.Text(f" (after tools/book build{gpu}"
                                   f"{'; the block shows ' + p['shows'] if p['shows'] else ''}).")
                node.replace_self(para)
                continue
            box = fold(summary="Run it yourself", classes=["book-run-yourself"])
            items = nodes.bullet_list()

            def item(*children: nodes.Node) -> None:
                li = nodes.list_item()
                para = nodes.paragraph()
                para.extend(children)
                li += para
                items.append(li)

            from .downloads import source_archive_link
            source = source_archive_link(self.app, self.env.docname)
            if p["repository"]:
                code = nodes.reference(p["repository"], p["repository"], refuri=p["repository"])
                item(nodes.Text("The code: "), code,
                     nodes.Text(f", at commit {p['commit']}" if p["commit"] else ""), nodes.Text("."))
            elif source is not None:
                # (That the book has no public address is said once, on the front page.)
                item(nodes.Text("The code: "), source[0], nodes.Text(f", the source of commit {source[1]}."))
            else:
                item(nodes.Text("The code: this book's source tree"
                                + (f" at commit {p['commit']}" if p["commit"] else "") + "."))
            item(nodes.Text("Build: "), nodes.literal("tools/book build", "tools/book build"),
                 nodes.Text(" from the repository's root (the build target is "),
                 nodes.literal(p["target"], p["target"]), nodes.Text("); the program is then "),
                 nodes.literal(p["binary"], p["binary"]), nodes.Text("."))
            if p["sass"]:
                built = (f". This block's was compiled for compute capability {p['cc']} (the {p['gpu']} it "
                         "ran on)" if p["cc"] and p["gpu"] else "")
                item(nodes.Text("Needs nvcc (cuobjdump is beside it) but no GPU: the SASS is read from the "
                                f"binary{built}; the build compiles for the architectures "),
                     nodes.literal("BOOK_CUDA_ARCHITECTURES", "BOOK_CUDA_ARCHITECTURES"), nodes.Text(" names."))
            elif p["gpu"]:
                cc = f", compute capability {p['cc']}" if p["cc"] else ""
                item(nodes.Text(f"Needs an NVIDIA GPU and nvcc; this output came from an {p['gpu']}"
                                f"{cc}. Numbers that are times differ from GPU to GPU."))
            else:
                item(nodes.Text("Runs on the CPU: no GPU needed."))
            box += items
            box += nodes.paragraph(text="The command that printed this block:" if not p["shows"] else
                                   f"The command (the block shows {p['shows']}):")
            box += literal("$ " + p["command"], "text", ["book-run-command"])
            node.replace_self(box)


def _replaced(self: SphinxTranslator, node: nodes.Node) -> None:
    """A run_yourself node left to a builder: the transform replaces every one."""


def setup(app: Sphinx) -> None:
    plain = (_replaced, _replaced)
    app.add_node(run_yourself, html=plain, latex=plain, text=plain, man=plain, texinfo=plain)
    app.add_post_transform(RunYourselfBlocks)
