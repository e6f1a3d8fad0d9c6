#include "suite-report.hpp"
int main(int argc, char** argv) { return suite_report_main(argc, argv); }
