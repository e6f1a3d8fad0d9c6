#include "matrix-aggregator.hpp"
int main(int argc, char** argv) { return matrix_aggregator_main(argc, argv); }
