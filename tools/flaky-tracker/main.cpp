// Declared here, not by including flaky-tracker.hpp: that header pulls the standard library (~70,000
// lines) into a file that only starts the tool (docs/contributing.md, "Build weight").
int flaky_tracker_main(int argc, const char* const* argv);  // cli.cpp
int main(int argc, char** argv) { return flaky_tracker_main(argc, argv); }
