// Declared here, not by including suite-report.hpp: that header pulls the standard library (~70,000
// lines) into a file that only starts the tool (docs/contributing.md, "Build weight").
int suite_report_main(int argc, const char* const* argv);  // cli.cpp
int main(int argc, char** argv) { return suite_report_main(argc, argv); }
