/// @file reduce_options.hpp
/// @brief The text forms the reduce programs' command lines take: tunings
/// ("256x4x4"), size policies ("2e22:256x4x4,1024x2x4"), variants
/// ("tiles.ldg") and candidates ("tiles.ldg:256x32x4"), each the inverse of
/// its *_text function in reduce_plan.hpp; and the options with text values.
///
/// Plain C++ (no CUDA), so the tests run it on any machine.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reduce_plan.hpp"

namespace ch03 {

/// The inverse of tuning_text. @throws std::invalid_argument (quoting `text`)
/// if it is not three whole numbers joined by 'x', or they fail check_tuning.
tuning parse_tuning(std::string_view text);

/// Parse launch_policy::text(): rules joined by ',', each "2eK:TxBxU" but the
/// last, which is a bare "TxBxU". @throws std::invalid_argument quoting the
/// rule at fault and saying what is wrong.
launch_policy parse_policy(std::string_view text);

/// The inverse of variant_text; a bare layout name means its plain loads.
/// @throws std::invalid_argument listing the known variants.
variant parse_variant(std::string_view text);

/// Candidates joined by ','. @throws std::invalid_argument quoting the one at fault.
std::vector<candidate> parse_candidates(std::string_view text);

/// Take `--name VALUE` or `--name=VALUE` out of argv (the arguments after
/// argv[0]), so that the options parser (which takes only numbers) never sees
/// it; argc shrinks. Returns the last value given, or nothing if none.
/// @throws std::invalid_argument if the option is last with no value, or the
/// value is empty.
std::optional<std::string> take_text_option(int& argc, char** argv, std::string_view name);

}  // namespace ch03
