#include "tendril/integrate/newton_system.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/core/term.hpp"

namespace tendril {
namespace {

/// The round-off floor of a residual entry is this many times eps times the magnitudes it is summed
/// from (see excess_over_round_off): a force is a sum of a few terms, each a few operations deep.
constexpr double kRoundOffFactor = 16.0;

/// First diagonal shift mu of the Newton matrix, relative to each row's own diagonal.
constexpr double kInitialShift = 1e-8;

/// Parts per thread of each round of the threaded evaluation: more parts than threads let a worker
/// take the parts the calling thread has not reached while it does its serial work
/// (evaluate_in_parallel).
constexpr int kPartsPerThread = 2;

/// sum_k term(k) over `indices`, in four interleaved partial sums: their additions do not wait on
/// each other (a single running sum makes these short loops latency-bound)
template <typename Term>
double sum_over(const std::vector<int>& indices, Term term) {
  double sum[4] = {0.0, 0.0, 0.0, 0.0};
  std::size_t k = 0;
  for (; k + 4 <= indices.size(); k += 4)
    for (std::size_t q = 0; q < 4; ++q) sum[q] += term(indices[k + q]);
  for (; k < indices.size(); ++k) sum[0] += term(indices[k]);
  return (sum[0] + sum[1]) + (sum[2] + sum[3]);
}

}  // namespace

NewtonSystem::NewtonSystem(const Model& model, const NewtonOptions& options,
                           ModelWorkspace* workspace)
    : model_(model),
      own_workspace_(workspace ? nullptr : std::make_unique<ModelWorkspace>(model)),
      workspace_(workspace ? *workspace : *own_workspace_),
      options_(options) {
  options_.validate("newton.");
  if (options_.threads > 1) pool_ = std::make_unique<WorkerPool>(options_.threads);
  const int n = model.dofs.size();
  TENDRIL_ASSERT(model.mass.size() == n, "Model::mass must have one entry per DOF");
  TENDRIL_ASSERT(static_cast<int>(model.fixed.size()) == n,
                 "Model::fixed must have one entry per DOF");

  // length scale: diagonal of the rest shape's bounding box
  if (model.dofs.num_nodes > 0 && model.rest_positions.size() == 3 * model.dofs.num_nodes) {
    const auto points = model.rest_positions.reshaped(3, model.dofs.num_nodes);
    const double diagonal = (points.rowwise().maxCoeff() - points.rowwise().minCoeff()).norm();
    if (diagonal > 0.0) length_scale_ = diagonal;
  }
  node_spacing_ = length_scale_ / std::max(model.dofs.num_nodes, 1);

  symmetric_ = std::all_of(model.forces.begin(), model.forces.end(),
                           [](const auto& force) { return force->has_symmetric_jacobian(); });
  // the potential merit needs a symmetric Jacobian (only then is the Newton step a descent
  // direction of the incremental potential); a non-symmetric system decreases the residual norm
  merit_ = symmetric_ ? options_.line_search.merit : Merit::residual_norm;
  for (const auto& energy : model.energies)
    has_load_energy_ = has_load_energy_ || energy->is_external_load();
  for (int i = 0; i < n; ++i)
    if (!model.fixed[i]) free_.push_back(i);
  analyze_pattern();
  stiff_segments_ = StiffSegments(model, options_.stiff_segment_ratio);
  bodies_ = StiffSegments::free_bodies(model);

  for (VecX* v : {&floor_, &magnitude_, &u_, &gradient_, &load_gradient_, &force_, &inertial_,
                  &residual_, &step_, &trial_, &path_, &force_base_})
    v->setZero(n);
  residual_free_.setZero(static_cast<Eigen::Index>(free_.size()));
  shift_scale_.setOnes(static_cast<Eigen::Index>(free_.size()));
  step_free_.setZero(static_cast<Eigen::Index>(free_.size()));
}

bool NewtonSystem::update_stencils(const State& state) {
  bool changed = false;
  for (std::size_t t = 0; t < model_.energies.size(); ++t)
    changed = model_.energies[t]->update_stencils(model_, state, workspace_.energy(t)) || changed;
  for (std::size_t t = 0; t < model_.forces.size(); ++t)
    changed = model_.forces[t]->update_stencils(model_, state, workspace_.force(t)) || changed;
  if (changed) analyze_pattern();
  return changed;
}

void NewtonSystem::analyze_pattern() {
  ++pattern_analyses_;
  const Model& model = model_;
  const int n = model.dofs.size();
  // the full pattern: mass diagonal + every term's stencils
  SparsityBuilder builder(n);
  builder.add_diagonal();
  for (std::size_t t = 0; t < model.energies.size(); ++t)
    model.energies[t]->declare_stencils(model, workspace_.energy(t), builder);
  for (std::size_t t = 0; t < model.forces.size(); ++t)
    model.forces[t]->declare_stencils(model, workspace_.force(t), builder);
  full_ = HessianAssembler(builder.build());
  // Hessians add only the lower triangle, which the gather below reads for both; a non-symmetric
  // J keeps its own upper entries where the non-symmetric ForceTerms add (their stencils)
  full_.set_lower_only(true);
  if (!symmetric_) {
    SparsityBuilder own(n);
    for (std::size_t t = 0; t < model.forces.size(); ++t)
      if (!model.forces[t]->has_symmetric_jacobian())
        model.forces[t]->declare_stencils(model, workspace_.force(t), own);
    full_.set_own_upper(own.build());
  }
  if (has_load_energy_) {
    load_hessian_ = HessianAssembler(full_.matrix());
    load_hessian_.set_lower_only(true);
  }
  const SparseMatrix& pattern = full_.matrix();

  diagonal_slot_full_.resize(n);
  for (int i = 0; i < n; ++i) diagonal_slot_full_[i] = value_index(pattern, i, i);

  // the free-DOF pattern and the gather map from the full values
  std::vector<int> free_index(n, -1);
  for (std::size_t k = 0; k < free_.size(); ++k) free_index[free_[k]] = static_cast<int>(k);
  const int nf = static_cast<int>(free_.size());
  std::vector<Eigen::Index> counts(nf, 0);
  for (int k = 0; k < nf; ++k)
    for (SparseMatrix::InnerIterator it(pattern, free_[k]); it; ++it)
      if (free_index[it.row()] >= 0) ++counts[k];
  free_matrix_ = SparseMatrix(nf, nf);
  // reserve() on an empty matrix leaves it uncompressed with a one-entry buffer that
  // makeCompressed() then reads past (found by the scene fuzzer on a fully clamped rod)
  if (nf > 0) free_matrix_.reserve(counts);
  for (int k = 0; k < nf; ++k)
    for (SparseMatrix::InnerIterator it(pattern, free_[k]); it; ++it)
      if (free_index[it.row()] >= 0) free_matrix_.insert(free_index[it.row()], k) = 0.0;
  free_matrix_.makeCompressed();
  gather_.resize(free_matrix_.nonZeros());
  const std::vector<int>& sources = full_.value_sources();
  for (int k = 0; k < nf; ++k) {
    int p = static_cast<int>(free_matrix_.outerIndexPtr()[k]);
    for (SparseMatrix::InnerIterator it(pattern, free_[k]); it; ++it)
      if (free_index[it.row()] >= 0) gather_[p++] = sources[&it.value() - pattern.valuePtr()];
  }
  diagonal_slot_free_.resize(nf);
  for (int k = 0; k < nf; ++k) diagonal_slot_free_[k] = value_index(free_matrix_, k, k);

  // no free DOF: nothing to factorize (every solve converges at its initial guess)
  solver_.reset();
  if (nf > 0)
    solver_ = make_linear_solver(options_.linear_solver, free_matrix_,
                                 options_.banded_max_bandwidth, symmetric_);
  solver_reads_full_ = solver_ && solver_->read_through(gather_);

  // the terms' element counts follow their stencils: counted again only when those change
  energy_elements_.clear();
  for (const auto& energy : model_.energies)
    energy_elements_.push_back(energy->element_count(model_));
  force_elements_.clear();
  for (const auto& force : model_.forces) force_elements_.push_back(force->element_count(model_));
  if (pool_) split_into_parts();
}

const SparseMatrix& NewtonSystem::jacobian() {
  full_.mirror_lower();
  return full_.matrix();
}

bool NewtonSystem::evaluate(const NewtonProblem& p, const VecX& y, bool jacobian) {
  const int n = model_.dofs.size();
  const double lambda = p.load_factor;
  if (p.velocity_scale > 0.0)
    u_ = p.velocity_scale * (y - *p.velocity_origin);
  else
    u_.setZero();
  EvalInput in{model_, y, u_, p.time, kin_};

  const bool separate_load_hessian = jacobian && has_load_energy_ && lambda != 1.0;
  EnergyOutput internal{0.0, &gradient_, jacobian ? &full_ : nullptr};
  EnergyOutput load{0.0, &load_gradient_,
                    jacobian ? (separate_load_hessian ? &load_hessian_ : &full_) : nullptr};
  ForceOutput forces{&force_, jacobian ? &full_ : nullptr, -lambda, -lambda * p.velocity_scale};
  if (pool_) {
    // the terms are accumulated on this thread during the element round, each as soon as its values
    // are in
    evaluate_in_parallel(*p.frames, in, internal, load, forces, lambda, separate_load_hessian);
  } else {
    clear_outputs(jacobian, separate_load_hessian);
    compute_kinematics(model_, *p.frames, y, kin_);
    accumulate_terms(in, internal, load, forces, lambda, separate_load_hessian, nullptr);
  }
  energy_int_ = internal.energy;
  energy_load_ = load.energy;

  // inertia c_m M (y - y_pred) with J += c_m M, and the residual, in one sweep
  double kinetic = 0.0;
  double* values = full_.matrix().valuePtr();
  const bool inertia = p.inertia > 0.0;
  for (int i = 0; i < n; ++i) {
    double inertial = 0.0;
    if (inertia) {
      const double dy = y[i] - (*p.predicted)[i];
      inertial = p.inertia * model_.mass[i] * dy;
      kinetic += 0.5 * inertial * dy;
      if (jacobian) values[diagonal_slot_full_[i]] += p.inertia * model_.mass[i];
    }
    inertial_[i] = inertial;
    residual_[i] = inertial + gradient_[i] + lambda * (load_gradient_[i] - force_[i]);
  }
  merit_base_ = kinetic + energy_int_ + lambda * energy_load_;
  gather_residual();
  // a non-finite Jacobian shows up as a failed factorization (checked there)
  return std::isfinite(merit_base_) && std::isfinite(residual_norm_) && force_.allFinite() &&
         y.allFinite();
}

void NewtonSystem::clear_outputs(bool jacobian, bool separate_load_hessian) {
  gradient_.setZero();
  load_gradient_.setZero();
  force_.setZero();
  if (jacobian) full_.set_zero();
  if (separate_load_hessian) load_hessian_.set_zero();
}

void NewtonSystem::accumulate_terms(const EvalInput& in, EnergyOutput& internal, EnergyOutput& load,
                                    ForceOutput& forces, double lambda, bool separate_load_hessian,
                                    WorkerPool* pool) {
  // energies: internal ones straight into J, external loads scaled by lambda
  EvalInput term_in = in;
  for (std::size_t t = 0; t < model_.energies.size(); ++t) {
    if (pool && energy_elements_[t] > 0) pool->finish_parts_before(energy_parts_end_[t]);
    const Energy& energy = *model_.energies[t];
    term_in.workspace = workspace_.energy(t);
    energy.accumulate(term_in, energy.is_external_load() ? load : internal);
  }
  if (separate_load_hessian) {
    const double* src = load_hessian_.matrix().valuePtr();
    double* dst = full_.matrix().valuePtr();
    for (Eigen::Index k = 0; k < full_.matrix().nonZeros(); ++k) dst[k] += lambda * src[k];
  }
  // the upper entries the non-symmetric forces add into start from the energies' lower triangle
  if (internal.hessian) full_.copy_lower_to_own();
  // forces: J gets -lambda (dF/dq + c_u dF/du)
  for (std::size_t t = 0; t < model_.forces.size(); ++t) {
    if (pool && force_elements_[t] > 0) pool->finish_parts_before(force_parts_end_[t]);
    term_in.workspace = workspace_.force(t);
    model_.forces[t]->accumulate(term_in, forces);
  }
}

void NewtonSystem::split_into_parts() {
  const int parts = kPartsPerThread * pool_->size();
  // the element round: `parts` parts of each term with element values, in the serial order of the
  // terms
  element_parts_.clear();
  energy_parts_end_.assign(energy_elements_.size(), 0);
  force_parts_end_.assign(force_elements_.size(), 0);
  for (int kind = 0; kind < 2; ++kind) {
    const std::vector<std::size_t>& elements = kind == 0 ? energy_elements_ : force_elements_;
    for (std::size_t t = 0; t < elements.size(); ++t) {
      if (elements[t] == 0) continue;
      for (int part = 0; part < parts; ++part) {
        const auto [first, last] = WorkerPool::range(elements[t], part, parts);
        element_parts_.push_back({kind == 1, t, first, last});
      }
      (kind == 0 ? energy_parts_end_ : force_parts_end_)[t] =
          static_cast<int>(element_parts_.size());
    }
  }
  // the kinematics round: spring k's reference twist reads the frames of its two edges: in the
  // kinematics round when the part that computes both edges computes it too, else on the calling
  // thread between the rounds
  kinematics_parts_ = parts;
  const std::size_t edges = framed_edge_count(model_);
  std::vector<int> part_of_edge(edges);
  for (int part = 0; part < parts; ++part) {
    const auto [e0, e1] = WorkerPool::range(edges, part, parts);
    for (std::size_t e = e0; e < e1; ++e) part_of_edge[e] = part;
  }
  twists_in_part_.assign(static_cast<std::size_t>(parts), {});
  twists_between_parts_.clear();
  for (std::size_t k = 0; k < framed_spring_count(model_); ++k) {
    const BendTwistSpring& spring = framed_spring(model_, k);
    const int part = part_of_edge[static_cast<std::size_t>(spring.edge_a)];
    if (part == part_of_edge[static_cast<std::size_t>(spring.edge_b)])
      twists_in_part_[static_cast<std::size_t>(part)].push_back(k);
    else
      twists_between_parts_.push_back(k);
  }
}

void NewtonSystem::evaluate_in_parallel(const RodFrames& frames, EvalInput& in,
                                        EnergyOutput& internal, EnergyOutput& load,
                                        ForceOutput& forces, double lambda,
                                        bool separate_load_hessian) {
  resize_kinematics(model_, frames, kin_);
  WorkerPool& pool = *pool_;
  // two rounds. 1: edge frames, and the reference twists of the springs whose two edges the same
  // part computes; meanwhile the caller zeroes the outputs.
  pool.run(
      kinematics_parts_,
      [&](int part) {
        const auto [e0, e1] = WorkerPool::range(kin_.edge.size(), part, kinematics_parts_);
        compute_edge_kinematics(model_, frames, in.q, e0, e1, kin_);
        const auto [z0, z1] =
            WorkerPool::range(kin_.shell_edge_tau.size(), part, kinematics_parts_);
        compute_shell_edge_kinematics(model_, in.q, z0, z1, kin_);
        for (std::size_t k : twists_in_part_[static_cast<std::size_t>(part)])
          compute_reference_twist(model_, frames, k, k + 1, kin_);
      },
      [&] { clear_outputs(internal.hessian != nullptr, separate_load_hessian); });
  // the other reference twists (springs across parts: a few at the parts' ends and junctions)
  for (std::size_t k : twists_between_parts_)
    compute_reference_twist(model_, frames, k, k + 1, kin_);
  // 2: the terms' element values (they read any kinematics), term after term in the serial order;
  // the caller accumulates the terms in the serial order meanwhile, each term with element values
  // once its parts have finished (prepare() writes only the term's own storage, accumulate() adds
  // its stored values: the sums of one thread, in its order)
  in.prepared = true;
  pool.run(
      static_cast<int>(element_parts_.size()),
      [&](int part) {
        const ElementPart& e = element_parts_[static_cast<std::size_t>(part)];
        EvalInput term_in = in;
        if (e.force) {
          term_in.workspace = workspace_.force(e.term);
          model_.forces[e.term]->prepare(term_in, e.first, e.last, forces);
        } else {
          const Energy& energy = *model_.energies[e.term];
          term_in.workspace = workspace_.energy(e.term);
          energy.prepare(term_in, e.first, e.last, energy.is_external_load() ? load : internal);
        }
      },
      [&] { accumulate_terms(in, internal, load, forces, lambda, separate_load_hessian, &pool); });
}

void NewtonSystem::gather_residual() {
  for (std::size_t k = 0; k < free_.size(); ++k) residual_free_[k] = residual_[free_[k]];
  residual_norm_ = residual_free_.norm();
}

std::string NewtonSystem::describe_non_finite(const VecX& y) const {
  const DofMap& dofs = model_.dofs;
  auto where = [&](int d) {
    if (dofs.is_position(d)) return "node " + std::to_string(d / 3) + " (" + "xyz"[d % 3] + ")";
    if (dofs.is_twist(d)) return "twist of edge " + std::to_string(d - dofs.twist(0));
    if (dofs.is_joint_twist(d))
      return "twist of rod-shell joint edge " + std::to_string(d - dofs.joint_twist(0));
    return "mid-edge rotation xi of shell edge " + std::to_string(d - dofs.xi(0));
  };
  // a non-finite unknown first (it makes the forces around it non-finite), then the largest
  // residual
  for (int d = 0; d < dofs.size(); ++d)
    if (!std::isfinite(y[d]))
      return "the value of " + where(d) + " is " + fmt::format("{:g}", y[d]);
  int worst = -1;
  double worst_value = 0.0;
  for (int d : free_) {
    const double v = std::abs(residual_[d]);
    if (worst < 0 || !(v <= worst_value)) {
      worst = d;
      worst_value = v;
      if (std::isnan(v)) break;
    }
  }
  if (worst < 0 || std::isfinite(residual_norm_))
    return fmt::format("the energy ({:.3g} J)", merit_base_);
  return "the force residual (" + fmt::format("||f|| = {:.3g} N, ", residual_norm_) +
         "largest at " + where(worst) +
         fmt::format(": {:.3g} N; external force there {:.3g} N)", residual_[worst],
                     force_[worst] - load_gradient_[worst]);
}

double NewtonSystem::force_scale(const NewtonProblem& p) const {
  const double external = sum_over(free_, [&](int i) {
    const double e = p.load_factor * (load_gradient_[i] - force_[i]);
    return e * e;
  });
  return free_inertial_norm() + std::sqrt(external);
}

double NewtonSystem::round_off_magnitude(const DofMap& dofs, const VecX& y, int j,
                                         double least_position) const {
  return dofs.is_position(j) ? std::max(std::abs(y[j]), least_position) : std::abs(y[j]) + 1.0;
}

double NewtonSystem::diagonal_round_off(const VecX& y) const {
  const double* values = full_.matrix().valuePtr();
  const DofMap& dofs = model_.dofs;
  const double sum = sum_over(free_, [&](int i) {
    const double term =
        std::abs(values[diagonal_slot_full_[i]]) * round_off_magnitude(dofs, y, i, 0.0);
    return term * term;
  });
  return 2.0 * kRoundOffFactor * std::numeric_limits<double>::epsilon() * std::sqrt(sum);
}

double NewtonSystem::excess_over_round_off(const VecX& y, double tolerance, double least_position) {
  // phi_i = eps (sum_j |J_ij| y~_j + |c_m M (y - y_pred)|_i + |dE_int/dq|_i + |dE_load/dq|_i +
  // |F|_i) with y~ = max(|y|, least_position) for positions and |y| + 1 rad for angles: the error
  // of f_i from rounding the unknowns (relative eps of each coordinate; frames are unit vectors,
  // eps rad) and the sum
  const SparseMatrix& J = full_.matrix();
  const DofMap& dofs = model_.dofs;
  const double* values = J.valuePtr();
  constexpr double eps = std::numeric_limits<double>::epsilon();
  const auto excess_over_floor = [&] {
    double excess = 0.0;
    for (int i : free_) {
      const double terms = std::abs(inertial_[i]) + std::abs(gradient_[i]) +
                           std::abs(load_gradient_[i]) + std::abs(force_[i]);
      const double floor = kRoundOffFactor * eps * (floor_[i] + terms);
      const double over = std::max(std::abs(residual_[i]) - floor, 0.0);
      excess += over * over;
    }
    return std::sqrt(excess);
  };
  // the diagonal terms of the sums alone first: a lower bound of the floor, whose excess bounds the
  // excess over the whole floor; the pass over J only if that bound is above the tolerance
  for (int j = 0; j < dofs.size(); ++j) {
    magnitude_[j] = round_off_magnitude(dofs, y, j, least_position);
    floor_[j] = std::abs(values[diagonal_slot_full_[j]]) * magnitude_[j];
  }
  const double bound = excess_over_floor();
  if (bound <= tolerance) return bound;
  floor_.setZero();
  const int* starts = J.outerIndexPtr();
  const int* rows = J.innerIndexPtr();
  const int* sources = full_.value_sources().data();
  for (int j = 0; j < J.outerSize(); ++j) {
    const double magnitude_j = magnitude_[j];
    if (!symmetric_) {  // an upper entry's value is its own or its lower twin's (value_sources)
      for (int p = starts[j]; p < starts[j + 1]; ++p)
        floor_[rows[p]] += std::abs(values[sources[p]]) * magnitude_j;
      continue;
    }
    // J symmetric, its lower triangle complete: J_ij (i > j) also stands for J_ji
    double upper = 0.0;
    for (int p = starts[j]; p < starts[j + 1]; ++p) {
      const int i = rows[p];
      if (i < j) continue;
      const double a = std::abs(values[p]);
      floor_[i] += a * magnitude_j;
      if (i > j) upper += a * magnitude_[i];
    }
    floor_[j] += upper;
  }
  return excess_over_floor();
}

StepStatus NewtonSystem::newton_direction(bool chord, bool& shifted, int& factorizations,
                                          std::string& message) {
  const double* full = full_.matrix().valuePtr();
  double* values = free_matrix_.valuePtr();
  const int nf = static_cast<int>(free_.size());
  const auto gather = [&] {
    for (std::size_t k = 0; k < gather_.size(); ++k) values[k] = full[gather_[k]];
  };
  if (!chord && !solver_reads_full_) gather();
  const bool need_definite = options_.line_search.enabled && merit_ == Merit::incremental_potential;

  shifted = false;
  double shift = 0.0;
  double next_shift = kInitialShift;
  for (int attempt = 0; !chord; ++attempt) {
    const bool through = attempt == 0 && solver_reads_full_;
    const Factorization f =
        through ? solver_->factorize_through(full, options_.singular_pivot_tolerance)
                : solver_->factorize(free_matrix_, options_.singular_pivot_tolerance);
    ++factorizations;
    const bool usable = f.status == Factorization::Status::positive_definite ||
                        f.status == Factorization::Status::general ||
                        (f.status == Factorization::Status::indefinite && !need_definite);
    if (usable) break;
    if (through) gather();  // the shifts below change a copy
    if (attempt == 0 && !free_matrix_.coeffs().allFinite()) {
      message = "the Newton matrix has non-finite entries";
      return StepStatus::non_finite;
    }
    if (attempt >= options_.max_shift_attempts) {
      message = std::string("the Newton matrix stayed ") +
                (f.status == Factorization::Status::singular ? "singular" : "indefinite") +
                fmt::format(" after diagonal shifts up to {:.3g} times each row's diagonal", shift);
      return StepStatus::linear_solve_failed;
    }
    // J + mu D, D = diag(|J_kk|) (Marquardt's scaling): every row shifted by mu times its own
    // diagonal (its column's largest entry if the diagonal is zero), mu growing tenfold per attempt
    if (attempt == 0)
      for (int k = 0; k < nf; ++k) {
        const double d = std::abs(full[gather_[diagonal_slot_free_[k]]]);
        shift_scale_[k] = d > 0.0 ? d : column_magnitude(k);
      }
    for (int k = 0; k < nf; ++k)
      values[diagonal_slot_free_[k]] += (next_shift - shift) * shift_scale_[k];
    shift = next_shift;
    next_shift *= 10.0;
    shifted = true;
  }
  solver_->solve(residual_free_, step_free_);
  step_free_ = -step_free_;
  if (!step_free_.allFinite()) {
    message = "the Newton step is not finite";
    return StepStatus::non_finite;
  }
  step_.setZero();
  for (int k = 0; k < nf; ++k) step_[free_[k]] = step_free_[k];
  return StepStatus::converged;
}

double NewtonSystem::column_magnitude(int k) const {
  const double* full = full_.matrix().valuePtr();
  double largest = 0.0;
  for (int p = free_matrix_.outerIndexPtr()[k]; p < free_matrix_.outerIndexPtr()[k + 1]; ++p)
    if (std::isfinite(full[gather_[p]])) largest = std::max(largest, std::abs(full[gather_[p]]));
  return largest > 0.0 ? largest : 1.0;
}

double NewtonSystem::largest_velocity_change(const NewtonProblem& p, const VecX& step_free) const {
  // a static solve (c_u = 0) has no velocity: the test never passes
  if (!(p.velocity_scale > 0.0)) return std::numeric_limits<double>::infinity();
  return step_free.size() == 0 ? 0.0 : p.velocity_scale * step_free.cwiseAbs().maxCoeff();
}

bool NewtonSystem::step_is_negligible() const {
  const int num_position_dofs = 3 * model_.dofs.num_nodes;
  for (std::size_t k = 0; k < free_.size(); ++k) {
    const double limit = free_[k] < num_position_dofs ? options_.step_tolerance * length_scale_
                                                      : options_.step_tolerance;
    if (!(std::abs(step_free_[k]) <= limit)) return false;
  }
  return true;
}

double NewtonSystem::free_inertial_norm() const {
  return std::sqrt(sum_over(free_, [this](int i) { return inertial_[i] * inertial_[i]; }));
}

StepReport NewtonSystem::solve(const NewtonProblem& p, VecX& y) {
  Solve s(p);
  s.dismech = options_.stopping == StoppingRule::dismech;
  if (start_solve(s, y)) return std::move(s.report);
  for (int iteration = 1; iteration <= options_.max_iterations; ++iteration) {
    const Next next = iterate(s, y, iteration);
    if (next == Next::stop) return std::move(s.report);
    if (next == Next::retry) --iteration;  // a fresh Newton step from the same iterate
  }
  StepReport& report = s.report;
  report.status = StepStatus::max_iterations;
  report.message =
      fmt::format("Newton did not converge in {} iterations (residual {:.3g} N, tolerance {:.3g} N",
                  options_.max_iterations, s.residual_norm, s.tolerance) +
      (report.round_off_excess > 0.0
           ? fmt::format("; the last negligible step left {:.3g} N above the round-off floor)",
                         report.round_off_excess)
           : std::string(")"));
  return std::move(s.report);
}

double NewtonSystem::residual_tolerance(const Solve& s) const {
  return std::max(options_.force_tolerance_abs,
                  options_.force_tolerance * (s.initial_inertia + force_scale(s.problem)));
}

bool NewtonSystem::start_solve(Solve& s, const VecX& y) {
  StepReport& report = s.report;
  report.residual_history.reserve(options_.max_iterations + 1);
  report.line_search_steps.reserve(options_.max_iterations);
  if (!evaluate(s.problem, y, true)) {
    report.status = StepStatus::non_finite;
    report.message = "non-finite forces or energy at the initial guess: " + describe_non_finite(y);
    return true;
  }
  // the force scale: loads and inertia at each iterate, plus the inertia of the predicted motion
  // c_m M (y_0 - y_pred) at the initial guess (see NewtonOptions::force_tolerance)
  s.initial_inertia = free_inertial_norm();
  // py-dismech's rule (StoppingRule::dismech) tests the residual of the iterate before each update
  // against fixed tolerances, and the update itself
  const DismechStopping& dm = options_.dismech;
  s.initial_residual = residual_norm_;
  s.tolerance = s.dismech ? std::max(dm.force_tolerance, dm.relative_tolerance * s.initial_residual)
                          : residual_tolerance(s);
  if (!std::isfinite(s.tolerance)) {
    report.status = StepStatus::non_finite;
    report.message =
        fmt::format("the force scale of the solve overflows (inertial + external forces {:.3g} N)",
                    s.initial_inertia + force_scale(s.problem));
    return true;
  }
  s.residual_norm = residual_norm_;
  report.residual_history.push_back(s.residual_norm);
  report.tolerance = s.tolerance;
  // (py-dismech: a solve without free DOFs has converged; with some, it takes at least one update)
  if (s.dismech ? free_.empty() : s.residual_norm <= s.tolerance) {
    report.criterion = StopCriterion::residual;
    return true;
  }
  // the cheap estimate of the round-off floor, once per solve (|J_ii| and |y| change little in a
  // solve)
  s.round_off_estimate = diagonal_round_off(y);
  return false;
}

NewtonSystem::Next NewtonSystem::iterate(Solve& s, VecX& y, int iteration) {
  StepReport& report = s.report;
  if (stops_at_round_off_floor(s, y)) return Next::stop;
  bool shifted = false;
  const StepStatus direction =
      newton_direction(s.chord, shifted, report.factorizations, report.message);
  if (direction != StepStatus::converged) {
    report.status = direction;
    return Next::stop;
  }
  if (solver_) report.linear_solver = solver_->name();
  report.iterations = iteration;
  if (shifted) ++report.regularized_iterations;
  // a Newton step below the step tolerance: not after a shifted matrix (a large shift shrinks the
  // step without the residual being small)
  if (!s.dismech && !shifted && step_is_negligible() && takes_negligible_step(s, y))
    return Next::stop;

  // merit at a = 0 and its slope phi'(0) = f . d (psi'(0) = -2 psi(0) for the residual norm)
  const bool potential = merit_ == Merit::incremental_potential;
  const double slope = residual_free_.dot(step_free_);
  // a chord direction that is not a descent direction: a fresh Newton step from the same iterate
  if (s.chord && !(slope < 0.0)) return retry_without_chord(s, y);
  const MeritLine line{potential, potential ? merit_base_ : 0.5 * s.residual_norm * s.residual_norm,
                       slope, force_.dot(step_), s.problem.load_factor};
  const bool last = likely_last(s);
  // every iterate is reached by a collision-free straight path: the line search starts at the
  // largest fraction of the step the continuous collision checks allow
  double alpha = max_step_fraction(s.problem, y, step_);
  const double min_step = options_.line_search.min_step;
  if (alpha < min_step) {
    report.status = StepStatus::line_search_failed;
    report.message =
        fmt::format(
            "a continuous collision check stops the Newton step at fraction {:.3g} < {:.3g}, ",
            alpha, min_step) +
        "the line search's minimum (rod edges about to pass through each other)";
    return Next::stop;
  }
  // a chord step may follow from the second iteration on (the first iteration's contraction
  // measures how well the Jacobian at the initial guess predicts the whole step, including the
  // jump of the prescribed motion; measured on the flagellated robot, a chord step after it
  // contracted by 0.37 only)
  const bool chord_may_follow = options_.chord_contraction > 0.0 && iteration >= 2;
  bool any_non_finite = false;
  if (!search_line(s.problem, y, alpha, line, !last && !chord_may_follow, any_non_finite)) {
    // the chord direction failed: a fresh Newton step from the same iterate
    if (s.chord) return retry_without_chord(s, y);
    fail_line_search(s, any_non_finite);
    return Next::stop;
  }
  return accept_trial(s, y, alpha, last || chord_may_follow, chord_may_follow, iteration);
}

bool NewtonSystem::stops_at_round_off_floor(Solve& s, const VecX& y) {
  // a residual within reach of its round-off floor (cheap estimate from the diagonal): if every
  // entry is within its floor up to the tolerance, no iteration can improve y
  if (s.dismech || !(s.residual_norm <= s.tolerance + s.round_off_estimate)) return false;
  const double excess = excess_over_round_off(y, s.tolerance, 0.0);
  s.report.round_off_excess = excess;
  if (!(excess <= s.tolerance)) return false;
  s.report.criterion = StopCriterion::round_off;
  return true;
}

bool NewtonSystem::takes_negligible_step(Solve& s, VecX& y) {
  // if every residual entry is within its round-off floor (up to the tolerance), take the step
  // whole, no line search (the merit's change is then below its round-off), and stop. A negligible
  // step with a residual above the floor (a stiff row) goes on.
  // Positions count at least as the nodes' mean spacing h here: where nothing is loaded and nothing
  // moves, the relative tolerance falls to ~1e-30 N and the rows of nodes near the origin have
  // floors below what the line search's merit resolves, so their steps stay negligible without
  // ending the solve (a rod resting on a rod at z = 0 failed after 12 dt halvings with 2e-22 N in
  // the rows of nodes at z = 1e-20 m). The step is taken whole, so the answer moves by it alone.
  StepReport& report = s.report;
  const double excess = excess_over_round_off(y, s.tolerance, node_spacing_);
  if (!(excess <= s.tolerance)) {
    report.round_off_excess = excess;
    return false;
  }
  y += step_;
  if (!evaluate(s.problem, y, false)) {
    report.status = StepStatus::non_finite;
    report.message =
        "non-finite forces or energy after a negligible Newton step: " + describe_non_finite(y);
    return true;
  }
  report.residual_history.push_back(residual_norm_);
  report.line_search_steps.push_back(1.0);
  report.criterion = StopCriterion::round_off;
  report.round_off_excess = excess;
  return true;
}

bool NewtonSystem::likely_last(const Solve& s) const {
  // Under quadratic convergence r_{k+1} ~ r_k^3 / r_{k-1}^2. With the dismech rule the residual
  // tests are known now, and the velocity test passes if the full step passes it (the line search
  // only shortens it; stiff segments' turns may not, then the Jacobian is evaluated later).
  const std::vector<double>& history = s.report.residual_history;
  if (s.dismech)
    return s.residual_norm < s.tolerance ||
           largest_velocity_change(s.problem, step_free_) < options_.dismech.velocity_tolerance;
  return history.size() >= 2 &&
         std::pow(s.residual_norm, 3) <= s.tolerance * std::pow(history[history.size() - 2], 2);
}

bool NewtonSystem::refresh_jacobian(Solve& s, const VecX& y) {
  if (evaluate(s.problem, y, true)) return true;
  s.report.status = StepStatus::non_finite;
  s.report.message = "non-finite Jacobian at an accepted Newton iterate";
  return false;
}

NewtonSystem::Next NewtonSystem::retry_without_chord(Solve& s, const VecX& y) {
  if (!refresh_jacobian(s, y)) return Next::stop;
  s.chord = false;
  return Next::retry;
}

bool NewtonSystem::search_line(const NewtonProblem& p, const VecX& y, double& alpha,
                               const MeritLine& line, bool trial_jacobian, bool& any_non_finite) {
  const LineSearchOptions& ls = options_.line_search;
  const bool bodies = ls.enabled && !bodies_.empty();
  if (!stiff_segments_.empty()) stiff_segments_.fit(y, step_);
  if (!stiff_segments_.empty() || bodies) force_base_ = force_;
  // the stiff segments' curve; at its first rejection the same fraction with every free body
  // turned by its fitted rotation, whose curve the search then follows if it did better
  bool turn_bodies = false, bodies_tried = false;
  while (alpha >= ls.min_step) {
    Trial trial =
        try_step(p, y, alpha, turn_bodies ? bodies_ : stiff_segments_, line, trial_jacobian);
    if (trial.status == TrialStatus::rejected && bodies && !bodies_tried) {
      bodies_tried = true;
      bodies_.fit(y, step_);
      const Trial turned = try_step(p, y, alpha, bodies_, line, trial_jacobian);
      turn_bodies = turned.status == TrialStatus::accepted ||
                    (turned.status == TrialStatus::rejected && turned.excess < trial.excess);
      if (turn_bodies) trial = turned;
    }
    if (trial.status == TrialStatus::accepted) return true;
    if (trial.status == TrialStatus::non_finite) {
      any_non_finite = true;
      if (!ls.enabled) return false;
    }
    alpha *= ls.shrink;
  }
  return false;
}

void NewtonSystem::fail_line_search(Solve& s, bool any_non_finite) {
  s.report.status = any_non_finite ? StepStatus::non_finite : StepStatus::line_search_failed;
  s.report.message =
      any_non_finite
          ? fmt::format("non-finite forces or energy along the Newton step (residual {:.3g} N)",
                        s.residual_norm)
          : fmt::format(
                "line search found no decrease down to step fraction {:.3g} (residual {:.3g} N)",
                options_.line_search.min_step, s.residual_norm);
}

NewtonSystem::Next NewtonSystem::accept_trial(Solve& s, VecX& y, double alpha, bool jacobian_next,
                                              bool chord_may_follow, int iteration) {
  StepReport& report = s.report;
  StopCriterion dismech_criterion = StopCriterion::none;
  if (s.dismech) {
    // the update applied (trial - y: stiff segments may have turned it off the line alpha d)
    const DismechStopping& dm = options_.dismech;
    for (std::size_t k = 0; k < free_.size(); ++k) step_free_[k] = trial_[free_[k]] - y[free_[k]];
    dismech_criterion = s.residual_norm < dm.force_tolerance ? StopCriterion::residual
                        : s.residual_norm < dm.relative_tolerance * s.initial_residual
                            ? StopCriterion::relative_residual
                        : largest_velocity_change(s.problem, step_free_) < dm.velocity_tolerance
                            ? StopCriterion::velocity_change
                            : StopCriterion::none;
  }
  y.swap(trial_);
  if (s.chord) ++report.chord_iterations;
  const double contraction = residual_norm_ / s.residual_norm;
  s.residual_norm = residual_norm_;
  report.residual_history.push_back(s.residual_norm);
  report.line_search_steps.push_back(alpha);
  if (!s.dismech) {
    s.tolerance = residual_tolerance(s);
    report.tolerance = s.tolerance;
  }
  if (s.dismech ? dismech_criterion != StopCriterion::none : s.residual_norm <= s.tolerance) {
    report.criterion = s.dismech ? dismech_criterion : StopCriterion::residual;
    return Next::stop;
  }
  // a trial evaluated without the Jacobian that lies within its round-off floor (measured with the
  // Jacobian of the iterate before, whose magnitudes differ from its own in the last digits) ends
  // the solve here, saving the Jacobian the next iteration would evaluate only to find this
  // (1601-node rods: their relative tolerance lies below the floor, and this Jacobian was a third
  // of the assembly)
  if (jacobian_next && stops_at_round_off_floor(s, y)) return Next::stop;
  s.chord = chord_may_follow && contraction <= options_.chord_contraction;
  // the trial points were evaluated without the Jacobian: evaluate it at y unless a chord step
  // follows
  if (jacobian_next && !s.chord && iteration < options_.max_iterations && !refresh_jacobian(s, y))
    return Next::stop;
  return Next::iterate;
}

NewtonSystem::Trial NewtonSystem::try_step(const NewtonProblem& p, const VecX& y, double alpha,
                                           const StiffSegments& curve, const MeritLine& line,
                                           bool jacobian) {
  if (curve.empty()) {
    trial_ = y + alpha * step_;
  } else {
    curve.trial(y, step_, alpha, trial_);
    // the turned groups leave the straight line: keep the curve only if the chord from y to the
    // trial passes every continuous collision check (else the straight step, checked by the caller)
    path_ = trial_ - y;
    if (max_step_fraction(p, y, path_) < 1.0) trial_ = y + alpha * step_;
  }
  if (!evaluate(p, trial_, jacobian)) return {TrialStatus::non_finite, 0.0};
  const LineSearchOptions& ls = options_.line_search;
  if (!ls.enabled) return {TrialStatus::accepted, 0.0};
  double phi, bound;
  if (line.potential) {
    // work of the ForceTerms along the path, trapezoidal rule
    double work;
    if (curve.empty()) {
      work = 0.5 * alpha * (line.force_along + force_.dot(step_));
    } else {
      path_ = trial_ - y;
      work = 0.5 * (force_base_ + force_).dot(path_);
    }
    phi = merit_base_ - line.lambda * work;
    const double roundoff =
        1e-13 * (std::abs(merit_base_) + std::abs(line.phi0) + std::abs(line.lambda * work));
    bound = line.phi0 + ls.armijo * alpha * line.slope + roundoff;
  } else {
    const double r = residual_norm_;
    phi = 0.5 * r * r;
    bound = (1.0 - 2.0 * ls.armijo * alpha) * line.phi0;
  }
  return {phi <= bound ? TrialStatus::accepted : TrialStatus::rejected, phi - bound};
}

double NewtonSystem::max_step_fraction(const NewtonProblem& p, const VecX& y, const VecX& dy) {
  const bool mapped = p.end_scale != 1.0 && p.velocity_origin;
  if (mapped) {
    end_ = *p.velocity_origin + p.end_scale * (y - *p.velocity_origin);
    end_step_ = p.end_scale * dy;
  }
  // the end configuration's time: t_k + dt = p.time + (1/alpha - 1) h with h = 1 / velocity_scale
  const double end_time =
      mapped && p.velocity_scale > 0.0 ? p.time + (p.end_scale - 1.0) / p.velocity_scale : p.time;
  return collision_free_fraction(mapped ? end_ : y, mapped ? end_step_ : dy, end_time, end_time);
}

double NewtonSystem::collision_free_fraction(const VecX& q, const VecX& dq, double t_start,
                                             double t_end) {
  double fraction = 1.0;
  for (std::size_t t = 0; t < model_.energies.size(); ++t)
    fraction = std::min(fraction, model_.energies[t]->max_step_fraction(
                                      model_, q, dq, t_start, t_end, workspace_.energy(t)));
  return fraction;
}

}  // namespace tendril
