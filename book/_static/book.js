// The book's own script (book/_ext/bookext/site.py adds it to every page).
//
// A listing's caption links to the page of its file with ?lines=a-b[,c-d]#L-a:
// mark those lines, so the reader sees which part of the file the listing showed.
(function () {
  "use strict";
  function markLines() {
    var spec = new URLSearchParams(window.location.search).get("lines");
    if (!spec) return;
    spec.split(",").forEach(function (part) {
      var ends = part.split("-").map(Number);
      var first = ends[0], last = ends.length > 1 ? ends[1] : ends[0];
      if (!(first > 0) || !(last >= first) || last - first > 100000) return;
      for (var n = first; n <= last; n++) {
        var line = document.getElementById("L-" + n);
        if (line) line.classList.add("book-marked-line");
      }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", markLines);
  } else {
    markLines();
  }
})();
