// A warm-started solve along a slowly changing vine-like path (chain_qp.hpp) does not allocate.
// This executable interposes glibc's malloc family to count allocations (Eigen allocates with
// malloc, C++ containers through operator new -> malloc); under AddressSanitizer, which owns
// malloc, it counts through the sanitizer's allocation hooks.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <vector>

#include "tendril/qp/qp_solver.hpp"
#include "unit/qp/chain_qp.hpp"

namespace {
std::atomic<long> allocations{0};
}  // namespace

#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer owns malloc and operator new; its allocation hooks see both
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*,
                                                                             std::size_t),
                                                         void (*free_hook)(const volatile void*));
namespace {
void count_allocation(const volatile void*, std::size_t) {
  ++allocations;
}
void ignore_free(const volatile void*) {}
const int hooks_installed =
    __sanitizer_install_malloc_and_free_hooks(count_allocation, ignore_free);
}  // namespace
#else
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void __libc_free(void* p);

void* malloc(std::size_t size) {
  ++allocations;
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  ++allocations;
  return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) {
  ++allocations;
  return __libc_realloc(p, size);
}
void free(void* p) {
  __libc_free(p);
}
}
#endif

namespace tendril::qp {
namespace {

TEST(QpAllocation, WarmStartedSolvesDoNotAllocate) {
#if defined(__SANITIZE_ADDRESS__)
  ASSERT_NE(hooks_installed, 0) << "the sanitizer's allocation hooks were not installed";
#endif
  std::vector<QpProblem> path;
  for (int step = 0; step < 40; ++step) path.push_back(test::chain_qp(30, 6, 0.02 * step));
  QpSolver solver;
  QpSolution solution;
  const long at_start = allocations.load();
  solver.solve(path[0],
               solution);  // symbolic analysis and the first sizes allocate (checks the counter)
  EXPECT_GT(allocations.load() - at_start, 10);
  for (int step = 1; step < 3; ++step) solver.solve(path[step], solution);

  long total_iterations = 0;
  const long before = allocations.load();
  for (int step = 3; step < 40; ++step) {
    solver.solve(path[step], solution);
    total_iterations += solution.iterations;
    ASSERT_EQ(solution.status, QpStatus::solved);
  }
  EXPECT_EQ(allocations.load() - before, 0);
  EXPECT_GT(total_iterations, 37) << "the path should include active-set changes";
}

}  // namespace
}  // namespace tendril::qp
