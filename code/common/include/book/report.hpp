/// @file report.hpp
/// @brief Report named results from a book program to the runner.
///
/// Every program the book shows runs under the runner (`bookrun`). The runner
/// sets the environment variable `BOOK_RESULTS` to a file path; each call here
/// appends one JSON line to that file. The runner folds those lines into the
/// program's run record, so prose and tests read numbers, never scrape text.
/// Outside the runner (`BOOK_RESULTS` unset) every call is a no-op.
#pragma once

#include <string_view>

namespace book {

/// Report one named number with its unit (for example `"ms"`, `"TB/s"`,
/// `"ratio"`, `"count"`). Names are stable identifiers: `[a-z0-9_]+`.
/// @throws std::runtime_error if the results file cannot be written.
void report(std::string_view name, double value, std::string_view unit);

/// Report one named piece of text (for example a SASS excerpt or a GPU name).
void report_text(std::string_view name, std::string_view text);

/// Report one provenance field (for example `gpu_name`, `driver_version`).
/// The runner merges these into the record's provenance.
void report_provenance(std::string_view key, std::string_view value);

}  // namespace book
