#pragma once
/// A small persistent pool of threads for short data-parallel tasks (tens of microseconds: one Newton
/// evaluation of a rod network). run(task) calls task(part) once for every part in [0, size()) and returns
/// when all parts are done. The calling thread and the workers claim parts from a shared counter, so a
/// worker that the operating system has not scheduled yet (a loaded machine) delays nothing: the caller
/// runs its parts. Which thread runs a part is therefore not fixed; a task whose parts write disjoint,
/// part-indexed results is deterministic all the same. Between tasks the workers spin for a while
/// (spin_time) before they block on a condition variable, so a task that follows soon after the last one does not pay
/// a wake-up; a worker that has blocked is woken by the next run().
/// Not reentrant: one run() at a time, from the thread that owns the pool.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tendril {

class WorkerPool {
 public:
  /// How long an idle worker spins before it blocks (see the file comment).
  static constexpr std::chrono::microseconds kDefaultSpinTime{200};

  /// A pool of `threads` parts: threads - 1 worker threads besides the caller (threads >= 1; 1 runs
  /// every task on the caller alone, without threads).
  explicit WorkerPool(int threads, std::chrono::microseconds spin_time = kDefaultSpinTime);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Number of parts of a task (the caller plus the workers).
  int size() const { return static_cast<int>(workers_.size()) + 1; }

  /// Calls task(part) for part = 0 .. size() - 1 (on this thread or a worker) and waits for all. An exception
  /// thrown by a part is rethrown here after all parts have finished (the lowest part's first).
  template <class Task>
  void run(Task&& task) {
    if (workers_.empty()) {
      task(0);
      return;
    }
    run_erased(&task, [](void* t, int part) { (*static_cast<Task*>(t))(part); });
  }

  /// The half-open range [first, last) of part `part` of [0, count) split into size() nearly equal parts.
  std::pair<std::size_t, std::size_t> range(std::size_t count, int part) const {
    const auto parts = static_cast<std::size_t>(size());
    const auto p = static_cast<std::size_t>(part);
    return {count * p / parts, count * (p + 1) / parts};
  }

 private:
  using Invoke = void (*)(void*, int);
  void run_erased(void* task, Invoke invoke);
  void work();
  /// Wakes the workers blocked in wake_ (after a generation_ bump).
  void wake_workers();
  /// Claims and runs parts of the current task until none is left.
  void run_parts();

  std::chrono::microseconds spin_time_;
  std::vector<std::thread> workers_;
  std::vector<std::exception_ptr> errors_;  ///< per part, of the current task
  void* task_ = nullptr;
  Invoke invoke_ = nullptr;
  std::atomic<unsigned long> generation_{0};  ///< incremented by each run() (and by the destructor)
  std::atomic<int> next_part_{0};             ///< the next unclaimed part of the current task
  std::atomic<int> done_parts_{0};            ///< parts of the current task finished
  std::atomic<int> sleepers_{0};              ///< workers blocked (or about to block) in wake_
  std::mutex mutex_;                          ///< with wake_: where idle workers block
  std::condition_variable wake_;
  bool stopping_ = false;                     ///< written before the destructor's last generation bump
};

}  // namespace tendril
