#pragma once
// Collapses a gated job matrix into one stable required check (see docs/actions/matrix-aggregator.md).
int matrix_aggregator_main(int argc, const char* const* argv);
