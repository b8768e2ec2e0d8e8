#include "tendril/fit/scene_run_evaluator.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "tendril/fit/run_observables.hpp"
#include "tendril/io/run_directory.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::fit {

RunOutcome run_scene(const std::filesystem::path& scene_file, const RunSettings& settings,
                     const std::vector<std::string>& observables) {
  try {
    sim::RodScene scene = sim::load_rod_scene_file(scene_file, settings);
    std::vector<RunObservable> parsed;
    for (const std::string& name : observables) parsed.push_back(parse_run_observable(scene, name));
    sim::Simulation simulation(std::move(scene));
    return simulate_observables(simulation, parsed);
  } catch (const std::exception& e) {
    RunOutcome outcome;
    outcome.message = e.what();
    return outcome;
  }
}

RunBatchEvaluator thread_pool(std::function<RunOutcome(const RunSettings&)> run, int jobs) {
  return [run = std::move(run), jobs](const std::vector<RunSettings>& batch) {
    std::vector<RunOutcome> outcomes(batch.size());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
      for (std::size_t k = next++; k < batch.size(); k = next++) {
        if (io::stop_signal() == 0)
          outcomes[k] = run(batch[k]);
        else
          outcomes[k].message = "interrupted";  // SIGINT / SIGTERM: the runs not started fail
      }
    };
    std::vector<std::thread> threads;
    for (int t = 1; t < std::max(jobs, 1) && static_cast<std::size_t>(t) < batch.size(); ++t)
      threads.emplace_back(work);
    work();
    for (std::thread& t : threads) t.join();
    return outcomes;
  };
}

RunBatchEvaluator thread_pool_evaluator(std::filesystem::path scene_file,
                                        std::vector<std::string> observables, int jobs) {
  return thread_pool(
      [scene_file = std::move(scene_file), observables = std::move(observables)](
          const RunSettings& settings) { return run_scene(scene_file, settings, observables); },
      jobs);
}

}  // namespace tendril::fit
