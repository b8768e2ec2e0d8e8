// WorkerPool (core/worker_pool.hpp): every part of every task runs exactly once, results written
// per part are complete when run() returns, the serial work runs once on the caller beside the
// parts, exceptions reach the caller, the serial work can wait for the first parts (a pipeline),
// and idle workers that have blocked wake up for the next task.
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
      pool.run(threads, [&](int part) {
        ++runs[static_cast<std::size_t>(part)];
        long sum = 0;
        for (int k = 0; k <= 100 * (part + 1); ++k) sum += k;
        sums[static_cast<std::size_t>(part)] = sum;
      });
      for (int part = 0; part < threads; ++part) {
        const long n = 100 * (part + 1);
        ASSERT_EQ(sums[static_cast<std::size_t>(part)], n * (n + 1) / 2)
            << "task " << task << " part " << part;
        sums[static_cast<std::size_t>(part)] = -1;
      }
    }
    for (int part = 0; part < threads; ++part)
      EXPECT_EQ(runs[static_cast<std::size_t>(part)], 2000);
  }
}

TEST(WorkerPool, SplitsRangesIntoContiguousCoveringParts) {
  for (std::size_t count : {0u, 1u, 2u, 7u, 60u}) {
    std::size_t next = 0;
    for (int part = 0; part < 3; ++part) {
      const auto [first, last] = WorkerPool::range(count, part, 3);
      EXPECT_EQ(first, next);
      EXPECT_LE(first, last);
      EXPECT_LE(last - first, count / 3 + 1);
      next = last;
    }
    EXPECT_EQ(next, count);
  }
}

TEST(WorkerPool, WorkersRunPartsAndWakeAfterBlocking) {
  // a spin time of 1 us: the workers block between the tasks below (they sleep 2 ms) and must be
  // woken
  WorkerPool pool(2, std::chrono::microseconds(1));
  const std::thread::id caller = std::this_thread::get_id();
  int on_worker = 0;
  for (int task = 0; task < 20; ++task) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::atomic<int> started{0};
    std::vector<std::thread::id> ran(2);
    // each part waits (bounded) until both have started: with a live worker, the two parts run on
    // two threads; a worker that never wakes leaves both parts to the caller after the wait
    pool.run(2, [&](int part) {
      ran[static_cast<std::size_t>(part)] = std::this_thread::get_id();
      started.fetch_add(1);
      const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
      while (started.load() < 2 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::yield();
    });
    if (ran[0] != caller || ran[1] != caller) ++on_worker;
  }
  EXPECT_GT(on_worker, 10) << "the worker ran a part in only " << on_worker << " of 20 tasks";
}

TEST(WorkerPool, RunsSerialWorkOnTheCallerBesideMorePartsThanThreads) {
  const std::thread::id caller = std::this_thread::get_id();
  for (int threads : {1, 2, 3}) {
    WorkerPool pool(threads);
    const int parts = 4 * threads;
    std::vector<int> runs(static_cast<std::size_t>(parts), 0);
    int serial_runs = 0, serial_elsewhere = 0;
    for (int task = 0; task < 500; ++task) {
      std::vector<long> sums(static_cast<std::size_t>(parts), -1);
      pool.run(
          parts,
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
      for (int part = 0; part < parts; ++part) {
        const long n = 50 * (part + 1);
        ASSERT_EQ(sums[static_cast<std::size_t>(part)], n * (n + 1) / 2)
            << "task " << task << " part " << part;
      }
    }
    for (int part = 0; part < parts; ++part) EXPECT_EQ(runs[static_cast<std::size_t>(part)], 500);
    EXPECT_EQ(serial_runs, 500);
    EXPECT_EQ(serial_elsewhere, 0);
  }
}

TEST(WorkerPool, RethrowsTheSerialWorksExceptionAfterTheParts) {
  WorkerPool pool(2);
  std::atomic<int> done{0};
  EXPECT_THROW(
      pool.run(
          6, [&](int) { done.fetch_add(1); }, [] { throw std::runtime_error("serial failed"); }),
      std::runtime_error);
  EXPECT_EQ(done.load(), 6);  // every part finished before the rethrow
}

TEST(WorkerPool, SerialWorkReadsTheFirstPartsAfterFinishingThem) {
  // a pipeline: the serial work sums the results of parts 0 .. 3, then 4 .. 7, as soon as each
  // group is done
  for (int threads : {1, 2, 3}) {
    WorkerPool pool(threads);
    for (int task = 0; task < 1000; ++task) {
      std::vector<long> value(8, 0);
      long first = -1, second = -1;
      pool.run(
          8,
          [&](int part) {
            long sum = 0;
            for (int k = 0; k <= 200 * (part + 1); ++k) sum += k;
            value[static_cast<std::size_t>(part)] = sum;
          },
          [&] {
            pool.finish_parts_before(4);
            first = value[0] + value[1] + value[2] + value[3];
            pool.finish_parts_before(8);
            second = value[4] + value[5] + value[6] + value[7];
          });
      long expected_first = 0, expected_second = 0;
      for (int part = 0; part < 8; ++part) {
        const long n = 200 * (part + 1);
        (part < 4 ? expected_first : expected_second) += n * (n + 1) / 2;
      }
      ASSERT_EQ(first, expected_first) << threads << " threads, task " << task;
      ASSERT_EQ(second, expected_second) << threads << " threads, task " << task;
    }
  }
}

TEST(WorkerPool, RethrowsAPartsException) {
  WorkerPool pool(2);
  EXPECT_THROW(pool.run(2,
                        [](int part) {
                          if (part == 1) throw std::runtime_error("part 1 failed");
                        }),
               std::runtime_error);
  // the pool stays usable
  std::vector<int> done(2, 0);
  pool.run(2, [&](int part) { done[static_cast<std::size_t>(part)] = 1; });
  EXPECT_EQ(done, std::vector<int>({1, 1}));
}

}  // namespace
}  // namespace tendril
