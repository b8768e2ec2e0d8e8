#include "tendril/fit/vine_transcribed_estimation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "tendril/core/error.hpp"
#include "tendril/fit/ipopt_estimation_nlp.hpp"
#include "tendril/fit/joint_estimation_setup.hpp"
#include "tendril/fit/sparse_levenberg_marquardt.hpp"
#include "tendril/vine/applied_forces.hpp"
#include "tendril/vine/step_second_derivatives.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::fit::detail {

namespace {

using vine::RowKind;
using vine::RowSecondDerivatives;
using vine::RowSpec;
using vine::VineModel;
using vine::VineState;

/// A sparse matrix's entries given one by one in a fixed order: the first pass records the pattern
/// (repeated positions share one entry), later passes add values into that pattern's slots.
class SparsePattern {
 public:
  void record(int row, int col) {
    const auto [it, inserted] =
        index_.try_emplace((static_cast<std::int64_t>(row) << 32) | static_cast<std::uint32_t>(col),
                           static_cast<int>(rows_.size()));
    if (inserted) {
      rows_.push_back(row);
      cols_.push_back(col);
    }
    slot_.push_back(it->second);
  }
  const std::vector<int>& rows() const { return rows_; }
  const std::vector<int>& cols() const { return cols_; }
  int slot(std::size_t emitted) const { return slot_[emitted]; }

 private:
  std::unordered_map<std::int64_t, int> index_;
  std::vector<int> rows_, cols_, slot_;
};

/// Adds the entries of one pass into `values` (nullptr: records them into `pattern`).
class Emitter {
 public:
  Emitter(SparsePattern& pattern, double* values) : pattern_(pattern), values_(values) {}
  void add(int row, int col, double value) {
    if (values_)
      values_[pattern_.slot(next_++)] += value;
    else
      pattern_.record(row, col);
  }
  /// An entry of a symmetric matrix, stored in the lower triangle.
  void add_lower(int a, int b, double value) { add(std::max(a, b), std::min(a, b), value); }

 private:
  SparsePattern& pattern_;
  double* values_;
  std::size_t next_ = 0;
};

class TranscribedProblem {
 public:
  TranscribedProblem(const VineModel& model, const VineState& start,
                     const std::vector<MeasuredFrame>& frames,
                     const JointEstimationOptions& options)
      : model_(model), frames_(frames), options_(options), stepper_(model) {
    check_estimation_input(model, frames, options);
    if (model.springs != vine::SpringIntegration::explicit_forces)
      throw InputError("vine.springs", "implicit",
                       "explicit (the transcribed joint estimation's dynamics rows)");
    if (model.friction != 0.0)
      throw InputError("vine.friction", fmt::format("{}", model.friction),
                       "0 (the transcribed joint estimation is frictionless)");
    if (options.eliminate_model_residuals || options.bilateral_contacts ||
        options.first_state_joint_velocities)
      throw InputError(
          "joint_estimation.formulation", "transcribed",
          "without eliminate_model_residuals, bilateral_contacts and first_state_joint_velocities "
          "(step-map options)");
    n_ = model.num_dofs();
    pins_ = model.num_pins();
    nk_ = options.per_joint ? pins_ : 1;
    first_step_ = frames.front().step;
    steps_ = frames.back().step - first_step_;
    if (steps_ < 1)
      throw InputError("joint_estimation.frames", std::to_string(frames.size()),
                       "frames spanning at least one step");
    dt_ = model.dt;
    m_ref_ = stepper_.mass_scale();
    k_scale_ = options.stiffness_scale > 0.0 ? options.stiffness_scale : model.stiffness[0];
    c_scale_ = options.damping_scale > 0.0 ? options.damping_scale : model.damping[0];
    k_max_ = options.stiffness_max;
    c_max_ = damping_upper_bound(model, options);
    weights_ = model_residual_weights(model, options);
    if (options.multiplier_sigma < 0.0 || !std::isfinite(options.multiplier_sigma))
      throw InputError("joint_estimation.multiplier_sigma",
                       fmt::format("{}", options.multiplier_sigma),
                       "a finite number >= 0 [m/s] (0: no prior on the multipliers)");
    prior_weight_ = options.multiplier_sigma > 0.0
                        ? 1.0 / (options.multiplier_sigma * options.multiplier_sigma)
                        : 0.0;
    minv_.resize(n_);
    for (int b = 0; b < model.num_bodies; ++b)
      minv_.segment<3>(3 * b) << 1.0 / model.mass[b], 1.0 / model.mass[b], 1.0 / model.inertia[b];
    for (int j = 0; j < pins_; ++j) {
      VecX e = VecX::Zero(n_);
      vine::add_pin_torque(model, j, 1.0, e);
      torque_map_.push_back(e);
    }
    const int joint_rows = 2 * model.num_bodies;
    joint_specs_.assign(stepper_.equality_rows().begin(),
                        stepper_.equality_rows().begin() + joint_rows);
    growth_specs_.assign(stepper_.equality_rows().begin() + joint_rows,
                         stepper_.equality_rows().end());
    if (std::isnan(options.min_prismatic_extension) ||
        options.min_prismatic_extension == std::numeric_limits<double>::infinity())
      throw InputError("joint_estimation.min_prismatic_extension",
                       fmt::format("{}", options.min_prismatic_extension),
                       "a number [m] or -inf (no bound)");
    if (std::isfinite(options.min_prismatic_extension))
      for (const RowSpec& spec : joint_specs_)
        if (spec.kind == RowKind::prismatic_a) {
          const double length = spec.d_a + spec.d_b + options.min_prismatic_extension;
          if (length <= 0.0)
            throw InputError(
                "joint_estimation.min_prismatic_extension",
                fmt::format("{}", options.min_prismatic_extension),
                fmt::format("more than -{} m (the joint's two half lengths)", spec.d_a + spec.d_b));
          length_specs_.push_back(spec);
          min_length_squared_.push_back(length * length);
        }
    frame_of_step_.assign(steps_ + 1, -1);
    for (std::size_t f = 0; f < frames.size(); ++f)
      frame_of_step_[frames[f].step - first_step_] = static_cast<int>(f);
    // per step: the joint, growth and known-contact rows, their multipliers' and constraints'
    // offsets
    rows_.resize(steps_);
    y_offset_.assign(steps_ + 1, 0);
    g_offset_.assign(steps_ + 1, 0);
    for (int i = 0; i < steps_; ++i) {
      rows_[i] = joint_specs_;
      rows_[i].insert(rows_[i].end(), growth_specs_.begin(), growth_specs_.end());
      for (const KnownContact& kc : options.contacts)
        if (first_step_ + i >= kc.first_step && first_step_ + i <= kc.last_step) {
          RowSpec spec;
          spec.kind = RowKind::contact;
          spec.body_b = model.contact_points[kc.point].body;
          spec.d_b = model.contact_points[kc.point].offset;
          spec.obstacle = kc.obstacle;
          rows_[i].push_back(spec);
        }
      const int rows = static_cast<int>(rows_[i].size());
      y_offset_[i + 1] = y_offset_[i] + rows;
      g_offset_[i + 1] = g_offset_[i] + 2 * n_ + rows;
    }
    rates_.resize(steps_ + 1);
    const double start_time = start.time + first_step_ * dt_;
    for (int i = 0; i <= steps_; ++i) rates_[i] = stepper_.joint_growth_rates(start_time + i * dt_);
    times_.resize(steps_ + 1);
    for (int i = 0; i <= steps_; ++i) times_[i] = start_time + i * dt_;
    simulate_initial_guess(start);
    // the Jacobian's pattern, recorded by one pass (the Hessian's when first asked for)
    VecX g;
    Emitter jac(jacobian_, nullptr);
    constraint_entries(x0_, g, jac);
  }

  int num_variables() const { return k(0) + 2 * nk_; }
  int num_constraints() const {
    return first_length_row() + static_cast<int>(length_specs_.size());
  }
  /// The first of the first state's prismatic length rows (after its joint and growth rows).
  int first_length_row() const {
    return g_offset_[steps_] + 4 * model_.num_bodies + static_cast<int>(growth_specs_.size());
  }
  const std::vector<int>& jacobian_rows() const { return jacobian_.rows(); }
  const std::vector<int>& jacobian_cols() const { return jacobian_.cols(); }
  const std::vector<int>& hessian_rows() const { return hessian().rows(); }
  const std::vector<int>& hessian_cols() const { return hessian().cols(); }
  const VecX& initial_guess() const { return x0_; }
  int steps() const { return steps_; }
  int first_step() const { return first_step_; }
  int num_parameters() const { return nk_; }
  int dofs() const { return n_; }
  double stiffness_scale() const { return k_scale_; }
  double damping_scale() const { return c_scale_; }
  double time(int i) const { return times_[i]; }

  // variable offsets
  int z(int i) const { return 2 * n_ * i; }
  int r(int i) const { return 2 * n_ * (steps_ + 1) + 2 * n_ * i; }
  int y(int i) const { return r(steps_) + y_offset_[i]; }
  int k(int j) const { return y(steps_) + j; }
  int c(int j) const { return k(0) + nk_ + j; }
  /// The first constraint row of step i's block and of the first state's rows (i = N).
  int row(int i) const { return g_offset_[i]; }

  /// 0 <= K, C <= their maxima, known contacts' multipliers >= 0, the rest free; all rows
  /// equalities.
  void bounds(double* x_l, double* x_u, double* g_l, double* g_u) const {
    std::fill(x_l, x_l + num_variables(), -2e19);
    std::fill(x_u, x_u + num_variables(), 2e19);
    for (int i = 0; i < steps_; ++i)
      for (std::size_t a = 0; a < rows_[i].size(); ++a)
        if (rows_[i][a].kind == RowKind::contact) x_l[y(i) + static_cast<int>(a)] = 0.0;
    for (int j = 0; j < nk_; ++j) {
      x_l[k(j)] = x_l[c(j)] = 0.0;
      x_u[k(j)] = std::min(k_max_ / k_scale_, 2e19);
      x_u[c(j)] = std::min(c_max_ / c_scale_, 2e19);
    }
    std::fill(g_l, g_l + num_constraints(), 0.0);
    std::fill(g_u, g_u + num_constraints(), 0.0);
    for (std::size_t a = 0; a < length_specs_.size(); ++a) {
      g_l[first_length_row() + static_cast<int>(a)] = min_length_squared_[a];
      g_u[first_length_row() + static_cast<int>(a)] = 2e19;
    }
  }

  /// g less its bound where it is violated: g on the equality rows, min(0, g - lower) on the length
  /// rows (what the pass penalises and the constraint violation).
  VecX violation(const VecX& g) const {
    VecX out = g;
    for (std::size_t a = 0; a < length_specs_.size(); ++a) {
      const int row = first_length_row() + static_cast<int>(a);
      out(row) = std::min(0.0, g(row) - min_length_squared_[a]);
    }
    return out;
  }

  /// The measured frames' chi-square (and the multipliers' prior) and, if asked, its gradient; data
  /// and model parts (the prior in the model part).
  double objective(const VecX& x, VecX* gradient, double* data = nullptr,
                   double* model = nullptr) const {
    double f = estimation_objective(model_, frames_, options_, weights_, steps_, r(0), x, gradient,
                                    data, model);
    if (prior_weight_ > 0.0) {
      const auto ys = x.segment(y(0), y(steps_) - y(0));
      const double prior = prior_weight_ * ys.squaredNorm();
      f += prior;
      if (model) *model += prior;
      if (gradient) gradient->segment(y(0), ys.size()) += 2.0 * prior_weight_ * ys;
    }
    return f;
  }

  /// g(x) and, if asked, the Jacobian values in the pattern's order; false (with `message`) if not
  /// finite.
  bool constraints(const VecX& x, VecX& g, VecX* jacobian, std::string& message) const {
    VecX values = VecX::Zero(static_cast<Eigen::Index>(jacobian_.rows().size()));
    Emitter e(const_cast<SparsePattern&>(jacobian_), values.data());
    constraint_entries(x, g, e);
    if (!g.allFinite() || !values.allFinite()) {
      message = "non-finite constraints (a zero-length prismatic joint?)";
      return false;
    }
    if (jacobian) *jacobian = std::move(values);
    return true;
  }

  /// Lower triangle of the Hessian of factor f + lambda . g in the pattern's order.
  bool exact_hessian(const VecX& x, double factor, const VecX& lambda, double* values,
                     std::string& message) const {
    std::fill(values, values + hessian().rows().size(), 0.0);
    Emitter e(hessian(), values);
    hessian_entries(x, factor, lambda, true, e);
    for (std::size_t a = 0; a < hessian().rows().size(); ++a)
      if (!std::isfinite(values[a])) {
        message = "non-finite Hessian";
        return false;
      }
    return true;
  }

  /// The objective's Gauss-Newton matrix (2 w dp^T dp, 2 R), the rest of the pattern 0.
  void gauss_newton(const VecX& x, double factor, double* values) const {
    std::fill(values, values + hessian().rows().size(), 0.0);
    Emitter e(hessian(), values);
    hessian_entries(x, factor, VecX::Zero(num_constraints()), false, e);
  }

  /// One-sigma uncertainties of K / K_scale, C / C_scale from [J^T J, A^T; A, 0] at x.
  VecX parameter_sigmas(const VecX& x, const VecX& jacobian_values) const {
    std::vector<double> values(hessian().rows().size());
    gauss_newton(x, 0.5, values.data());
    std::vector<Triplet> h, a;
    for (std::size_t e = 0; e < values.size(); ++e)
      h.emplace_back(hessian().rows()[e], hessian().cols()[e], values[e]);
    for (std::size_t e = 0; e < jacobian_.rows().size(); ++e)
      a.emplace_back(jacobian_.rows()[e], jacobian_.cols()[e],
                     jacobian_values(static_cast<Eigen::Index>(e)));
    VecX g;  // the length rows off their bound are left out
    std::string message;
    std::vector<int> inactive;
    if (constraints(x, g, nullptr, message))
      for (std::size_t b = 0; b < length_specs_.size(); ++b) {
        const int row = first_length_row() + static_cast<int>(b);
        if (g(row) > min_length_squared_[b] * (1.0 + 1e-6)) inactive.push_back(row);
      }
    return constrained_sigmas(num_variables(), num_constraints(), h, a, inactive, k(0), 2 * nk_);
  }

  /// The smallest normal impulse of the known contacts over the steps [N s] (+inf without any).
  double min_contact_impulse(const VecX& x) const {
    double smallest = std::numeric_limits<double>::infinity();
    for (int i = 0; i < steps_; ++i)
      for (std::size_t a = 0; a < rows_[i].size(); ++a)
        if (rows_[i][a].kind == RowKind::contact)
          smallest = std::min(smallest, m_ref_ * x(y(i) + static_cast<int>(a)));
    return smallest;
  }

  std::vector<MatX> observed(const VecX& x) const {
    std::vector<MatX> out;
    for (const MeasuredFrame& f : frames_) {
      MatX points;
      observe_vine(model_, x.segment(z(f.step - first_step_), n_), options_.observation,
                   static_cast<int>(f.points.rows()), points, nullptr);
      out.push_back(points);
    }
    return out;
  }

  // The trust-region pass (least_squares_pass below): variables w = x without r, i.e.
  // [Z_0 .. Z_N, y_0 .. y_{N-1}, K / K_scale, C / C_scale]; r is the dynamics rows' defect.
  int num_reduced_variables() const { return num_variables() - 2 * n_ * steps_; }
  VecX reduced(const VecX& x) const {
    VecX w(num_reduced_variables());
    w << x.head(r(0)), x.tail(num_variables() - y(0));
    return w;
  }
  /// x at w with r = 0.
  VecX with_zero_residuals(const VecX& w) const {
    VecX x = VecX::Zero(num_variables());
    x.head(r(0)) = w.head(r(0));
    x.tail(num_variables() - y(0)) = w.tail(num_variables() - y(0));
    return x;
  }
  int reduced_column(int col) const { return col < r(0) ? col : col - 2 * n_ * steps_; }
  bool is_residual_column(int col) const { return col >= r(0) && col < y(0); }

  /// The rows' weights in the least squares: sqrt(R) on the dynamics rows (so their squares are
  /// r^T R r with r the defect), `penalty` [s/m] on the joint, growth, contact and first-state
  /// rows.
  VecX row_weights(double penalty) const {
    VecX s = VecX::Constant(num_constraints(), penalty);
    for (int i = 0; i < steps_; ++i) s.segment(row(i), 2 * n_) = weights_.cwiseSqrt();
    return s;
  }

  /// The residuals at w: the measured points / sigma_p, then `weights` .* g(x(w), r = 0);
  /// |residual|^2 is the objective with r the defects plus the penalty.
  SparseResiduals least_squares(const VecX& w, bool with_jacobian, const VecX& weights) const {
    SparseResiduals out;
    const VecX x = with_zero_residuals(w);
    VecX g, values;
    if (!constraints(x, g, with_jacobian ? &values : nullptr, out.message)) return out;
    const double ws = 1.0 / options_.measurement_sigma;
    std::vector<VecX> data;
    std::vector<MatX> dpoints;
    int data_rows = 0;
    for (int i = 0; i <= steps_; ++i) {
      if (frame_of_step_[i] < 0) continue;
      dpoints.emplace_back();
      data.push_back(ws * frame_residual(model_, x.segment(z(i), n_), options_.observation,
                                         frames_[frame_of_step_[i]],
                                         with_jacobian ? &dpoints.back() : nullptr));
      data_rows += static_cast<int>(data.back().size());
    }
    const int prior_rows = prior_weight_ > 0.0 ? y(steps_) - y(0) : 0;  // y / sigma_y
    out.residual.resize(data_rows + num_constraints() + prior_rows);
    std::vector<Triplet> t;
    int row0 = 0;
    for (int i = 0, f = 0; i <= steps_; ++i) {
      if (frame_of_step_[i] < 0) continue;
      out.residual.segment(row0, data[f].size()) = data[f];
      if (with_jacobian)
        for (int a = 0; a < dpoints[f].rows(); ++a)
          for (int b = 0; b < n_; ++b)
            if (dpoints[f](a, b) != 0.0) t.emplace_back(row0 + a, z(i) + b, ws * dpoints[f](a, b));
      row0 += static_cast<int>(data[f++].size());
    }
    const VecX gap = violation(g);
    out.residual.segment(row0, num_constraints()) = weights.cwiseProduct(gap);
    const double prior_scale = std::sqrt(prior_weight_);
    out.residual.tail(prior_rows) = prior_scale * w.segment(reduced_column(y(0)), prior_rows);
    if (with_jacobian) {
      for (int a = 0; a < prior_rows; ++a)
        t.emplace_back(row0 + num_constraints() + a, reduced_column(y(0)) + a, prior_scale);
      for (std::size_t e = 0; e < jacobian_.rows().size(); ++e)
        if (!is_residual_column(jacobian_.cols()[e]) &&
            (jacobian_.rows()[e] < first_length_row() || gap(jacobian_.rows()[e]) < 0.0))
          t.emplace_back(row0 + jacobian_.rows()[e], reduced_column(jacobian_.cols()[e]),
                         weights(jacobian_.rows()[e]) * values(static_cast<Eigen::Index>(e)));
      out.jacobian.resize(static_cast<Eigen::Index>(out.residual.size()), num_reduced_variables());
      out.jacobian.setFromTriplets(t.begin(), t.end());
    }
    out.ok = out.residual.allFinite();
    if (!out.ok) out.message = "a residual is not finite";
    return out;
  }

  /// The least squares' residual curvature S = sum_k e_k d2e_k/dw2 at w (both triangles): with the
  /// multipliers lambda = 2 weights^2 g, 1/2 of the Lagrangian's exact Hessian (factor 1) less its
  /// Gauss-Newton part, i.e. the observation's curvature w e . d2p and 1/2 lambda . d2g, r's
  /// columns dropped.
  SparseMatrix least_squares_curvature(const VecX& w, const VecX& weights) const {
    const VecX x = with_zero_residuals(w);
    VecX g;
    std::string message;
    const std::size_t count = hessian().rows().size();
    std::vector<double> exact(count), gauss_newton_part(count);
    if (!constraints(x, g, nullptr, message) ||
        !exact_hessian(x, 1.0, 2.0 * weights.cwiseAbs2().cwiseProduct(violation(g)), exact.data(),
                       message))
      throw std::runtime_error("joint estimation: " + message);
    gauss_newton(x, 1.0, gauss_newton_part.data());
    std::vector<Triplet> t;
    for (std::size_t e = 0; e < count; ++e) {
      const int a = hessian().rows()[e], b = hessian().cols()[e];
      const double value = 0.5 * (exact[e] - gauss_newton_part[e]);
      if (is_residual_column(a) || is_residual_column(b) || value == 0.0) continue;
      t.emplace_back(reduced_column(a), reduced_column(b), value);
      if (a != b) t.emplace_back(reduced_column(b), reduced_column(a), value);
    }
    SparseMatrix s(num_reduced_variables(), num_reduced_variables());
    s.setFromTriplets(t.begin(), t.end());
    return s;
  }

 private:
  /// The Hessian's pattern, recorded by one pass at the guess on first use.
  SparsePattern& hessian() const {
    if (!hessian_recorded_) {
      Emitter record(hessian_, nullptr);
      hessian_entries(x0_, 1.0, VecX::Zero(num_constraints()), true, record);
      hessian_recorded_ = true;
    }
    return hessian_;
  }

  static bool used(const RowSpec& spec, int l) {
    return vine::row_entry_used(spec.kind, l) && (l >= 3 || spec.body_a >= 0);
  }
  /// The DOF of a row's local entry l (0 .. 5).
  static int dof(const RowSpec& spec, int l) {
    return 3 * (l < 3 ? spec.body_a : spec.body_b) + l % 3;
  }

  /// K_j, C_j [SI] at x.
  double stiffness(const VecX& x, int pin) const { return k_scale_ * x(k(nk_ > 1 ? pin : 0)); }
  double damping(const VecX& x, int pin) const { return c_scale_ * x(c(nk_ > 1 ? pin : 0)); }

  /// A row's value and derivatives at (q, v) of step i (the first state's growth rows with
  /// look-ahead 0).
  RowSecondDerivatives row_at(const RowSpec& spec, const VecX& q, const VecX& v,
                              bool lookahead = true) const {
    VecN<6> ql, vl;
    stepper_.gather_local(spec, q, v, ql, vl);
    vine::RowContext ctx = stepper_.row_context(spec);
    if (!lookahead) ctx.growth_lookahead = 0.0;
    return vine::row_second_derivatives(spec, ctx, ql, vl);
  }
  VecN<6> local(const RowSpec& spec, const VecX& v) const {
    VecN<6> ql, vl;
    stepper_.gather_local(spec, v, v, ql, vl);
    return vl;
  }
  /// The local inputs (0 .. 11: q, then v) a row's value depends on.
  static std::vector<int> inputs(const RowSpec& spec, bool with_velocity) {
    std::vector<int> m;
    for (int l = 0; l < 6; ++l)
      if (used(spec, l)) m.push_back(l);
    if (with_velocity)
      for (int l = 0; l < 6; ++l)
        if (used(spec, l)) m.push_back(6 + l);
    return m;
  }
  /// The variable of local input m of a row at state Z_i.
  int column(const RowSpec& spec, int i, int m) const {
    return z(i) + (m < 6 ? 0 : n_) + dof(spec, m % 6);
  }

  template <class Add>
  void constraint_entries(const VecX& x, VecX& g, Add& add) const {
    g.setZero(num_constraints());
    VineModel m = model_;
    for (int j = 0; j < pins_; ++j) {
      m.stiffness[j] = stiffness(x, j);
      m.damping[j] = damping(x, j);
    }
    VecX force;
    for (int i = 0; i < steps_; ++i) {
      const VecX q = x.segment(z(i), n_), v = x.segment(z(i) + n_, n_),
                 vn = x.segment(z(i + 1) + n_, n_);
      const int gq = row(i), gv = row(i) + n_;
      // q_{i+1} - q_i - dt v_{i+1} - r_q
      for (int d = 0; d < n_; ++d) {
        g(gq + d) = x(z(i + 1) + d) - q(d) - dt_ * vn(d) - x(r(i) + d);
        add.add(gq + d, z(i + 1) + d, 1.0);
        add.add(gq + d, z(i) + d, -1.0);
        add.add(gq + d, z(i + 1) + n_ + d, -dt_);
        add.add(gq + d, r(i) + d, -1.0);
      }
      // v_{i+1} - v_i - M^-1 (dt F + m_ref A^T y) - r_v; its (q_i, v_i) block accumulated densely
      vine::applied_forces(m, q, v, force, true);
      VecX dyn = vn - v - dt_ * minv_.cwiseProduct(force) - x.segment(r(i) + n_, n_);
      MatX block = MatX::Zero(n_, 2 * n_);
      block.rightCols(n_).diagonal().setConstant(-1.0);
      for (int j = 0; j < pins_; ++j) {
        const VecX me = minv_.cwiseProduct(torque_map_[j]);
        block.leftCols(n_) += (dt_ * m.stiffness[j]) * me * torque_map_[j].transpose();
        block.rightCols(n_) += (dt_ * m.damping[j]) * me * torque_map_[j].transpose();
      }
      for (std::size_t a = 0; a < rows_[i].size(); ++a) {
        const RowSpec& spec = rows_[i][a];
        const RowSecondDerivatives d = row_at(spec, q, v);
        const int ycol = y(i) + static_cast<int>(a), grow = gv + n_ + static_cast<int>(a);
        const double ya = x(ycol);
        const bool growth = spec.kind == RowKind::growth;
        const std::vector<int> in = inputs(spec, growth);
        const VecN<6> vnl = local(spec, vn);
        for (int l = 0; l < 6; ++l) {
          if (!used(spec, l)) continue;
          const int o = dof(spec, l);
          const double s = minv_(o) * m_ref_;
          dyn(o) -= s * ya * d.a(l);
          for (int mm : in) block(o, (mm < 6 ? 0 : n_) + dof(spec, mm % 6)) -= s * ya * d.da(l, mm);
          add.add(gv + o, ycol, -s * d.a(l));
        }
        // the row: a . v_{i+1} - rhs (- u for growth)
        g(grow) = d.a.dot(vnl) - d.rhs;
        if (growth)
          g(grow) -= rates_[i](static_cast<int>(a) - static_cast<int>(joint_specs_.size()));
        for (int mm : in) add.add(grow, column(spec, i, mm), d.da.col(mm).dot(vnl) - d.drhs(mm));
        for (int l = 0; l < 6; ++l)
          if (used(spec, l)) add.add(grow, z(i + 1) + n_ + dof(spec, l), d.a(l));
      }
      g.segment(gv, n_) = dyn;
      for (int o = 0; o < n_; ++o) {
        for (int col = 0; col < 2 * n_; ++col) add.add(gv + o, z(i) + col, block(o, col));
        add.add(gv + o, z(i + 1) + n_ + o, 1.0);
        add.add(gv + o, r(i) + n_ + o, -1.0);
      }
      // K and C columns: d(-dt M^-1 F)/d(K / K_scale) = dt K_scale M^-1 dev_j e_j, likewise C with
      // the rate
      for (int j = 0; j < pins_; ++j) {
        const double dev = vine::pin_angle_deviation(m, q, j), rate = vine::pin_angle_rate(m, v, j);
        for (int o = 0; o < n_; ++o) {
          if (torque_map_[j](o) == 0.0) continue;
          add.add(gv + o, k(nk_ > 1 ? j : 0), dt_ * k_scale_ * dev * minv_(o) * torque_map_[j](o));
          add.add(gv + o, c(nk_ > 1 ? j : 0), dt_ * c_scale_ * rate * minv_(o) * torque_map_[j](o));
        }
      }
    }
    // the first state: c(q_0) / dt = 0, dc/dq(q_0) v_0 = 0, h^ . hdot(q_0, v_0) = u_0
    const VecX q0 = x.segment(z(0), n_), v0 = x.segment(z(0) + n_, n_);
    int g0 = row(steps_);
    for (const RowSpec& spec : joint_specs_) {
      const RowSecondDerivatives d = row_at(spec, q0, v0);
      g(g0) = -d.rhs;
      for (int mm : inputs(spec, false)) add.add(g0, column(spec, 0, mm), -d.drhs(mm));
      ++g0;
    }
    for (int set = 0; set < 2; ++set) {
      const std::vector<RowSpec>& specs = set == 0 ? joint_specs_ : growth_specs_;
      for (std::size_t a = 0; a < specs.size(); ++a, ++g0) {
        const RowSpec& spec = specs[a];
        const RowSecondDerivatives d = row_at(spec, q0, v0, false);
        const VecN<6> vl = local(spec, v0);
        g(g0) = d.a.dot(vl) - (set == 1 ? rates_[0](static_cast<int>(a)) : 0.0);
        for (int mm : inputs(spec, true))
          add.add(g0, column(spec, 0, mm), d.da.col(mm).dot(vl) + (mm >= 6 ? d.a(mm - 6) : 0.0));
      }
    }
    // the prismatic joints' lengths |h|^2, h = p_b - p_a at q_0
    for (const RowSpec& spec : length_specs_) {
      const Vec2 h = q0.segment<2>(3 * spec.body_b) - q0.segment<2>(3 * spec.body_a);
      g(g0) = h.squaredNorm();
      for (int d = 0; d < 2; ++d) {
        add.add(g0, z(0) + 3 * spec.body_b + d, 2.0 * h(d));
        add.add(g0, z(0) + 3 * spec.body_a + d, -2.0 * h(d));
      }
      ++g0;
    }
  }

  /// Entries of the Hessian of factor f + lambda . g (curvature false: the objective's Gauss-Newton
  /// matrix only, lambda ignored).
  template <class Add>
  void hessian_entries(const VecX& x, double factor, const VecX& lambda, bool curvature,
                       Add& add) const {
    const double w = 1.0 / (options_.measurement_sigma * options_.measurement_sigma);
    for (int i = 0; i <= steps_; ++i) {
      if (frame_of_step_[i] < 0) continue;
      const MeasuredFrame& frame = frames_[frame_of_step_[i]];
      MatX dp;
      const VecX e = frame_residual(model_, x.segment(z(i), n_), options_.observation, frame, &dp);
      MatX h = dp.transpose() * dp;
      if (curvature)
        h += observation_curvature(model_, x.segment(z(i), n_), options_.observation,
                                   static_cast<int>(frame.points.rows()), e);
      h *= 2.0 * w * factor;
      for (int a = 0; a < n_; ++a)
        for (int b = 0; b <= a; ++b) add.add_lower(z(i) + a, z(i) + b, h(a, b));
    }
    for (int i = 0; i < steps_; ++i)
      for (int a = 0; a < 2 * n_; ++a)
        add.add_lower(r(i) + a, r(i) + a, 2.0 * factor * weights_(a));
    if (prior_weight_ > 0.0)
      for (int a = y(0); a < y(steps_); ++a) add.add_lower(a, a, 2.0 * factor * prior_weight_);
    const double on = curvature ? 1.0 : 0.0;
    for (int i = 0; i < steps_; ++i) {
      const VecX q = x.segment(z(i), n_), v = x.segment(z(i) + n_, n_),
                 vn = x.segment(z(i + 1) + n_, n_);
      const VecX lam_v = on * lambda.segment(row(i) + n_, n_);
      // springs and dampers: d2(-lam_v . dt M^-1 F) / dq d(K / K_scale) = dt K_scale (lam_v . M^-1
      // e_j) e_j
      for (int j = 0; j < pins_; ++j) {
        const double s = dt_ * lam_v.dot(minv_.cwiseProduct(torque_map_[j]));
        for (int o = 0; o < n_; ++o) {
          if (torque_map_[j](o) == 0.0) continue;
          add.add_lower(k(nk_ > 1 ? j : 0), z(i) + o, k_scale_ * s * torque_map_[j](o));
          add.add_lower(c(nk_ > 1 ? j : 0), z(i) + n_ + o, c_scale_ * s * torque_map_[j](o));
        }
      }
      for (std::size_t a = 0; a < rows_[i].size(); ++a) {
        const RowSpec& spec = rows_[i][a];
        const RowSecondDerivatives d = row_at(spec, q, v);
        const int ycol = y(i) + static_cast<int>(a);
        const double ya = x(ycol), mu = on * lambda(row(i) + 2 * n_ + static_cast<int>(a));
        const std::vector<int> in = inputs(spec, spec.kind == RowKind::growth);
        const VecN<6> vnl = local(spec, vn);
        // the dynamics rows' -m_ref M^-1 y a(q, v) weighted by lam_v, and the row's mu (a . v_{i+1}
        // - rhs)
        VecN<6> wl = VecN<6>::Zero();
        for (int l = 0; l < 6; ++l)
          if (used(spec, l)) wl(l) = -m_ref_ * minv_(dof(spec, l)) * lam_v(dof(spec, l));
        MatN<12> h = -mu * d.d2rhs;
        for (int l = 0; l < 6; ++l) h += (ya * wl(l) + mu * vnl(l)) * d.d2a[l];
        const VecN<12> hy = d.da.transpose() * wl;
        for (std::size_t p = 0; p < in.size(); ++p) {
          for (std::size_t s = 0; s <= p; ++s)
            add.add_lower(column(spec, i, in[p]), column(spec, i, in[s]), h(in[p], in[s]));
          add.add_lower(ycol, column(spec, i, in[p]), hy(in[p]));
          for (int l = 0; l < 6; ++l)
            if (used(spec, l))
              add.add_lower(z(i + 1) + n_ + dof(spec, l), column(spec, i, in[p]),
                            mu * d.da(l, in[p]));
        }
      }
    }
    // the first state's rows
    const VecX q0 = x.segment(z(0), n_), v0 = x.segment(z(0) + n_, n_);
    int g0 = row(steps_);
    for (const RowSpec& spec : joint_specs_) {
      const RowSecondDerivatives d = row_at(spec, q0, v0);
      const double mu = on * lambda(g0++);
      const std::vector<int> in = inputs(spec, false);
      for (std::size_t p = 0; p < in.size(); ++p)
        for (std::size_t s = 0; s <= p; ++s)
          add.add_lower(column(spec, 0, in[p]), column(spec, 0, in[s]),
                        -mu * d.d2rhs(in[p], in[s]));
    }
    for (int set = 0; set < 2; ++set)
      for (const RowSpec& spec : set == 0 ? joint_specs_ : growth_specs_) {
        const RowSecondDerivatives d = row_at(spec, q0, v0, false);
        const MatN<12> h = (on * lambda(g0++)) * vine::velocity_row_hessian(d, local(spec, v0));
        const std::vector<int> in = inputs(spec, true);
        for (std::size_t p = 0; p < in.size(); ++p)
          for (std::size_t s = 0; s <= p; ++s)
            add.add_lower(column(spec, 0, in[p]), column(spec, 0, in[s]), h(in[p], in[s]));
      }
    // |p_b - p_a|^2: 2 on p_a's and p_b's diagonals, -2 between them
    for (const RowSpec& spec : length_specs_) {
      const double mu = on * lambda(g0++);
      for (int d = 0; d < 2; ++d) {
        const int a = z(0) + 3 * spec.body_a + d, b = z(0) + 3 * spec.body_b + d;
        add.add_lower(a, a, 2.0 * mu);
        add.add_lower(b, b, 2.0 * mu);
        add.add_lower(b, a, -2.0 * mu);
      }
    }
  }

  /// x0: the simulation from `start` with the model's K, C, its multipliers y = impulse / m_ref
  /// (a known contact not touching in the simulation: 0), r = 0.
  void simulate_initial_guess(const VineState& start) {
    x0_ = VecX::Zero(num_variables());
    vine::VineStepper stepper(model_);
    VineState s = start;
    for (int step = 0; step <= first_step_ + steps_; ++step) {
      const int i = step - first_step_;
      if (i >= 0) {
        x0_.segment(z(i), n_) = s.q;
        x0_.segment(z(i) + n_, n_) = s.v;
      }
      if (i == steps_) break;
      const vine::VineStepReport report = stepper.step(s);
      if (!report.ok())
        throw InputError("vine",
                         fmt::format("K = {}, C = {}", model_.stiffness[0], model_.damping[0]),
                         fmt::format("an initial guess that simulates (step {} failed)", step));
      if (i < 0) continue;
      const VecX& y_eq = stepper.last_solution().y_eq;
      const int eq = static_cast<int>(joint_specs_.size() + growth_specs_.size());
      x0_.segment(y(i), eq) = y_eq.head(eq);
      const std::vector<vine::ContactInfo> touching = stepper.contacts();
      for (std::size_t a = joint_specs_.size() + growth_specs_.size(); a < rows_[i].size(); ++a)
        for (const vine::ContactInfo& info : touching)
          if (model_.contact_points[info.point].body == rows_[i][a].body_b &&
              model_.contact_points[info.point].offset == rows_[i][a].d_b &&
              info.obstacle == rows_[i][a].obstacle)
            x0_(y(i) + static_cast<int>(a)) = info.normal_impulse / m_ref_;
    }
    for (int j = 0; j < nk_; ++j) {
      x0_(k(j)) = model_.stiffness[j] / k_scale_;
      x0_(c(j)) = model_.damping[j] / c_scale_;
    }
  }

  VineModel model_;
  std::vector<MeasuredFrame> frames_;
  JointEstimationOptions options_;
  vine::VineStepper stepper_;  // rows, contexts, growth rates, m_ref
  int n_ = 0, pins_ = 0, nk_ = 1, first_step_ = 0, steps_ = 0;
  double dt_ = 0.0, m_ref_ = 1.0, k_scale_ = 1.0, c_scale_ = 1.0, k_max_ = 0.0, c_max_ = 0.0;
  double prior_weight_ = 0.0;     // 1 / sigma_y^2 [s^2/m^2] of the multipliers' prior (0: none)
  VecX weights_, minv_;           // R's diagonal (2n), M^-1's (n)
  std::vector<VecX> torque_map_;  // e_j (n) per pin
  std::vector<RowSpec> joint_specs_, growth_specs_;
  std::vector<RowSpec>
      length_specs_;  // the prismatic joints bounded at the first state (min_prismatic_extension)
  std::vector<double> min_length_squared_;  // their (d_a + d_b + e_min)^2 [m^2]
  std::vector<std::vector<RowSpec>> rows_;  // per step: joints, growth, known contacts
  std::vector<int> y_offset_,
      g_offset_;  // per step (N + 1): first multiplier, first constraint row
  std::vector<int> frame_of_step_;
  std::vector<VecX> rates_;  // u_i (#prismatic)
  std::vector<double> times_;
  SparsePattern jacobian_;
  mutable SparsePattern hessian_;
  mutable bool hessian_recorded_ = false;
  VecX x0_;
};

/// The trust-region pass (options.trust_region_iterations accepted steps): bounded sparse
/// Levenberg-Marquardt on the problem as least squares over w = [Z, y, K, C] (r eliminated as the
/// dynamics defects, the other rows as penalties with weight 1 / (kPenaltySigma sigma_v)), from the
/// simulated guess; then options.trust_region_newton_iterations steps with the residuals'
/// curvature. Returns IPOPT's start: x with r = the defects, and in `warm` the multipliers at which
/// the least squares are stationary: 2 R r on the dynamics rows, 2 s^2 g on a row penalised with
/// weight s, the bound multipliers from the Lagrangian's gradient at the bounded variables.
VecX least_squares_pass(TranscribedProblem& problem, const JointEstimationOptions& options,
                        JointEstimationResult& result, IpoptWarmStart& warm) {
  const int nv = problem.num_variables(), nc = problem.num_constraints();
  VecX x_l(nv), x_u(nv), g_l(nc), g_u(nc);
  problem.bounds(x_l.data(), x_u.data(), g_l.data(), g_u.data());
  const VecX weights = problem.row_weights(1.0 / (kPenaltySigma * options.model_sigma_velocity));
  const auto residuals = [&](const VecX& w, bool with_jacobian) {
    return problem.least_squares(w, with_jacobian, weights);
  };
  const VecX w_lower = problem.reduced(x_l), w_upper = problem.reduced(x_u);
  const auto t0 = std::chrono::steady_clock::now();
  const SparseLmProgress progress = trust_region_progress(options);
  SparseLmResult lm = minimise_sparse_least_squares(
      residuals, problem.reduced(problem.initial_guess()), w_lower, w_upper,
      {.max_iterations = options.trust_region_iterations}, {}, progress);
  if (options.trust_region_newton_iterations > 0 &&
      !lm.interrupted) {  // then with the residuals' curvature S
    const int gauss_newton_steps = lm.iterations;
    lm = minimise_sparse_least_squares(
        residuals, lm.y, w_lower, w_upper,
        {.max_iterations = options.trust_region_newton_iterations},
        [&](const VecX& w, const VecX&) { return problem.least_squares_curvature(w, weights); },
        progress);
    lm.iterations += gauss_newton_steps;
  }
  result.trust_region_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.trust_region_iterations = lm.iterations;
  result.trust_region_message = lm.message;
  result.trust_region_interrupted = lm.interrupted;
  // g at r = 0 holds the defects in the dynamics rows; with r = the defects the dynamics hold
  const JointEstimationProblemEvaluation at =
      evaluate_at(problem, problem.with_zero_residuals(lm.y));
  VecX x = at.x;
  for (int i = 0; i < problem.steps(); ++i)
    x.segment(problem.r(i), 2 * problem.dofs()) =
        at.constraints.segment(problem.row(i), 2 * problem.dofs());
  result.trust_region_objective = problem.objective(x, nullptr);
  warm.lambda = 2.0 * weights.cwiseAbs2().cwiseProduct(problem.violation(at.constraints));
  VecX gradient;
  problem.objective(x, &gradient);
  const VecX lagrangian_gradient =
      gradient + at.jacobian.transpose() * warm.lambda;  // J does not depend on r
  warm.z_lower = VecX::Zero(nv);
  warm.z_upper = VecX::Zero(nv);
  for (int j = 0; j < nv; ++j) {
    if (x_l(j) > -1e19) warm.z_lower(j) = std::max(0.0, lagrangian_gradient(j));
    if (x_u(j) < 1e19) warm.z_upper(j) = std::max(0.0, -lagrangian_gradient(j));
  }
  return x;
}

}  // namespace

JointEstimationResult estimate_transcribed(const VineModel& model, const VineState& start,
                                           const std::vector<MeasuredFrame>& frames,
                                           const JointEstimationOptions& options) {
  TranscribedProblem problem(model, start, frames, options);
  JointEstimationResult result;
  result.first_step = problem.first_step();
  result.initial_objective = problem.objective(problem.initial_guess(), nullptr);
  IpoptWarmStart warm;
  const VecX x_start = options.trust_region_iterations > 0
                           ? least_squares_pass(problem, options, result, warm)
                           : problem.initial_guess();
  VecX x = result.trust_region_interrupted
               ? x_start
               : solve_with_ipopt(problem, options, x_start, result, warm);
  if (result.trust_region_interrupted) result.status = "User_Requested_Stop";
  if (x.size() == 0) x = x_start;
  result.objective = problem.objective(x, nullptr, &result.data_term, &result.model_term);
  VecX g, jac;
  std::string message;
  const bool evaluated = problem.constraints(x, g, &jac, message);
  result.constraint_violation = evaluated ? problem.violation(g).lpNorm<Eigen::Infinity>()
                                          : std::numeric_limits<double>::infinity();
  result.min_contact_impulse = problem.min_contact_impulse(x);
  const int nk = problem.num_parameters();
  VecX sigma = VecX::Constant(2 * nk, std::numeric_limits<double>::infinity());
  if (evaluated && result.status != "User_Requested_Stop")
    sigma = problem.parameter_sigmas(x, jac);  // not when stopped
  fill_estimate(problem, x, sigma, result);
  return result;
}

JointEstimationProblemEvaluation evaluate_transcribed(const VineModel& model,
                                                      const VineState& start,
                                                      const std::vector<MeasuredFrame>& frames,
                                                      const JointEstimationOptions& options,
                                                      const VecX& x, const VecX& multipliers) {
  TranscribedProblem problem(model, start, frames, options);
  return evaluate_at(problem, x.size() > 0 ? x : problem.initial_guess(), multipliers);
}

}  // namespace tendril::fit::detail
