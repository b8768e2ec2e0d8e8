#pragma once
/// Four doubles computed side by side (AVX2, x86-64-v3): a scalar type for Eigen fixed-size matrices, so that
/// a kernel written once as a template over its scalar evaluates four elements (four lanes) in the
/// instructions of one. Every operation acts lane by lane, so a lane's result does not depend on the other
/// lanes nor on which lane an element takes: the same bits as the same kernel run in any other lane.
/// Comparisons are true when they hold in every lane (Eigen tests scalars only for special values).

#include <immintrin.h>

#include <Eigen/Core>

namespace tendril {

struct alignas(32) LanePack {
  static constexpr int kLanes = 4;
  __m256d v;
  LanePack() = default;
  LanePack(double x) : v(_mm256_set1_pd(x)) {}  // NOLINT(google-explicit-constructor): literals in kernels
  explicit LanePack(__m256d x) : v(x) {}
  /// The pack of values[0..3] (lane k holds values[k]).
  static LanePack load(const double* values) { return LanePack(_mm256_loadu_pd(values)); }
  void store(double* values) const { _mm256_storeu_pd(values, v); }
};

inline LanePack operator+(LanePack a, LanePack b) { return LanePack(_mm256_add_pd(a.v, b.v)); }
inline LanePack operator-(LanePack a, LanePack b) { return LanePack(_mm256_sub_pd(a.v, b.v)); }
inline LanePack operator*(LanePack a, LanePack b) { return LanePack(_mm256_mul_pd(a.v, b.v)); }
inline LanePack operator/(LanePack a, LanePack b) { return LanePack(_mm256_div_pd(a.v, b.v)); }
inline LanePack operator-(LanePack a) { return LanePack(_mm256_xor_pd(a.v, _mm256_set1_pd(-0.0))); }
inline LanePack& operator+=(LanePack& a, LanePack b) { return a = a + b; }
inline LanePack& operator-=(LanePack& a, LanePack b) { return a = a - b; }
inline LanePack& operator*=(LanePack& a, LanePack b) { return a = a * b; }
inline LanePack& operator/=(LanePack& a, LanePack b) { return a = a / b; }
inline bool operator==(LanePack a, LanePack b) {
  return _mm256_movemask_pd(_mm256_cmp_pd(a.v, b.v, _CMP_EQ_OQ)) == 15;
}
inline bool operator!=(LanePack a, LanePack b) { return !(a == b); }
inline LanePack sqrt(LanePack a) { return LanePack(_mm256_sqrt_pd(a.v)); }

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
