// WorkerPool (core/worker_pool.hpp): every part of every task runs exactly once, results written per part
// are complete when run() returns, the serial work runs once on the caller beside the parts, exceptions
// reach the caller, and idle workers that have blocked wake up for the next task.
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "tendril/core/worker_pool.hpp"

namespace tendril {
namespace {

TEST(WorkerPool, RunsEveryPartOnceAndWaitsForAll) {
  for (int threads : {1, 2, 3}) {
    WorkerPool pool(threads);
    ASSERT_EQ(pool.size(), threads);
    std::vector<int> runs(static_cast<std::size_t>(threads), 0);
    std::vector<long> sums(static_cast<std::size_t>(threads), 0);
    for (int task = 0; task < 2000; ++task) {
      pool.run([&](int part) {
        ++runs[static_cast<std::size_t>(part)];
        long sum = 0;
        for (int k = 0; k <= 100 * (part + 1); ++k) sum += k;
        sums[static_cast<std::size_t>(part)] = sum;
      });
      for (int part = 0; part < threads; ++part) {
        const long n = 100 * (part + 1);
        ASSERT_EQ(sums[static_cast<std::size_t>(part)], n * (n + 1) / 2) << "task " << task << " part " << part;
        sums[static_cast<std::size_t>(part)] = -1;
      }
    }
    for (int part = 0; part < threads; ++part) EXPECT_EQ(runs[static_cast<std::size_t>(part)], 2000);
  }
}

TEST(WorkerPool, SplitsRangesIntoContiguousCoveringParts) {
  WorkerPool pool(3);
  for (std::size_t count : {0u, 1u, 2u, 7u, 60u}) {
    std::size_t next = 0;
    for (int part = 0; part < pool.size(); ++part) {
      const auto [first, last] = pool.range(count, part);
      EXPECT_EQ(first, next);
      EXPECT_LE(first, last);
      EXPECT_LE(last - first, count / 3 + 1);
      next = last;
    }
    EXPECT_EQ(next, count);
  }
}

TEST(WorkerPool, WorkersRunPartsAndWakeAfterBlocking) {
  // a spin time of 1 us: the workers block between the tasks below (they sleep 2 ms) and must be woken
  WorkerPool pool(2, std::chrono::microseconds(1));
  const std::thread::id caller = std::this_thread::get_id();
  int on_worker = 0;
  for (int task = 0; task < 20; ++task) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::atomic<int> started{0};
    std::vector<std::thread::id> ran(2);
    // each part waits (bounded) until both have started: with a live worker, the two parts run on two
    // threads; a worker that never wakes leaves both parts to the caller after the wait
    pool.run([&](int part) {
      ran[static_cast<std::size_t>(part)] = std::this_thread::get_id();
      started.fetch_add(1);
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
      while (started.load() < 2 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
    });
    if (ran[0] != caller || ran[1] != caller) ++on_worker;
  }
  EXPECT_GT(on_worker, 10) << "the worker ran a part in only " << on_worker << " of 20 tasks";
}

TEST(WorkerPool, RunsSerialWorkOnTheCallerBesideMorePartsThanThreads) {
  const std::thread::id caller = std::this_thread::get_id();
  for (int threads : {1, 2, 3}) {
    WorkerPool pool(threads, WorkerPool::kDefaultSpinTime, 4 * threads);
    ASSERT_EQ(pool.parts(), 4 * threads);
    std::vector<int> runs(static_cast<std::size_t>(pool.parts()), 0);
    int serial_runs = 0, serial_elsewhere = 0;
    for (int task = 0; task < 500; ++task) {
      std::vector<long> sums(static_cast<std::size_t>(pool.parts()), -1);
      pool.run(
          [&](int part) {
            ++runs[static_cast<std::size_t>(part)];
            long sum = 0;
            for (int k = 0; k <= 50 * (part + 1); ++k) sum += k;
            sums[static_cast<std::size_t>(part)] = sum;
          },
          [&] {
            ++serial_runs;
            if (std::this_thread::get_id() != caller) ++serial_elsewhere;
          });
      for (int part = 0; part < pool.parts(); ++part) {
        const long n = 50 * (part + 1);
        ASSERT_EQ(sums[static_cast<std::size_t>(part)], n * (n + 1) / 2) << "task " << task << " part " << part;
      }
    }
    for (int part = 0; part < pool.parts(); ++part) EXPECT_EQ(runs[static_cast<std::size_t>(part)], 500);
    EXPECT_EQ(serial_runs, 500);
    EXPECT_EQ(serial_elsewhere, 0);
  }
}

TEST(WorkerPool, RethrowsTheSerialWorksExceptionAfterTheParts) {
  WorkerPool pool(2, WorkerPool::kDefaultSpinTime, 6);
  std::atomic<int> done{0};
  EXPECT_THROW(pool.run([&](int) { done.fetch_add(1); }, [] { throw std::runtime_error("serial failed"); }),
               std::runtime_error);
  EXPECT_EQ(done.load(), 6);  // every part finished before the rethrow
}

TEST(WorkerPool, RethrowsAPartsException) {
  WorkerPool pool(2);
  EXPECT_THROW(pool.run([](int part) {
                 if (part == 1) throw std::runtime_error("part 1 failed");
               }),
               std::runtime_error);
  // the pool stays usable
  std::vector<int> done(2, 0);
  pool.run([&](int part) { done[static_cast<std::size_t>(part)] = 1; });
  EXPECT_EQ(done, std::vector<int>({1, 1}));
}

}  // namespace
}  // namespace tendril
