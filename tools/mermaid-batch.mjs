// SPDX-License-Identifier: MIT
// Render several Mermaid diagrams in one browser session (tools/bookpy/build/render_diagram.py
// drives it; it is not meant to be called by hand).
//
//     node tools/mermaid-batch.mjs <jobs.json>
//
// jobs.json: {"puppeteer": <tools/puppeteer.json>, "mermaid": <tools/mermaid.json>,
//             "jobs": [{"input": <.mmd>, "output": <file>, "format": "svg"|"pdf"}, ...]}
//
// Each diagram is rendered by Mermaid CLI's own renderMermaid, with the options
// its command line gives (`mmdc -p puppeteer.json -c mermaid.json -b ... [--pdfFit]`),
// one page after another in one browser: Chromium starts once per batch, not
// once per diagram. Prints one JSON line per job on stdout, {"output": ...,
// "error": null | "<the error's text>"}; a diagram that fails leaves no output
// and the others are still rendered. Exit status 0 when the browser ran (even
// if some diagrams failed), 1 when it could not start or load Mermaid CLI.
import fs from "node:fs";

const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf-8"));
let renderMermaid, puppeteer;
try {
  ({ renderMermaid } = await import("@mermaid-js/mermaid-cli"));
  ({ default: puppeteer } = await import("puppeteer"));
} catch (e) {
  console.error(e instanceof Error ? e.stack : String(e));
  process.exit(1);
}
const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf-8"));
// As mmdc: headless "shell" unless the settings say otherwise, and the theme
// "default" under the settings file.
const launch = { headless: "shell", ...readJson(spec.puppeteer) };
const mermaidConfig = { theme: "default", ...readJson(spec.mermaid) };
// mmdc's defaults: an 800 x 600 page at scale 1.
const viewport = { width: 800, height: 600, deviceScaleFactor: 1 };

let browser;
try {
  browser = await puppeteer.launch(launch);
} catch (e) {
  console.error(e instanceof Error ? e.stack : String(e));
  process.exit(1);
}
try {
  for (const job of spec.jobs) {
    let error = null;
    try {
      const definition = fs.readFileSync(job.input, "utf-8");
      const pdf = job.format === "pdf";
      const { data } = await renderMermaid(browser, definition, job.format, {
        viewport,
        backgroundColor: pdf ? "white" : "transparent",
        mermaidConfig,
        pdfFit: pdf,
      });
      fs.writeFileSync(job.output, data);
    } catch (e) {
      error = e instanceof Error ? e.stack || e.message : String(e);
      try {
        fs.unlinkSync(job.output);
      } catch {
        // nothing was written
      }
    }
    process.stdout.write(JSON.stringify({ output: job.output, error }) + "\n");
  }
} finally {
  await browser.close();
}
