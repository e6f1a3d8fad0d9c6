#pragma once
// Reruns failed tests alone, tells flaky from broken, keeps one issue per flaky test.
int flaky_tracker_main(int argc, const char* const* argv);
