// Declared here, not by including gatekit-doctor.hpp: that header pulls the standard library (~70,000
// lines) into a file that only starts the tool (docs/contributing.md, "Build weight").
int gatekit_doctor_main(int argc, const char* const* argv);  // cli.cpp
int main(int argc, char** argv) { return gatekit_doctor_main(argc, argv); }
