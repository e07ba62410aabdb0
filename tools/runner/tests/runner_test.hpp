// What the runner's unit tests share: the schema, a scratch folder, records
// that pass, and small helpers over lists of files.
#pragma once

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "runner.hpp"

namespace bookrun::test {

namespace fs = std::filesystem;

inline const Schema& schema() {
    static const Schema s = load_schema(default_schema_path());
    return s;
}

/// A folder of files for one test, removed afterwards.
struct TempTree {
    fs::path root;
    TempTree() {
        std::string pattern = (fs::temp_directory_path() / "bookrun-test-XXXXXX").string();
        root = ::mkdtemp(pattern.data());
    }
    ~TempTree() { fs::remove_all(root); }
    std::string write(const std::string& rel, const std::string& text) const {
        fs::path p = root / rel;
        fs::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }
};

inline std::vector<std::string> relative(const std::vector<std::string>& files,
                                         const fs::path& root) {
    std::vector<std::string> out;
    for (const auto& f : files)
        out.push_back(fs::path(f).lexically_relative(root).generic_string());
    return out;
}

inline bool contains(const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

inline json good_record() {
    json r = {{"schema", 3},
              {"name", "ch/x"},
              {"command", {"x"}},
              {"exit_status", 0},
              {"stdout", "ratio = 1.5\n"},
              {"stderr", ""},
              {"results", {{"ratio", {{"value", 1.5}, {"unit", ""}}}}},
              {"texts", {{"sass:k", "/*0000*/  EXIT\n"}}},
              {"inputs",
               {{"hash", "h"},
                {"files", json::object()},
                {"flags", ""},
                {"args", json::array()},
                {"env", json::object()},
                {"toolchain", json::object()}}},
              {"provenance", {{"cxx", "GNU 12"}, {"date", "d"}, {"commit", "c"}, {"host", "h"}}},
              {"wall_s", 0.5},
              {"source", "live"}};
    r["digest"] = record_digest(r, schema());
    return r;
}

inline json gpu_record() {
    json r = good_record();
    for (const char* k : {"gpu_name", "compute_capability", "sm_count", "driver_version",
                          "driver_cuda_version", "runtime_version", "nvcc"})
        r["provenance"][k] = "x";
    r["digest"] = record_digest(r, schema());
    return r;
}

}  // namespace bookrun::test
