// SHA-256 against the FIPS 180-4 / NIST example vectors, whole and fed in pieces.
#include <string>

#include "catch.hpp"
#include "gatekit/sha256.hpp"

using namespace gatekit;

TEST_CASE("sha256: the NIST examples") {
  CHECK(hex_of(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex_of(sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex_of(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hex_of(sha256(std::string(1000000, 'a'))) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  CHECK(hex_of(sha256("abc"), 4) == "ba7816bf");
}

TEST_CASE("sha256: fed in pieces of any size, the same digest") {
  std::string text;
  for (int i = 0; i < 300; ++i) text += static_cast<char>(i * 7);
  const auto whole = sha256(text);
  for (std::size_t piece : {1, 3, 55, 56, 63, 64, 65, 200}) {
    Sha256 h;
    for (std::size_t at = 0; at < text.size(); at += piece) h.update(std::string_view(text).substr(at, piece));
    CHECK(h.finish() == whole);
  }
}
