#include "tendril/core/worker_pool.hpp"

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

}  // namespace

WorkerPool::WorkerPool(int threads, std::chrono::microseconds spin_time, int parts)
    : spin_time_(spin_time), parts_(parts > 0 ? parts : threads) {
  TENDRIL_ASSERT(threads >= 1 && parts >= 0, "WorkerPool needs at least one thread and no negative parts");
  errors_.resize(static_cast<std::size_t>(parts_));
  // no part is claimable until the first run()
  next_part_.store(parts_);
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  // each worker starts from generation 0: a run() (or the destructor) before it is scheduled is seen
  for (int w = 1; w < threads; ++w) workers_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
  stopping_ = true;
  generation_.fetch_add(1);
  wake_workers();
  for (std::thread& t : workers_) t.join();
}

void WorkerPool::wake_workers() {
  // seq_cst bump (by the caller) then load, against the worker's sleepers_ increment then generation_
  // load (in wait's predicate): either we see the sleeper and wake it, or it sees the new generation and
  // does not block. Taking the mutex makes the notification come after the sleeper's wait began.
  if (sleepers_.load() == 0) return;
  { const std::lock_guard lock(mutex_); }
  wake_.notify_all();
}

void WorkerPool::run_parts() {
  for (int part = next_part_.fetch_add(1); part < parts_; part = next_part_.fetch_add(1)) {
    try {
      invoke_(task_, part);
    } catch (...) {
      errors_[static_cast<std::size_t>(part)] = std::current_exception();
      failed_.store(true, std::memory_order_relaxed);
    }
    done_parts_.fetch_add(1, std::memory_order_release);
  }
}

void WorkerPool::run_erased(void* task, Invoke invoke, void* serial, Invoke invoke_serial) {
  // a worker still in run_parts() of the last task claims no part until next_part_ is reset below, which
  // comes after everything the new parts read (seq_cst store, seq_cst fetch_add in run_parts)
  done_parts_.store(0);
  task_ = task;
  invoke_ = invoke;
  if (failed_.load(std::memory_order_relaxed)) {
    for (std::exception_ptr& e : errors_) e = nullptr;
    failed_.store(false, std::memory_order_relaxed);
  }
  next_part_.store(0);
  generation_.fetch_add(1);
  wake_workers();
  // the serial work first (the workers start on the parts meanwhile), then the parts nobody has claimed
  std::exception_ptr serial_error;
  try {
    invoke_serial(serial, 0);
  } catch (...) {
    serial_error = std::current_exception();
  }
  run_parts();
  // parts claimed by workers: spin a little, then give the core away (the worker may be waiting for one)
  for (int k = 0; done_parts_.load(std::memory_order_acquire) < parts_; ++k)
    if (k < 4096) cpu_relax();
    else std::this_thread::yield();
  if (serial_error) std::rethrow_exception(serial_error);
  if (failed_.load(std::memory_order_relaxed))
    for (const std::exception_ptr& e : errors_)
      if (e) std::rethrow_exception(e);
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
