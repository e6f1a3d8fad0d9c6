#pragma once
// Runs GPU workload smokes from a YAML manifest, by tier and GPU count.
int smoke_runner_main(int argc, const char* const* argv);
