// sha256_hex against FIPS 180-4's examples and lengths around the padding boundaries
// (digests from Python's hashlib).
#include <string>

#include "catch.hpp"
#include "gatekit/sha256.hpp"

using gatekit::sha256_hex;

TEST_CASE("sha256: FIPS 180-4 examples and the padding boundaries") {
  struct Row {
    std::string data;
    const char* digest;
  };
  const Row rows[] = {
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {std::string(55, 'a'), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {std::string(56, 'a'), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {std::string(64, 'a'), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
      {std::string(1'000'000, 'a'), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
  };
  for (const auto& row : rows) {
    INFO(row.data.size() << " bytes");
    CHECK(sha256_hex(row.data) == row.digest);
  }
}

TEST_CASE("sha256: the processor's SHA instructions and the portable code agree, at every length around the blocks") {
  INFO("accelerated here: " << gatekit::detail::sha256_accelerated());
  std::string data;
  std::uint32_t x = 2463534242u;  // xorshift: bytes of every value, reproducibly
  for (std::size_t length = 0; length <= 300; ++length) {
    INFO(length << " bytes");
    CHECK(gatekit::sha256(data) == gatekit::detail::sha256_portable(data));
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    data += static_cast<char>(x & 0xFF);
  }
  const auto abc = gatekit::detail::sha256_portable("abc");
  CHECK(abc[0] == 0xba);
  CHECK(abc[31] == 0xad);
}
