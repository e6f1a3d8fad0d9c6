#pragma once
// Collapses a job matrix into one stable required check.
int matrix_aggregator_main(int argc, const char* const* argv);
