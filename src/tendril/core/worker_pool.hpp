#pragma once
/// A small persistent pool of threads for short data-parallel tasks (tens of microseconds: one
/// Newton evaluation of a rod network). run(parts, task) calls task(part) once for every part in
/// [0, parts) and returns when all parts are done; run(parts, task, serial) also runs serial() on
/// the calling thread, before it claims parts, while the workers already run theirs. The calling
/// thread and the workers claim parts in increasing order from a shared counter, so a worker that
/// the operating system has not scheduled yet (a loaded machine) delays nothing: the caller runs
/// its parts, and a worker that finishes early takes the parts the caller has not reached (more
/// parts than threads balance the serial work and uneven parts). serial() may wait for the first
/// parts with finish_parts_before() (helping with them), and use their results while the workers go
/// on with the later ones: a pipeline. Which thread runs a part is not fixed; a task whose parts
/// write disjoint, part-indexed results is deterministic all the same. Between tasks the workers
/// spin for a while (spin_time) before they block on a condition variable, so a task that follows
/// soon after the last one does not pay a wake-up; a worker that has blocked is woken by the next
/// run(). Not reentrant: one run() at a time, from the thread that owns the pool.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
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

  /// A pool of `threads` threads: threads - 1 worker threads besides the caller (threads >= 1; 1
  /// runs every task on the caller alone, without threads).
  explicit WorkerPool(int threads, std::chrono::microseconds spin_time = kDefaultSpinTime);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Number of threads (the caller plus the workers).
  int size() const { return static_cast<int>(workers_.size()) + 1; }

  /// Calls task(part) for part = 0 .. parts - 1 (on this thread or a worker) and waits for all. An
  /// exception thrown by a part is rethrown here after all parts have finished (the lowest part's
  /// first).
  template <class Task>
  void run(int parts, Task&& task) {
    run(parts, std::forward<Task>(task), [] {});
  }
  /// The same, and serial() on this thread before it claims parts (see the file comment); an
  /// exception of serial() is rethrown after all parts have finished, before the parts' own.
  template <class Task, class Serial>
  void run(int parts, Task&& task, Serial&& serial) {
    run_erased(
        parts, &task,
        [](void* t, int part) { (*static_cast<std::remove_reference_t<Task>*>(t))(part); }, &serial,
        [](void* s, int) { (*static_cast<std::remove_reference_t<Serial>*>(s))(); });
  }
  /// Only within serial() of run(): runs unclaimed parts below `end` on this thread, then waits
  /// until every part below `end` has finished (on whichever thread): their results may be read
  /// after it returns.
  void finish_parts_before(int end);

  /// The half-open range [first, last) of part `part` of [0, count) split into `parts` nearly equal
  /// parts.
  static std::pair<std::size_t, std::size_t> range(std::size_t count, int part, int parts) {
    const auto n = static_cast<std::size_t>(parts);
    const auto p = static_cast<std::size_t>(part);
    return {count * p / n, count * (p + 1) / n};
  }

 private:
  using Invoke = void (*)(void*, int);
  void run_erased(int parts, void* task, Invoke invoke, void* serial, Invoke invoke_serial);
  void work();
  /// Wakes the workers blocked in wake_ (after a generation_ bump).
  void wake_workers();
  /// Claims and runs parts of the current task until none is left.
  void run_parts();
  /// Runs claimed part `part` of the current task and marks it done.
  void run_part(int part);

  std::chrono::microseconds spin_time_;
  std::vector<std::thread> workers_;
  /// the claim counter: the current task's part count in the high 32 bits, the next unclaimed part
  /// in the low ones, so that a claim by a worker late from the last task reads the count it is
  /// checked against in the same atomic operation
  std::atomic<std::uint64_t> claim_{0};
  std::vector<std::exception_ptr>
      errors_;                       ///< per part, of the current task (reset only after a failure)
  std::atomic<bool> failed_{false};  ///< some part of the current or last task threw
  /// per part, the task number (stamp_) of its last finished run (capacity_ entries)
  std::unique_ptr<std::atomic<unsigned long>[]> done_stamp_;
  int capacity_ = 0;
  unsigned long stamp_ = 0;  ///< number of the current task (written before claim_ is reset)
  void* task_ = nullptr;
  Invoke invoke_ = nullptr;
  std::atomic<unsigned long> generation_{0};  ///< incremented by each run() (and by the destructor)
  std::atomic<int> done_parts_{0};            ///< parts of the current task finished
  std::atomic<int> sleepers_{0};              ///< workers blocked (or about to block) in wake_
  std::mutex mutex_;                          ///< with wake_: where idle workers block
  std::condition_variable wake_;
  bool stopping_ = false;  ///< written before the destructor's last generation bump
};

}  // namespace tendril
