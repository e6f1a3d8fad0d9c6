# Every dependency comes from distribution packages (Debian 12; Ubuntu 24.04 also works).
# Version differences between those distributions are absorbed here (targets) and in
# tools/core/include/gatekit/compat.hpp (code), nowhere else.
set(Boost_NO_WARN_NEW_VERSIONS ON)
find_package(Boost 1.81 REQUIRED COMPONENTS json filesystem)
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

if(BUILD_TESTING)
  find_package(Catch2 REQUIRED)
  # Catch2 2.x is header-only with a main we compile ourselves; 3.x ships Catch2WithMain.
  if(Catch2_VERSION VERSION_GREATER_EQUAL 3)
    set(GATEKIT_CATCH_MAIN_TARGET Catch2::Catch2WithMain)
  else()
    set(GATEKIT_CATCH_MAIN_TARGET "")
  endif()
endif()
