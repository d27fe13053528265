// log_fixture: evaluates the C library's log over fixed, reproducible input sets and prints digests that
// org.jloadgen.random.GlibcLogTest recomputes with the Java port (GlibcLog), so the port is proven bit-exact
// against the real libm on millions of inputs without storing them.
//
//   log_fixture digests          one line per input class: variant class count seed fnv1a64
//   log_fixture values N         "x log(x)" (hex bits) for the first N inputs of the exponential class
//   log_fixture specials         "x log(x)" for edge inputs (zeros, subnormals, 1 and its neighbours, the
//                                near-one interval's ends, infinities, NaN, negatives)
//
// Input classes (generators the Java test reproduces exactly):
//   exponential  x = 1 - generate_canonical<double,53>(mt19937(seed)): the inputs of
//                std::exponential_distribution, i.e. of every Server interval LoadGen draws
//   near-one     bit patterns uniform in [asuint64(1 - 2^-4), asuint64(1 + 0x1.09p-4)): glibc's
//                polynomial branch
//   bits         uniform 64-bit patterns: every exponent, negatives, subnormals, infinities, NaNs
//   subnormal    bit patterns below 2^-1022: zero and subnormals
// The uniform classes draw from SplitMix64. The digest is 64-bit FNV-1a over the little-endian bytes of each
// result, with every NaN written as 0x7ff8000000000000 (payloads are not part of the contract).
// "variant" says which log glibc picked at run time: fma (CPUs with FMA and AVX2) or sse2.

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

namespace {

uint64_t Bits(double x) {
  uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

double FromBits(uint64_t u) {
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// Keeps the compiler from folding or vectorising the calls: every result comes from libm's log.
double Log(double x) {
  volatile double in = x;
  volatile double out = std::log(in);
  return out;
}

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

class Fnv1a {
 public:
  void Add(double result) {
    uint64_t u = std::isnan(result) ? 0x7ff8000000000000ULL : Bits(result);
    for (int i = 0; i < 8; i++, u >>= 8) {
      hash_ = (hash_ ^ (u & 0xff)) * 0x100000001b3ULL;
    }
  }
  uint64_t value() const { return hash_; }

 private:
  uint64_t hash_ = 0xcbf29ce484222325ULL;
};

const char* Variant() {
  const double y = Log(0x1.7a94cbd623d58p-1);
  if (y == -0x1.3523b017b91f8p-2) return "fma";
  if (y == -0x1.3523b017b91f7p-2) return "sse2";
  return "unknown";
}

constexpr uint64_t kExponentialSeed = 16159082839903944936ULL;  // official schedule_rng_seed
constexpr uint64_t kExponentialCount = 10000000;
constexpr uint64_t kNearOneLo = 0x3fee000000000000ULL;          // asuint64(1 - 2^-4)
constexpr uint64_t kNearOneHi = 0x3ff1090000000000ULL;          // asuint64(1 + 0x1.09p-4)

void Digest(const char* name, uint64_t count, uint64_t seed, Fnv1a hash) {
  std::printf("%s %s %" PRIu64 " %" PRIu64 " %016" PRIx64 "\n", Variant(), name, count, seed, hash.value());
}

void Digests() {
  {
    std::mt19937 g(kExponentialSeed);
    Fnv1a hash;
    for (uint64_t i = 0; i < kExponentialCount; i++) {
      hash.Add(Log(1.0 - std::generate_canonical<double, 53>(g)));
    }
    Digest("exponential", kExponentialCount, kExponentialSeed, hash);
  }
  {
    const uint64_t count = 2000000, seed = 1;
    SplitMix64 r(seed);
    Fnv1a hash;
    for (uint64_t i = 0; i < count; i++) {
      hash.Add(Log(FromBits(kNearOneLo + r.Next() % (kNearOneHi - kNearOneLo))));
    }
    Digest("near-one", count, seed, hash);
  }
  {
    const uint64_t count = 2000000, seed = 2;
    SplitMix64 r(seed);
    Fnv1a hash;
    for (uint64_t i = 0; i < count; i++) hash.Add(Log(FromBits(r.Next())));
    Digest("bits", count, seed, hash);
  }
  {
    const uint64_t count = 500000, seed = 3;
    SplitMix64 r(seed);
    Fnv1a hash;
    for (uint64_t i = 0; i < count; i++) hash.Add(Log(FromBits(r.Next() % 0x0010000000000000ULL)));
    Digest("subnormal", count, seed, hash);
  }
}

void Print(double x) {
  const double y = Log(x);
  std::printf("%016" PRIx64 " %016" PRIx64 "\n", Bits(x), std::isnan(y) ? uint64_t{0x7ff8000000000000ULL} : Bits(y));
}

void Values(uint64_t n) {
  std::mt19937 g(kExponentialSeed);
  for (uint64_t i = 0; i < n; i++) Print(1.0 - std::generate_canonical<double, 53>(g));
}

void Specials() {
  const uint64_t patterns[] = {
      0x0000000000000000ULL, 0x8000000000000000ULL, 0x0000000000000001ULL, 0x000fffffffffffffULL,
      0x0010000000000000ULL, 0x3ca0000000000000ULL, 0x3fefffffffffffffULL, 0x3ff0000000000000ULL,
      0x3ff0000000000001ULL, kNearOneLo - 1,         kNearOneLo,            kNearOneHi - 1,
      kNearOneHi,            0x3fe6000000000000ULL, 0x3fe5ffffffffffffULL, 0x4000000000000000ULL,
      0x7fefffffffffffffULL, 0x7ff0000000000000ULL, 0xfff0000000000000ULL, 0x7ff8000000000000ULL,
      0xbff0000000000000ULL, 0x8000000000000001ULL, 0x3fb0000000000000ULL, 0x3cb0000000000000ULL,
  };
  for (uint64_t p : patterns) Print(FromBits(p));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "digests") {
    Digests();
  } else if (mode == "values" && argc > 2) {
    Values(std::strtoull(argv[2], nullptr, 10));
  } else if (mode == "specials") {
    Specials();
  } else {
    std::fprintf(stderr, "usage: log_fixture digests | values N | specials\n");
    return 2;
  }
  return 0;
}
