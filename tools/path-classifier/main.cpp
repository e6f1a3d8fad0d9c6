// Declared here, not by including path-classifier.hpp: that header pulls the standard library (~70,000
// lines) into a file that only starts the tool (docs/contributing.md, "Build weight").
int path_classifier_main(int argc, const char* const* argv);  // cli.cpp
int main(int argc, char** argv) { return path_classifier_main(argc, argv); }
