#include "path-classifier.hpp"
int main(int argc, char** argv) { return path_classifier_main(argc, argv); }
