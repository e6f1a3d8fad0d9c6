#include "gatekit/sha256.hpp"

#include <array>
#include <cstdint>
#include <cstring>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define GATEKIT_SHA_X86 1
#include <cpuid.h>
#include <immintrin.h>
#elif defined(__aarch64__) && defined(__ARM_FEATURE_SHA2)
// Arm's SHA-256 instructions, where the compiler's target has them (every Apple arm64 target;
// on Linux aarch64 a build for a CPU with the crypto extension): no run-time check needed.
#define GATEKIT_SHA_ARM 1
#include <arm_neon.h>
#endif

namespace gatekit {

namespace {

constexpr std::array<std::uint32_t, 64> kRound = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void compress(std::array<std::uint32_t, 8>& h, const unsigned char* block) {
  std::array<std::uint32_t, 64> w;  // every entry written below before it is read
  for (std::size_t i = 0; i < 16; ++i)
    w[i] = static_cast<std::uint32_t>(block[4 * i]) << 24 | static_cast<std::uint32_t>(block[4 * i + 1]) << 16 |
           static_cast<std::uint32_t>(block[4 * i + 2]) << 8 | static_cast<std::uint32_t>(block[4 * i + 3]);
  for (std::size_t i = 16; i < 64; ++i) {
    const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  auto [a, b, c, d, e, f, g, k] = h;
  for (std::size_t i = 0; i < 64; ++i) {
    const std::uint32_t t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[i] + w[i];
    const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    k = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  const std::array<std::uint32_t, 8> add = {a, b, c, d, e, f, g, k};
  for (std::size_t i = 0; i < 8; ++i) h[i] += add[i];
}

#ifdef GATEKIT_SHA_X86
// The same compression with the SHA extensions (Intel's SHA-NI, AMD Zen and later): four rounds
// per pair of sha256rnds2, the message schedule by sha256msg1/msg2, the state kept as ABEF and
// CDGH as those instructions want it.
__attribute__((target("sha,ssse3,sse4.1"))) void compress_x86(std::array<std::uint32_t, 8>& h,
                                                               const unsigned char* block) {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&h[0])), 0xB1);  // CDAB
  __m128i state1 = _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&h[4])), 0x1B);  // EFGH
  __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);  // ABEF
  state1 = _mm_blend_epi16(state1, tmp, 0xF0);       // CDGH
  const __m128i abef = state0, cdgh = state1;
  __m128i w[4];
  for (int g = 0; g < 16; ++g) {
    if (g < 4) w[g] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * g)), byte_swap);
    __m128i msg = _mm_add_epi32(w[g % 4], _mm_loadu_si128(reinterpret_cast<const __m128i*>(&kRound[4 * g])));
    state1 = _mm_sha256rnds2_epu32(state1, state0, msg);
    if (g >= 3 && g <= 14) {
      const __m128i carried = _mm_alignr_epi8(w[g % 4], w[(g + 3) % 4], 4);
      w[(g + 1) % 4] = _mm_sha256msg2_epu32(_mm_add_epi32(w[(g + 1) % 4], carried), w[g % 4]);
    }
    msg = _mm_shuffle_epi32(msg, 0x0E);
    state0 = _mm_sha256rnds2_epu32(state0, state1, msg);
    if (g >= 1 && g <= 12) w[(g + 3) % 4] = _mm_sha256msg1_epu32(w[(g + 3) % 4], w[g % 4]);
  }
  state0 = _mm_add_epi32(state0, abef);
  state1 = _mm_add_epi32(state1, cdgh);
  tmp = _mm_shuffle_epi32(state0, 0x1B);       // FEBA
  state1 = _mm_shuffle_epi32(state1, 0xB1);    // DCHG
  state0 = _mm_blend_epi16(tmp, state1, 0xF0);  // DCBA
  state1 = _mm_alignr_epi8(state1, tmp, 8);    // HGFE
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&h[0]), state0);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&h[4]), state1);
}

bool has_sha_extensions() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0) return false;
  const bool ssse3 = (c & (1u << 9)) != 0, sse41 = (c & (1u << 19)) != 0;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d) == 0) return false;
  return ssse3 && sse41 && (b & (1u << 29)) != 0;
}
#endif

#ifdef GATEKIT_SHA_ARM
// The same compression with Arm's SHA-256 instructions: four rounds per sha256h/sha256h2 pair,
// the message schedule by sha256su0/su1, the state kept as ABCD and EFGH, as in `h`.
void compress_arm(std::array<std::uint32_t, 8>& h, const unsigned char* block) {
  uint32x4_t abcd = vld1q_u32(&h[0]);
  uint32x4_t efgh = vld1q_u32(&h[4]);
  const uint32x4_t abcd_before = abcd, efgh_before = efgh;
  // w[0] holds the schedule's next four words, w[1..3] the twelve after them (big-endian bytes).
  uint32x4_t w[4];
  for (int i = 0; i < 4; ++i) w[i] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(block + 16 * i)));
  for (int g = 0; g < 16; ++g) {
    const uint32x4_t wk = vaddq_u32(w[0], vld1q_u32(&kRound[4 * g]));
    const uint32x4_t abcd_now = abcd;
    abcd = vsha256hq_u32(abcd, efgh, wk);
    efgh = vsha256h2q_u32(efgh, abcd_now, wk);
    const uint32x4_t next = g < 12 ? vsha256su1q_u32(vsha256su0q_u32(w[0], w[1]), w[2], w[3]) : w[0];
    w[0] = w[1];
    w[1] = w[2];
    w[2] = w[3];
    w[3] = next;
  }
  vst1q_u32(&h[0], vaddq_u32(abcd, abcd_before));
  vst1q_u32(&h[4], vaddq_u32(efgh, efgh_before));
}
#endif

using Compress = void (*)(std::array<std::uint32_t, 8>&, const unsigned char*);

Compress fastest() {
#ifdef GATEKIT_SHA_X86
  if (has_sha_extensions()) return compress_x86;
#endif
#ifdef GATEKIT_SHA_ARM
  return compress_arm;
#else
  return compress;
#endif
}

Sha256Digest digest_with(Compress compress_block, std::string_view data) {
  std::array<std::uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const auto* bytes = reinterpret_cast<const unsigned char*>(data.data());
  std::size_t full = data.size() / 64 * 64;
  for (std::size_t i = 0; i < full; i += 64) compress_block(h, bytes + i);
  // The last partial block, the 0x80 bit, zeros, and the length in bits (big-endian).
  std::array<unsigned char, 128> tail{};
  const std::size_t rest = data.size() - full;
  if (rest > 0) std::memcpy(tail.data(), bytes + full, rest);
  tail[rest] = 0x80;
  const std::size_t blocks = rest + 9 <= 64 ? 1 : 2;
  const std::uint64_t bits = static_cast<std::uint64_t>(data.size()) * 8;
  for (std::size_t i = 0; i < 8; ++i) tail[blocks * 64 - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
  for (std::size_t b = 0; b < blocks; ++b) compress_block(h, tail.data() + 64 * b);
  Sha256Digest out{};
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < 4; ++j) out[4 * i + j] = static_cast<std::uint8_t>(h[i] >> (24 - 8 * j));
  return out;
}

}  // namespace

namespace detail {
Sha256Digest sha256_portable(std::string_view data) { return digest_with(compress, data); }
bool sha256_accelerated() { return fastest() != compress; }
}  // namespace detail

Sha256Digest sha256(std::string_view data) {
  static const Compress chosen = fastest();
  return digest_with(chosen, data);
}

std::string sha256_hex(std::string_view data) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (const std::uint8_t byte : sha256(data)) {
    out += kHex[byte >> 4];
    out += kHex[byte & 0xF];
  }
  return out;
}

}  // namespace gatekit
