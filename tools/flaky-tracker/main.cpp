#include "flaky-tracker.hpp"
int main(int argc, char** argv) { return flaky_tracker_main(argc, argv); }
