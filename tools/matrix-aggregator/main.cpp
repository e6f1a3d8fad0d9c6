// Declared here, not by including matrix-aggregator.hpp: that header pulls the standard library (~70,000
// lines) into a file that only starts the tool (docs/contributing.md, "Build weight").
int matrix_aggregator_main(int argc, const char* const* argv);  // cli.cpp
int main(int argc, char** argv) { return matrix_aggregator_main(argc, argv); }
