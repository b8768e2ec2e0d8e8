#pragma once
/// Four doubles computed side by side: a scalar type for Eigen fixed-size matrices, so that a kernel written
/// for it evaluates four elements (four lanes) in the instructions of one (AVX2 with the x86-64-v3 build, two
/// SSE2 halves without). Every operation acts lane by lane, so a lane's result does not depend on the other
/// lanes nor on which lane an element takes. Comparisons are true when they hold in every lane (Eigen tests
/// scalars only for special values such as a zero factor).

#include <cmath>
#include <cstring>
#ifdef __AVX__
#include <immintrin.h>
#endif

#include <Eigen/Core>

namespace tendril {

struct alignas(32) LanePack {
  static constexpr int kLanes = 4;
  using Lanes = double __attribute__((vector_size(32)));  // GCC vector extension
  Lanes v;
  LanePack() = default;
  LanePack(double x) : v{x, x, x, x} {}  // NOLINT(google-explicit-constructor): literals in kernels
  explicit LanePack(Lanes x) : v(x) {}
  /// The pack of values[0..3] (lane k holds values[k]).
  static LanePack load(const double* values) {
    LanePack p;
    std::memcpy(&p.v, values, sizeof(Lanes));
    return p;
  }
  void store(double* values) const { std::memcpy(values, &v, sizeof(Lanes)); }
};

inline LanePack operator+(LanePack a, LanePack b) { return LanePack(a.v + b.v); }
inline LanePack operator-(LanePack a, LanePack b) { return LanePack(a.v - b.v); }
inline LanePack operator*(LanePack a, LanePack b) { return LanePack(a.v * b.v); }
inline LanePack operator/(LanePack a, LanePack b) { return LanePack(a.v / b.v); }
inline LanePack operator-(LanePack a) { return LanePack(-a.v); }
inline LanePack& operator+=(LanePack& a, LanePack b) { return a = a + b; }
inline LanePack& operator-=(LanePack& a, LanePack b) { return a = a - b; }
inline LanePack& operator*=(LanePack& a, LanePack b) { return a = a * b; }
inline LanePack& operator/=(LanePack& a, LanePack b) { return a = a / b; }
inline bool operator==(LanePack a, LanePack b) {
  for (int k = 0; k < LanePack::kLanes; ++k)
    if (!(a.v[k] == b.v[k])) return false;
  return true;
}
inline bool operator!=(LanePack a, LanePack b) { return !(a == b); }
inline LanePack sqrt(LanePack a) {
#ifdef __AVX__
  return LanePack(LanePack::Lanes(_mm256_sqrt_pd(__m256d(a.v))));
#else
  LanePack r;
  for (int k = 0; k < LanePack::kLanes; ++k) r.v[k] = std::sqrt(a.v[k]);
  return r;
#endif
}

}  // namespace tendril

namespace Eigen {

template <>
struct NumTraits<tendril::LanePack> : GenericNumTraits<double> {
  using Real = tendril::LanePack;
  using NonInteger = tendril::LanePack;
  using Nested = tendril::LanePack;
  using Literal = tendril::LanePack;
  enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 0, ReadCost = 1, AddCost = 1, MulCost = 1 };
};
/// double literals times matrices of packs
template <>
struct ScalarBinaryOpTraits<double, tendril::LanePack> {
  using ReturnType = tendril::LanePack;
};
template <>
struct ScalarBinaryOpTraits<tendril::LanePack, double> {
  using ReturnType = tendril::LanePack;
};

}  // namespace Eigen
