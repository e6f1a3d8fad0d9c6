#include "gpu-gate.hpp"
int main(int argc, char** argv) { return gpu_gate_main(argc, argv); }
