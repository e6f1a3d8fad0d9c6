// Boost.JSON's one-file build (cmake/GatekitDepsFromSource.cmake): the library compiled with
// this build's compiler and standard library instead of the distribution's libboost_json.
#include <boost/json/src.hpp>
