// Declared here, not by including smoke-runner.hpp: that header pulls the standard library (~70,000
// lines) into a file that only starts the tool (docs/contributing.md, "Build weight").
int smoke_runner_main(int argc, const char* const* argv);  // cli.cpp
int main(int argc, char** argv) { return smoke_runner_main(argc, argv); }
