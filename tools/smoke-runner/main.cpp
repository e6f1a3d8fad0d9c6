#include "smoke-runner.hpp"
int main(int argc, char** argv) { return smoke_runner_main(argc, argv); }
