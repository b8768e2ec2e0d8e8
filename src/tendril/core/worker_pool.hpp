#pragma once
/// A small persistent pool of threads for short data-parallel tasks (tens of microseconds: one Newton
/// evaluation of a rod network). run(task) calls task(part) once for every part in [0, parts()) and returns
/// when all parts are done; run(task, serial) also runs serial() on the calling thread, before it claims
/// parts, while the workers already run theirs (serial work that the parts do not read or write). The
/// calling thread and the workers claim parts from a shared counter, so a worker that the operating system
/// has not scheduled yet (a loaded machine) delays nothing: the caller runs its parts, and a worker that
/// finishes early takes the parts the caller has not reached (more parts than threads balance the serial
/// work and uneven parts). Which thread runs a part is therefore not fixed; a task whose parts write
/// disjoint, part-indexed results is deterministic all the same. Between tasks the workers spin for a while
/// (spin_time) before they block on a condition variable, so a task that follows soon after the last one
/// does not pay a wake-up; a worker that has blocked is woken by the next run().
/// Not reentrant: one run() at a time, from the thread that owns the pool.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace tendril {

class WorkerPool {
 public:
  /// How long an idle worker spins before it blocks (see the file comment).
  static constexpr std::chrono::microseconds kDefaultSpinTime{200};

  /// A pool of `threads` threads: threads - 1 worker threads besides the caller (threads >= 1; 1 runs
  /// every task on the caller alone, without threads); every task has `parts` parts (parts >= 1; 0: one
  /// per thread).
  explicit WorkerPool(int threads, std::chrono::microseconds spin_time = kDefaultSpinTime, int parts = 0);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Number of threads (the caller plus the workers).
  int size() const { return static_cast<int>(workers_.size()) + 1; }
  /// Number of parts of a task.
  int parts() const { return parts_; }

  /// Calls task(part) for part = 0 .. parts() - 1 (on this thread or a worker) and waits for all. An
  /// exception thrown by a part is rethrown here after all parts have finished (the lowest part's first).
  template <class Task>
  void run(Task&& task) {
    run(std::forward<Task>(task), [] {});
  }
  /// The same, and serial() on this thread before it claims parts (see the file comment); an exception
  /// of serial() is rethrown after all parts have finished, before the parts' own.
  template <class Task, class Serial>
  void run(Task&& task, Serial&& serial) {
    if (workers_.empty()) {
      serial();
      for (int part = 0; part < parts_; ++part) task(part);
      return;
    }
    run_erased(&task, [](void* t, int part) { (*static_cast<std::remove_reference_t<Task>*>(t))(part); }, &serial,
               [](void* s, int) { (*static_cast<std::remove_reference_t<Serial>*>(s))(); });
  }

  /// The half-open range [first, last) of part `part` of [0, count) split into parts() nearly equal parts.
  std::pair<std::size_t, std::size_t> range(std::size_t count, int part) const {
    const auto parts = static_cast<std::size_t>(parts_);
    const auto p = static_cast<std::size_t>(part);
    return {count * p / parts, count * (p + 1) / parts};
  }

 private:
  using Invoke = void (*)(void*, int);
  void run_erased(void* task, Invoke invoke, void* serial, Invoke invoke_serial);
  void work();
  /// Wakes the workers blocked in wake_ (after a generation_ bump).
  void wake_workers();
  /// Claims and runs parts of the current task until none is left.
  void run_parts();

  std::chrono::microseconds spin_time_;
  int parts_ = 1;                             ///< parts of every task (fixed: a worker late from the last task
                                              ///< compares its stale claim with the same count)
  std::vector<std::thread> workers_;
  std::vector<std::exception_ptr> errors_;    ///< per part, of the current task (reset only after a failure)
  std::atomic<bool> failed_{false};           ///< some part of the current or last task threw
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
