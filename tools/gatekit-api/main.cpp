#include "gatekit-api.hpp"
int main(int argc, char** argv) { return gatekit_api_main(argc, argv); }
