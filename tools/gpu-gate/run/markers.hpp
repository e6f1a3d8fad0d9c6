#pragma once
// Which tests a pass leaves out: the selection file's nightly rule (gatekit/selection.hpp) in
// context `gate` for `run`, `gate-full` for `run --full`, and how that -m expression reaches
// the configured test command. Pure.
#include <cstddef>
#include <string>
#include <vector>

#include "config.hpp"
#include "gatekit/result.hpp"
#include "gatekit/selection.hpp"

namespace gatekit::gpu_gate {

struct PassMarkers {
  std::string expression;   // never empty: every test is `<m> or not <m>` (it overrides addopts' -m)
  bool leaves_out = false;  // the expression leaves the nightly tests out
  std::string why;          // for the log: where the expression comes from
};

// From the selection file when there is one (`selection` null: none at the default path):
// its universe in the context, with its nightly marker. Without one: `not <nightly_marker>`
// for the gate, every test for the full run. A bad_input Error when the configuration's own
// nightly_marker differs from the file's (two inputs for one rule: the file decides).
Result<PassMarkers> pass_markers(const Config& config, const selection::Selection* selection, bool full);

// The command with the expression: each {markers} replaced by it; a pytest command without
// {markers} gets `-m EXPR` appended (two arguments; pytest reads the last -m); any other
// command is returned as it is (`reached` false: it cannot be given the expression).
std::vector<std::string> apply_markers(const std::vector<std::string>& command, const std::string& expression,
                                       bool* reached = nullptr);

// The index of pytest's own -m option (`-m`, `-mEXPR`) in a pytest command, after the pytest
// program; npos when there is none (`python -m pytest`'s -m is Python's).
std::size_t pytest_marker_option(const std::vector<std::string>& argv);

}  // namespace gatekit::gpu_gate
