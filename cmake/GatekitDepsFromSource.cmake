# The libraries from a prefix built by scripts/deps-from-source.sh (-DGATEKIT_DEPS_PREFIX=DIR):
# the macOS cross-builds (scripts/cross-macos.sh) and builds whose C++ standard library is not
# the distribution's. Defines the same targets GatekitDependencies.cmake gets from
# find_package, so nothing else in the build knows the difference.
set(gatekit_deps "${GATEKIT_DEPS_PREFIX}")
foreach(file IN ITEMS lib/libyaml-cpp.a lib/libexpat.a include/yaml-cpp/yaml.h include/expat.h
                      include/boost/json/src.hpp include/boost/version.hpp include/CLI/CLI.hpp
                      include/curl/curl.h)
  if(NOT EXISTS "${gatekit_deps}/${file}")
    message(FATAL_ERROR "GATEKIT_DEPS_PREFIX ${gatekit_deps}: no ${file} (build it with scripts/deps-from-source.sh)")
  endif()
endforeach()
file(STRINGS "${gatekit_deps}/include/boost/version.hpp" gatekit_boost_version REGEX "^#define BOOST_VERSION ")
string(REGEX REPLACE "^#define BOOST_VERSION ([0-9]+).*" "\\1" gatekit_boost_version "${gatekit_boost_version}")
if(gatekit_boost_version LESS 108100)
  message(FATAL_ERROR "GATEKIT_DEPS_PREFIX ${gatekit_deps}: Boost ${gatekit_boost_version} is older than 1.81")
endif()

# Header-only libraries and libcurl's declarations (it is dlopen'd).
add_library(Boost::headers INTERFACE IMPORTED)
set_target_properties(Boost::headers PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${gatekit_deps}/include")
add_library(CLI11::CLI11 INTERFACE IMPORTED)
set_target_properties(CLI11::CLI11 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${gatekit_deps}/include")
add_library(CURL::libcurl INTERFACE IMPORTED)
set_target_properties(CURL::libcurl PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${gatekit_deps}/include")

# Boost.JSON compiled here, with this build's compiler and standard library, from the
# library's own one-file build (boost/json/src.hpp).
add_library(gatekit_boost_json STATIC "${CMAKE_CURRENT_LIST_DIR}/boost_json_src.cpp")
target_link_libraries(gatekit_boost_json PUBLIC Boost::headers gatekit::standard)
target_compile_definitions(gatekit_boost_json PUBLIC BOOST_JSON_NO_LIB BOOST_CONTAINER_NO_LIB)
add_library(Boost::json ALIAS gatekit_boost_json)

add_library(gatekit_yaml_cpp INTERFACE)
add_library(gatekit::yaml-cpp ALIAS gatekit_yaml_cpp)
target_include_directories(gatekit_yaml_cpp SYSTEM INTERFACE "${gatekit_deps}/include")
target_compile_definitions(gatekit_yaml_cpp INTERFACE YAML_CPP_STATIC_DEFINE)
target_link_libraries(gatekit_yaml_cpp INTERFACE "${gatekit_deps}/lib/libyaml-cpp.a")

add_library(EXPAT::EXPAT STATIC IMPORTED)
set_target_properties(EXPAT::EXPAT PROPERTIES
  IMPORTED_LOCATION "${gatekit_deps}/lib/libexpat.a"
  INTERFACE_INCLUDE_DIRECTORIES "${gatekit_deps}/include"
  INTERFACE_COMPILE_DEFINITIONS XML_STATIC)

find_package(Threads REQUIRED)
