// Compiled into every target of a GATEKIT_STATIC_RUNTIME build (cmake/GatekitSettings.cmake).
//
// The release archives promise tools that start on glibc 2.34 (scripts/check-glibc.sh).
// libstdc++.a of GCC 12 as Debian 12 builds it implements std::random_device with glibc
// 2.36's arc4random; linked in statically, that one call would raise every tool's need to
// glibc 2.36. The link option -Wl,--wrap=arc4random sends the call here instead: the same
// contract (random bits from the kernel's generator, never a failure) on getrandom, which
// glibc has had since 2.25.
#include <sys/random.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>

extern "C" std::uint32_t __wrap_arc4random() {
  std::uint32_t value = 0;
  for (;;) {
    const ssize_t got = getrandom(&value, sizeof value, 0);
    if (got == static_cast<ssize_t>(sizeof value)) {
      return value;
    }
    if (got < 0 && errno != EINTR) {
      std::abort();  // as glibc's arc4random does: no weaker fallback
    }
  }
}
