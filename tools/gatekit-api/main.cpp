// Declared here, not by including gatekit-api.hpp: that header pulls the standard library (~70,000
// lines) into a file that only starts the tool (docs/contributing.md, "Build weight").
int gatekit_api_main(int argc, const char* const* argv);  // cli.cpp
int main(int argc, char** argv) { return gatekit_api_main(argc, argv); }
