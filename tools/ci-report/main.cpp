#include "ci-report.hpp"
int main(int argc, char** argv) { return ci_report_main(argc, argv); }
