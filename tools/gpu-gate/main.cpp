// Declared here, not by including gpu-gate.hpp: that header pulls the standard library (~70,000
// lines) into a file that only starts the tool (docs/contributing.md, "Build weight").
int gpu_gate_main(int argc, const char* const* argv);  // cli.cpp
int main(int argc, char** argv) { return gpu_gate_main(argc, argv); }
