# Every dependency comes from distribution packages (Debian 12; Ubuntu 24.04 also works).
# Version differences between those distributions are absorbed here (targets) and in
# tools/core/include/gatekit/compat.hpp (code), nowhere else.
# -DGATEKIT_DEPS_PREFIX=DIR takes them from a prefix built by scripts/deps-from-source.sh
# instead: the macOS cross-builds and other C++ standard libraries (GatekitDepsFromSource.cmake).
set(GATEKIT_DEPS_PREFIX "" CACHE PATH "Libraries built from source by scripts/deps-from-source.sh")
if(GATEKIT_DEPS_PREFIX)
  include(GatekitDepsFromSource)
else()
set(Boost_NO_WARN_NEW_VERSIONS ON)
if(GATEKIT_STATIC_RUNTIME)
  # Debian and Ubuntu ship the static Boost archives next to the shared ones; Boost's CMake
  # package picks them (and their dependencies, e.g. boost_container) with this switch.
  # Where they are missing, the shared libraries still do.
  set(Boost_USE_STATIC_LIBS ON)
  find_package(Boost 1.81 QUIET COMPONENTS json filesystem)
  if(NOT Boost_FOUND)
    message(STATUS "GATEKIT_STATIC_RUNTIME: no static Boost archives, linking Boost dynamically")
    set(Boost_USE_STATIC_LIBS OFF)
  endif()
endif()
find_package(Boost 1.81 REQUIRED COMPONENTS json filesystem)
# libcurl: headers only. github_transport.cpp loads libcurl.so.4 (macOS: the system's
# /usr/lib/libcurl.4.dylib; src/platform/names.cpp) with dlopen on first use,
# so no tool pays for its dependency tree (TLS, LDAP, Kerberos, ...) at start-up.
find_package(CURL REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)
find_package(EXPAT REQUIRED)
find_package(Threads REQUIRED)

# yaml-cpp 0.7 exports `yaml-cpp`; 0.8 exports `yaml-cpp::yaml-cpp`.
if(NOT TARGET yaml-cpp::yaml-cpp)
  add_library(yaml-cpp::yaml-cpp INTERFACE IMPORTED)
  set_target_properties(yaml-cpp::yaml-cpp PROPERTIES INTERFACE_LINK_LIBRARIES yaml-cpp)
endif()
# gatekit::yaml-cpp is what gatekit links: the package's target, or with
# GATEKIT_STATIC_RUNTIME the static archive (libyaml-cpp-dev ships libyaml-cpp.a; neither
# 0.7's nor 0.8's CMake package exports it), with the package's include directories.
add_library(gatekit_yaml_cpp INTERFACE)
add_library(gatekit::yaml-cpp ALIAS gatekit_yaml_cpp)
set(gatekit_yaml_cpp_linked FALSE)
if(GATEKIT_STATIC_RUNTIME)
  find_library(GATEKIT_YAML_CPP_ARCHIVE NAMES libyaml-cpp.a)
  if(GATEKIT_YAML_CPP_ARCHIVE)
    if(TARGET yaml-cpp)
      get_target_property(gatekit_yaml_cpp_includes yaml-cpp INTERFACE_INCLUDE_DIRECTORIES)
    else()
      get_target_property(gatekit_yaml_cpp_includes yaml-cpp::yaml-cpp INTERFACE_INCLUDE_DIRECTORIES)
    endif()
    if(gatekit_yaml_cpp_includes)
      target_include_directories(gatekit_yaml_cpp SYSTEM INTERFACE ${gatekit_yaml_cpp_includes})
    endif()
    # 0.8 marks its API for DLL export unless told it is linked statically.
    target_compile_definitions(gatekit_yaml_cpp INTERFACE YAML_CPP_STATIC_DEFINE)
    target_link_libraries(gatekit_yaml_cpp INTERFACE "${GATEKIT_YAML_CPP_ARCHIVE}")
    set(gatekit_yaml_cpp_linked TRUE)
  else()
    message(STATUS "GATEKIT_STATIC_RUNTIME: no libyaml-cpp.a, linking yaml-cpp dynamically")
  endif()
endif()
if(NOT gatekit_yaml_cpp_linked)
  target_link_libraries(gatekit_yaml_cpp INTERFACE yaml-cpp::yaml-cpp)
endif()
endif()  # GATEKIT_DEPS_PREFIX

if(BUILD_TESTING)
  find_package(Catch2 REQUIRED)
  # Catch2 2.x is header-only with a main we compile ourselves; 3.x ships Catch2WithMain.
  if(Catch2_VERSION VERSION_GREATER_EQUAL 3)
    set(GATEKIT_CATCH_MAIN_TARGET Catch2::Catch2WithMain)
  else()
    set(GATEKIT_CATCH_MAIN_TARGET "")
  endif()
endif()
