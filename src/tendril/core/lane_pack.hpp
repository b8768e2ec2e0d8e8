#pragma once
/// Four doubles computed side by side: a scalar type for Eigen fixed-size matrices, so that a
/// kernel written for it evaluates four elements (four lanes) in the instructions of one (AVX2 with
/// the x86-64-v3 build, two SSE2 halves without). Every operation acts lane by lane, so a lane's
/// result does not depend on the other lanes nor on which lane an element takes. Comparisons are
/// true when they hold in every lane (Eigen tests scalars only for special values such as a zero
/// factor).

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

inline LanePack operator+(LanePack a, LanePack b) {
  return LanePack(a.v + b.v);
}
inline LanePack operator-(LanePack a, LanePack b) {
  return LanePack(a.v - b.v);
}
inline LanePack operator*(LanePack a, LanePack b) {
  return LanePack(a.v * b.v);
}
inline LanePack operator/(LanePack a, LanePack b) {
  return LanePack(a.v / b.v);
}
inline LanePack operator-(LanePack a) {
  return LanePack(-a.v);
}
inline LanePack& operator+=(LanePack& a, LanePack b) {
  return a = a + b;
}
inline LanePack& operator-=(LanePack& a, LanePack b) {
  return a = a - b;
}
inline LanePack& operator*=(LanePack& a, LanePack b) {
  return a = a * b;
}
inline LanePack& operator/=(LanePack& a, LanePack b) {
  return a = a / b;
}
inline bool operator==(LanePack a, LanePack b) {
  for (int k = 0; k < LanePack::kLanes; ++k)
    if (!(a.v[k] == b.v[k])) return false;
  return true;
}
inline bool operator!=(LanePack a, LanePack b) {
  return !(a == b);
}
inline LanePack sqrt(LanePack a) {
#ifdef __AVX__
  return LanePack(LanePack::Lanes(_mm256_sqrt_pd(__m256d(a.v))));
#else
  LanePack r;
  for (int k = 0; k < LanePack::kLanes; ++k) r.v[k] = std::sqrt(a.v[k]);
  return r;
#endif
}

/// 4 x 4 transpose between lanes and elements: out[l] = (in[0] lane l, in[1] lane l, in[2] lane l,
/// in[3] lane l).
inline void transpose_lanes(const LanePack* in, LanePack* out) {
#ifdef __clang__  // clang's spelling of GCC's __builtin_shuffle (the fuzz preset builds with clang)
#define TENDRIL_SHUFFLE(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#else
  using Mask = long long __attribute__((vector_size(32)));
#define TENDRIL_SHUFFLE(a, b, i, j, k, l) __builtin_shuffle(a, b, Mask{i, j, k, l})
#endif
  const LanePack::Lanes t0 = TENDRIL_SHUFFLE(in[0].v, in[1].v, 0, 4, 2, 6);
  const LanePack::Lanes t1 = TENDRIL_SHUFFLE(in[0].v, in[1].v, 1, 5, 3, 7);
  const LanePack::Lanes t2 = TENDRIL_SHUFFLE(in[2].v, in[3].v, 0, 4, 2, 6);
  const LanePack::Lanes t3 = TENDRIL_SHUFFLE(in[2].v, in[3].v, 1, 5, 3, 7);
  out[0].v = TENDRIL_SHUFFLE(t0, t2, 0, 1, 4, 5);
  out[1].v = TENDRIL_SHUFFLE(t1, t3, 0, 1, 4, 5);
  out[2].v = TENDRIL_SHUFFLE(t0, t2, 2, 3, 6, 7);
  out[3].v = TENDRIL_SHUFFLE(t1, t3, 2, 3, 6, 7);
#undef TENDRIL_SHUFFLE
}

/// Lane-major to element-major for `n` packs: element e of lane l to out[l][e] (n doubles per
/// lane).
inline void unpack_lanes(const LanePack* packs, int n, double* const* out) {
  int e = 0;
  for (; e + LanePack::kLanes <= n; e += LanePack::kLanes) {
    LanePack t[LanePack::kLanes];
    transpose_lanes(packs + e, t);
    for (int l = 0; l < LanePack::kLanes; ++l) t[l].store(out[l] + e);
  }
  for (; e < n; ++e) {
    double lanes[LanePack::kLanes];
    packs[e].store(lanes);
    for (int l = 0; l < LanePack::kLanes; ++l) out[l][e] = lanes[l];
  }
}

}  // namespace tendril

namespace Eigen {

template <>
struct NumTraits<tendril::LanePack> : GenericNumTraits<double> {
  using Real = tendril::LanePack;
  using NonInteger = tendril::LanePack;
  using Nested = tendril::LanePack;
  using Literal = tendril::LanePack;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 0,
    ReadCost = 1,
    AddCost = 1,
    MulCost = 1
  };
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
