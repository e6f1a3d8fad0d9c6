#pragma once
// Tests a tree on a GPU machine and records the result as a git ref.
int gpu_gate_main(int argc, const char* const* argv);
