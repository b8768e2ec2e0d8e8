#include "tendril/fit/scene_run_evaluator.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "tendril/io/run_directory.hpp"
#include "tendril/sim/simulation.hpp"

namespace tendril::fit {

std::vector<std::string> run_observable_names() {
  std::vector<std::string> names;
  for (const auto& [name, value] : sim::RobotObservables::named_values({})) names.push_back(name);
  return names;
}

RunOutcome run_scene(const std::filesystem::path& scene_file, const RunSettings& settings,
                     const std::vector<std::string>& observables) {
  RunOutcome outcome;
  try {
    sim::Simulation simulation(sim::load_rod_scene_file(scene_file, settings));
    if (simulation.observables() == nullptr) {
      outcome.message = "the scene has no observables (e.g. a flagellated_robot scene)";
      return outcome;
    }
    const io::RunResult run = simulation.run("");
    if (!run.ok) {
      outcome.message = run.message;
      return outcome;
    }
    const auto named = sim::RobotObservables::named_values(simulation.observables()->summary());
    for (const std::string& name : observables) {
      bool found = false;
      for (const auto& [n, value] : named)
        if (n == name) {
          outcome.values.push_back(value);
          found = true;
        }
      if (!found) {
        outcome.message = "no observable named " + name;
        return outcome;
      }
    }
    outcome.ok = true;
  } catch (const std::exception& e) {
    outcome.message = e.what();
  }
  return outcome;
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
