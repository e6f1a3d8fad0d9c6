#pragma once
// Decides from a change's files which test suites must run; fails open.
int path_classifier_main(int argc, const char* const* argv);
