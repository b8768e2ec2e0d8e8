#include "tendril/core/worker_pool.hpp"

#include <algorithm>

#include "tendril/core/error.hpp"

namespace tendril {
namespace {

/// Busy-wait hint to the core (lets the sibling hyperthread run, saves power).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

/// Spins a little, then gives the core away (the thread waited for may be waiting for one), until
/// done().
template <class Done>
void wait_until(Done done) {
  for (int k = 0; !done(); ++k)
    if (k < 4096)
      cpu_relax();
    else
      std::this_thread::yield();
}

constexpr std::uint64_t claim_value(int parts) {
  return static_cast<std::uint64_t>(parts) << 32;
}
inline int claimed_part(std::uint64_t claim) {
  return static_cast<int>(claim & 0xffffffffu);
}
inline int claimed_parts(std::uint64_t claim) {
  return static_cast<int>(claim >> 32);
}

}  // namespace

WorkerPool::WorkerPool(int threads, std::chrono::microseconds spin_time) : spin_time_(spin_time) {
  TENDRIL_ASSERT(threads >= 1, "WorkerPool needs at least one thread");
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  // no part is claimable until the first run() (claim_ = 0 parts); each worker starts from
  // generation 0: a run() (or the destructor) before it is scheduled is seen
  for (int w = 1; w < threads; ++w) workers_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
  stopping_ = true;
  generation_.fetch_add(1);
  wake_workers();
  for (std::thread& t : workers_) t.join();
}

void WorkerPool::wake_workers() {
  // seq_cst bump (by the caller) then load, against the worker's sleepers_ increment then
  // generation_ load (in wait's predicate): either we see the sleeper and wake it, or it sees the
  // new generation and does not block. Taking the mutex makes the notification come after the
  // sleeper's wait began.
  if (sleepers_.load() == 0) return;
  { const std::lock_guard lock(mutex_); }
  wake_.notify_all();
}

void WorkerPool::run_part(int part) {
  try {
    invoke_(task_, part);
  } catch (...) {
    errors_[static_cast<std::size_t>(part)] = std::current_exception();
    failed_.store(true, std::memory_order_relaxed);
  }
  done_stamp_[static_cast<std::size_t>(part)].store(stamp_, std::memory_order_release);
  done_parts_.fetch_add(1, std::memory_order_release);
}

void WorkerPool::run_parts() {
  for (;;) {
    // the part and the count it is checked against come from one atomic read (claim_)
    const std::uint64_t claim = claim_.fetch_add(1);
    if (claimed_part(claim) >= claimed_parts(claim)) return;
    run_part(claimed_part(claim));
  }
}

void WorkerPool::finish_parts_before(int end) {
  std::uint64_t claim = claim_.load();
  while (claimed_part(claim) < std::min(end, claimed_parts(claim)))
    if (claim_.compare_exchange_weak(claim, claim + 1)) {
      run_part(claimed_part(claim));
      claim = claim_.load();
    }
  for (int part = 0; part < end; ++part)
    wait_until([&] {
      return done_stamp_[static_cast<std::size_t>(part)].load(std::memory_order_acquire) == stamp_;
    });
}

void WorkerPool::run_erased(int parts, void* task, Invoke invoke, void* serial,
                            Invoke invoke_serial) {
  // every part of the last task has finished (done_parts_), so no thread touches the per-part
  // storage until claim_ is reset below, which comes after everything the new parts read (seq_cst
  // store, seq_cst fetch_add in run_parts); a worker's late claim of the last task then claims a
  // part of this one
  if (parts > capacity_) {
    capacity_ = parts;
    done_stamp_ = std::make_unique<std::atomic<unsigned long>[]>(static_cast<std::size_t>(parts));
    errors_.assign(static_cast<std::size_t>(parts), nullptr);
  }
  done_parts_.store(0);
  task_ = task;
  invoke_ = invoke;
  ++stamp_;
  if (failed_.load(std::memory_order_relaxed)) {
    for (std::exception_ptr& e : errors_) e = nullptr;
    failed_.store(false, std::memory_order_relaxed);
  }
  claim_.store(claim_value(parts));
  generation_.fetch_add(1);
  wake_workers();
  // the serial work first (the workers start on the parts meanwhile), then the parts nobody has
  // claimed
  std::exception_ptr serial_error;
  try {
    invoke_serial(serial, 0);
  } catch (...) {
    serial_error = std::current_exception();
  }
  run_parts();
  wait_until([&] { return done_parts_.load(std::memory_order_acquire) >= parts; });
  if (serial_error) std::rethrow_exception(serial_error);
  if (failed_.load(std::memory_order_relaxed))
    for (int part = 0; part < parts; ++part)
      if (errors_[static_cast<std::size_t>(part)])
        std::rethrow_exception(errors_[static_cast<std::size_t>(part)]);
}

void WorkerPool::work() {
  unsigned long seen = 0;
  for (;;) {
    // spin for spin_time_, then block until the generation changes
    const auto spin_end = std::chrono::steady_clock::now() + spin_time_;
    for (int k = 0; generation_.load(std::memory_order_acquire) == seen; ++k) {
      if (k % 64 == 63 && std::chrono::steady_clock::now() > spin_end) {
        std::unique_lock lock(mutex_);
        sleepers_.fetch_add(1);
        wake_.wait(lock, [&] { return generation_.load() != seen; });
        sleepers_.fetch_sub(1);
      }
      cpu_relax();
    }
    seen = generation_.load(std::memory_order_acquire);
    if (stopping_) return;
    run_parts();
  }
}

}  // namespace tendril
