#include "tendril/fit/vine_joint_estimation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <Eigen/SparseLU>
#include <unsupported/Eigen/AutoDiff>

#include "tendril/core/error.hpp"
#include "tendril/fit/ipopt_estimation_nlp.hpp"
#include "tendril/fit/joint_estimation_setup.hpp"
#include "tendril/fit/sparse_levenberg_marquardt.hpp"
#include "tendril/fit/vine_transcribed_estimation.hpp"
#include "tendril/vine/step_derivatives.hpp"
#include "tendril/vine/step_second_derivatives.hpp"
#include "tendril/vine/vine_stepper.hpp"

namespace tendril::fit {

namespace {

using detail::kPenaltySigma;
using detail::Triplet;
using vine::RowSpec;
using vine::VineModel;
using vine::VineState;

/// One contact row Phi(q_i) = 0 of the problem.
struct ContactRow {
  int step = 0;  // trajectory index i
  RowSpec spec;  // kind contact: body_b, offset d_b, obstacle
};

/// The estimation problem (eq. 16) without the solver: layout, values and derivatives at x.
///   x = [Z_0 .. Z_N (q_i, v_i: 2n each), r_0 .. r_{N-1} (2n each), K / K_scale (nk), C / C_scale
///   (nk)] g = [Z_{i+1} - f(Z_i) - r_i (2n each) | c(q_i) (2 #bodies each) | g(q_i, v_i) - u_i
///   (#prismatic each)
///        | Phi(q_i) of the known contacts]
class EstimationProblem {
 public:
  EstimationProblem(const VineModel& model, const VineState& start,
                    const std::vector<MeasuredFrame>& frames, const JointEstimationOptions& options)
      : model_(model), frames_(frames), options_(options), stepper_(model) {
    detail::check_estimation_input(model, frames, options);
    n_ = model.num_dofs();
    pins_ = model.num_pins();
    nk_ = options.per_joint ? pins_ : 1;
    first_step_ = frames.front().step;
    steps_ = frames.back().step - first_step_;  // N
    start_time_ = start.time + first_step_ * model.dt;
    k_max_ = options.stiffness_max;
    c_max_ = detail::damping_upper_bound(model, options);
    // the step checks for drift and blow-up guard simulations; the optimiser's trial points may
    // violate the joints by more than a simulation would, and the step map is defined there
    model_.max_joint_error = 1.0;
    model_.max_speed = 1e3;
    k_scale_ = options.stiffness_scale > 0.0 ? options.stiffness_scale : model.stiffness[0];
    c_scale_ = options.damping_scale > 0.0 ? options.damping_scale : model.damping[0];
    weights_ = detail::model_residual_weights(model, options);
    const int joint_rows = 2 * model.num_bodies;
    joint_specs_.assign(stepper_.equality_rows().begin(),
                        stepper_.equality_rows().begin() + joint_rows);
    growth_specs_.assign(stepper_.equality_rows().begin() + joint_rows,
                         stepper_.equality_rows().end());
    for (std::size_t c = 0; c < options.contacts.size(); ++c) {
      const KnownContact& k = options.contacts[c];
      for (int s = std::max(k.first_step, first_step_);
           s <= std::min(k.last_step, first_step_ + steps_); ++s) {
        ContactRow row;
        row.step = s - first_step_;
        row.spec.kind = vine::RowKind::contact;
        row.spec.body_b = model.contact_points[k.point].body;
        row.spec.d_b = model.contact_points[k.point].offset;
        row.spec.obstacle = k.obstacle;
        contact_rows_.push_back(row);
      }
    }
    // the step map holds the known contacts by equality rows at their steps (the option)
    held_set_of_step_.assign(steps_, 0);
    held_sets_.assign(1, {});
    if (options.bilateral_contacts)
      for (int i = 0; i < steps_; ++i) {
        std::vector<vine::BilateralContact> held;
        for (const KnownContact& kc : options.contacts)
          if (first_step_ + i >= kc.first_step && first_step_ + i <= kc.last_step)
            held.push_back({kc.point, kc.obstacle});
        const auto same = [&](const std::vector<vine::BilateralContact>& set) {
          return set.size() == held.size() &&
                 std::equal(set.begin(), set.end(), held.begin(), [](const auto& a, const auto& b) {
                   return a.point == b.point && a.obstacle == b.obstacle;
                 });
        };
        const auto found = std::find_if(held_sets_.begin(), held_sets_.end(), same);
        held_set_of_step_[i] = static_cast<int>(found - held_sets_.begin());
        if (found == held_sets_.end()) held_sets_.push_back(held);
      }
    held_row_of_step_.assign(steps_ + 1, 0);
    for (int i = 0; i < steps_; ++i)
      held_row_of_step_[i + 1] =
          held_row_of_step_[i] + static_cast<int>(held_sets_[held_set_of_step_[i]].size());
    impulse_scale_ = stepper_.mass_scale() * options.model_sigma_velocity;
    frame_of_step_.assign(steps_ + 1, -1);
    for (std::size_t f = 0; f < frames.size(); ++f)
      frame_of_step_[frames[f].step - first_step_] = static_cast<int>(f);
    rates_.resize(steps_ + 1);
    for (int i = 0; i <= steps_; ++i) rates_[i] = stepper_.joint_growth_rates(time(i));
    build_jacobian_pattern();
    build_hessian_pattern();
    if (exact()) build_exact_hessian_pattern();
    // the trust-region pass's residual scales of the constraint rows (least_squares)
    row_scale_.resize(num_constraints());
    for (int i = 0; i < steps_; ++i) row_scale_.segment(2 * n_ * i, 2 * n_) = weights_.cwiseSqrt();
    int row = 2 * n_ * steps_;
    for (int i = 0; i <= steps_; ++i) {
      for (std::size_t j = 0; j < joint_specs_.size(); ++j)
        row_scale_(row++) = 1.0 / (kPenaltySigma * options.model_sigma_position);
      for (std::size_t j = 0; j < growth_specs_.size(); ++j)
        row_scale_(row++) = 1.0 / (kPenaltySigma * options.model_sigma_velocity);
    }
    for (std::size_t j = 0; j < contact_rows_.size(); ++j)
      row_scale_(row++) = 1.0 / (kPenaltySigma * options.model_sigma_position);
    for (int j = 0; j < num_first_velocity_rows(); ++j)
      row_scale_(row++) = 1.0 / (kPenaltySigma * options.model_sigma_velocity);
    // the held impulses' sign is left to IPOPT: a one-sided penalty (scale > 0) stalled the pass at
    // its switch (docs/physics/fitting.md)
    row_scale_.tail(num_held_rows()).setZero();

    // the initial guess: the simulation from `start` with the model's K and C, r = 0
    x0_ = VecX::Zero(num_variables());
    VineState s = start;
    for (int step = 0; step <= first_step_ + steps_; ++step) {
      if (step >= first_step_) {
        x0_.segment(z(step - first_step_), n_) = s.q;
        x0_.segment(z(step - first_step_) + n_, n_) = s.v;
      }
      if (step == first_step_ + steps_) break;
      const vine::VineStepReport report = stepper_.step(s);
      if (!report.ok())
        throw InputError("vine",
                         fmt::format("K = {}, C = {}", model.stiffness[0], model.damping[0]),
                         fmt::format("an initial guess that simulates (step {} failed: {})", step,
                                     report.status != vine::QpStatus::solved
                                         ? std::string(vine::to_string(report.status))
                                         : std::string(vine::to_string(report.failure))));
    }
    for (int j = 0; j < nk_; ++j) {
      x0_(k(j)) = model.stiffness[j] / k_scale_;
      x0_(c(j)) = model.damping[j] / c_scale_;
    }
  }

  int num_variables() const { return 2 * n_ * (steps_ + 1) + 2 * n_ * steps_ + 2 * nk_; }
  int num_constraints() const {
    return 2 * n_ * steps_ +
           (steps_ + 1) * static_cast<int>(joint_specs_.size() + growth_specs_.size()) +
           static_cast<int>(contact_rows_.size()) + num_first_velocity_rows() + num_held_rows();
  }
  /// The rows dc/dq(q_0) v_0 = 0 of first_state_joint_velocities (2 per body), after the contact
  /// rows.
  int num_first_velocity_rows() const {
    return options_.first_state_joint_velocities ? static_cast<int>(joint_specs_.size()) : 0;
  }
  /// The last rows: held contacts' normal impulses / (m_ref sigma_v) >= 0, step by step.
  int num_held_rows() const { return held_row_of_step_.back(); }
  int first_held_row() const { return num_constraints() - num_held_rows(); }
  int steps() const { return steps_; }
  int first_step() const { return first_step_; }
  int num_parameters() const { return nk_; }
  int dofs() const { return n_; }
  const VecX& initial_guess() const { return x0_; }
  const std::vector<int>& jacobian_rows() const { return jac_rows_; }
  const std::vector<int>& jacobian_cols() const { return jac_cols_; }
  /// The Hessian pattern of the chosen EstimationHessian (lower triangle).
  const std::vector<int>& hessian_rows() const { return exact() ? exact_rows_ : hess_rows_; }
  const std::vector<int>& hessian_cols() const { return exact() ? exact_cols_ : hess_cols_; }
  double stiffness_scale() const { return k_scale_; }
  double damping_scale() const { return c_scale_; }
  /// Upper bounds of the scaled variables K / K_scale, C / C_scale.
  double stiffness_upper() const { return k_max_ / k_scale_; }
  double damping_upper() const { return c_max_ / c_scale_; }

  // variable offsets
  int z(int i) const { return 2 * n_ * i; }
  int r(int i) const { return 2 * n_ * (steps_ + 1) + 2 * n_ * i; }
  int k(int j) const { return 2 * n_ * (steps_ + 1) + 2 * n_ * steps_ + j; }
  int c(int j) const { return k(0) + nk_ + j; }

  /// The measurement residual p(q_i) - p_hat_i at trajectory index i (a measured frame), flattened
  /// (2 (P or 1): x, y of each point) [m], and, if asked, its derivative dp/dq_i (2 (P or 1) x n).
  VecX data_residual(const VecX& x, int i, MatX* dpoints) const {
    return detail::frame_residual(model_, x.segment(z(i), n_), options_.observation,
                                  frames_[frame_of_step_[i]], dpoints);
  }

  /// Objective and, if asked, its gradient (only q_i at frames and r_i enter); data/model parts.
  double objective(const VecX& x, VecX* gradient, double* data = nullptr,
                   double* model = nullptr) const {
    return detail::estimation_objective(model_, frames_, options_, weights_, steps_, r(0), x,
                                        gradient, data, model);
  }

  /// The largest violation of g(x): |g| of the equalities, the negative part of the held impulses'
  /// rows.
  double violation(const VecX& g) const {
    const int first = first_held_row();
    const double equalities = g.head(first).lpNorm<Eigen::Infinity>();
    return num_held_rows() == 0
               ? equalities
               : std::max(equalities, -std::min(0.0, g.tail(num_held_rows()).minCoeff()));
  }

  /// The trust-region pass's variables y = [Z_0 .. Z_N, K / K_scale, C / C_scale] (x without r).
  int num_reduced_variables() const { return r(0) + 2 * nk_; }
  /// y's column of x's column `col` (a Z or K, C column).
  int reduced_column(int col) const { return col < r(0) ? col : col - (k(0) - r(0)); }
  /// The dynamics rows Z_{i+1} - f(Z_i) - r_i come first in g (2n per step).
  int num_dynamics_rows() const { return 2 * n_ * steps_; }
  VecX reduced(const VecX& x) const {
    VecX y(num_reduced_variables());
    y << x.head(r(0)), x.tail(2 * nk_);
    return y;
  }
  /// x from y with r = 0.
  VecX with_zero_residuals(const VecX& y) const {
    VecX x = VecX::Zero(num_variables());
    x.head(r(0)) = y.head(r(0));
    x.tail(2 * nk_) = y.tail(2 * nk_);
    return x;
  }
  /// x from y with r_i = Z_{i+1} - f(Z_i) (the dynamics hold exactly); empty if the model fails at
  /// y.
  VecX full(const VecX& y) {
    VecX x = with_zero_residuals(y);
    VecX g;
    std::string message;
    if (!constraints(x, g, nullptr, message)) return {};
    x.segment(r(0), 2 * n_ * steps_) = g.head(2 * n_ * steps_);  // g = Z_{i+1} - f(Z_i) - 0
    return x;
  }

  /// The problem as least squares in y for the trust-region pass: the objective's residuals
  /// (data / sigma_p and sqrt(R) (Z_{i+1} - f(Z_i)), r eliminated) and the joint, growth and
  /// contact constraints as residuals with 1/100 of the model's sigmas (a quadratic penalty; the
  /// held impulses' rows with weight 0); 1/2 |residual|^2 is half the objective plus the penalty.
  /// penalty false: the objective's residuals only (data and dynamics rows: |residual|^2 is the
  /// objective with r eliminated); `g`, `values`: g(x) and its Jacobian values at x = (y, r = 0).
  SparseResiduals least_squares(const VecX& y, bool with_jacobian, bool penalty = true,
                                VecX* g_out = nullptr, VecX* values_out = nullptr) {
    SparseResiduals out;
    const VecX x = with_zero_residuals(y);
    VecX local_g, local_values;
    VecX& g = g_out ? *g_out : local_g;
    VecX& values = values_out ? *values_out : local_values;
    try {
      if (!constraints(x, g, with_jacobian ? &values : nullptr, out.message)) return out;
    } catch (const std::exception& e) {  // the model rejects the state
      out.message = e.what();
      return out;
    }
    const double ws = 1.0 / options_.measurement_sigma;
    int data_rows = 0;
    for (int i = 0; i <= steps_; ++i)
      if (frame_of_step_[i] >= 0)
        data_rows += 2 * (options_.observation == Observation::tip
                              ? 1
                              : static_cast<int>(frames_[frame_of_step_[i]].points.rows()));
    const int rows = penalty ? static_cast<int>(g.size()) : num_dynamics_rows();
    out.residual.resize(data_rows + rows);
    std::vector<Triplet> t;
    int row = 0;
    for (int i = 0; i <= steps_; ++i) {
      if (frame_of_step_[i] < 0) continue;
      MatX dpoints;
      const VecX e = data_residual(x, i, with_jacobian ? &dpoints : nullptr);
      out.residual.segment(row, e.size()) = ws * e;
      if (with_jacobian)
        for (int a = 0; a < dpoints.rows(); ++a)
          for (int b = 0; b < n_; ++b)
            if (dpoints(a, b) != 0.0) t.emplace_back(row + a, z(i) + b, ws * dpoints(a, b));
      row += static_cast<int>(e.size());
    }
    out.residual.tail(rows) = row_scale_.head(rows).cwiseProduct(g.head(rows));
    if (with_jacobian) {
      for (std::size_t e = 0; e < jac_rows_.size(); ++e) {
        const int col = jac_cols_[e];
        if ((col >= r(0) && col < k(0)) || jac_rows_[e] >= rows) continue;  // r is eliminated
        t.emplace_back(row + jac_rows_[e], reduced_column(col),
                       row_scale_(jac_rows_[e]) * values(static_cast<Eigen::Index>(e)));
      }
      out.jacobian.resize(static_cast<Eigen::Index>(out.residual.size()), num_reduced_variables());
      out.jacobian.setFromTriplets(t.begin(), t.end());
    }
    out.ok = out.residual.allFinite();
    if (!out.ok) out.message = "a residual is not finite";
    return out;
  }

  /// The step maps at x's K, C: one stepper per set of held (bilateral) known contacts.
  std::vector<vine::VineStepper> step_maps(const VecX& x) const {
    VineModel m = model_;
    for (int j = 0; j < pins_; ++j) {
      // IPOPT may step past the bound 0 by its bound_relax_factor (1e-8)
      m.stiffness[j] = std::max(0.0, x(k(options_.per_joint ? j : 0)) * k_scale_);
      m.damping[j] = std::max(0.0, x(c(options_.per_joint ? j : 0)) * c_scale_);
    }
    std::vector<vine::VineStepper> steppers;
    for (const auto& held : held_sets_) {
      steppers.emplace_back(m);
      if (!held.empty()) steppers.back().set_bilateral_contacts(held);
    }
    return steppers;
  }

  /// Constraints g(x) and, if `jacobian` is given, the Jacobian values in the pattern's order;
  /// `min_held_impulse`: the smallest normal impulse of the held known contacts over the steps [N
  /// s]. Returns false (with `message`) if a step of the model fails at x.
  bool constraints(const VecX& x, VecX& g, VecX* jacobian, std::string& message,
                   double* min_held_impulse = nullptr) {
    std::vector<vine::VineStepper> steppers = step_maps(x);
    if (min_held_impulse) *min_held_impulse = std::numeric_limits<double>::infinity();
    g.resize(num_constraints());
    if (jacobian) jacobian->resize(static_cast<Eigen::Index>(jac_rows_.size()));
    int value = 0, row = 0;
    const auto put = [&](double v) { (*jacobian)(value++) = v; };
    std::vector<double> held_values;  // the held rows' Jacobian values, put last
    for (int i = 0; i < steps_; ++i) {
      VineState s{time(i), x.segment(z(i), n_), x.segment(z(i) + n_, n_)};
      vine::VineStepper& stepper = steppers[held_set_of_step_[i]];
      const vine::VineStepReport report = stepper.step(s);
      if (!report.ok()) {
        message = fmt::format("step {}: {}", first_step_ + i,
                              report.status != vine::QpStatus::solved
                                  ? std::string(vine::to_string(report.status))
                                  : std::string(vine::to_string(report.failure)));
        return false;
      }
      const int nh = static_cast<int>(held_sets_[held_set_of_step_[i]].size());
      if (nh > 0)
        g.segment(first_held_row() + held_row_of_step_[i], nh) =
            stepper.bilateral_impulses() / impulse_scale_;
      g.segment(row, n_) = x.segment(z(i + 1), n_) - s.q - x.segment(r(i), n_);
      g.segment(row + n_, n_) = x.segment(z(i + 1) + n_, n_) - s.v - x.segment(r(i) + n_, n_);
      row += 2 * n_;
      if (!jacobian) continue;
      const vine::StepDerivatives d = vine::step_derivatives(stepper);
      if (!d.ok) {
        message =
            fmt::format("step {}: the step map is not differentiable there (singular KKT matrix)",
                        first_step_ + i);
        return false;
      }
      // pattern order (build_jacobian_pattern): row by row, Z_i (2n), Z_{i+1} (1), r_i (1), K, C
      for (int a = 0; a < 2 * n_; ++a) {
        const bool qrow = a < n_;
        const int ar = qrow ? a : a - n_;
        for (int b = 0; b < n_; ++b) put(-(qrow ? d.dq_dq(ar, b) : d.dv_dq(ar, b)));
        for (int b = 0; b < n_; ++b) put(-(qrow ? d.dq_dv(ar, b) : d.dv_dv(ar, b)));
        put(1.0);
        put(-1.0);
        const MatX& dk = qrow ? d.dq_dK : d.dv_dK;
        const MatX& dc = qrow ? d.dq_dC : d.dv_dC;
        if (options_.per_joint) {
          for (int j = 0; j < pins_; ++j) put(-dk(ar, j) * k_scale_);
          for (int j = 0; j < pins_; ++j) put(-dc(ar, j) * c_scale_);
        } else {
          put(-dk.row(ar).sum() * k_scale_);
          put(-dc.row(ar).sum() * c_scale_);
        }
      }
      // held rows: Z_i (2n), K, C
      for (int h = 0; h < nh; ++h) {
        for (int b = 0; b < n_; ++b) held_values.push_back(d.dheld_dq(h, b) / impulse_scale_);
        for (int b = 0; b < n_; ++b) held_values.push_back(d.dheld_dv(h, b) / impulse_scale_);
        if (options_.per_joint) {
          for (int j = 0; j < pins_; ++j)
            held_values.push_back(d.dheld_dK(h, j) * k_scale_ / impulse_scale_);
          for (int j = 0; j < pins_; ++j)
            held_values.push_back(d.dheld_dC(h, j) * c_scale_ / impulse_scale_);
        } else {
          held_values.push_back(d.dheld_dK.row(h).sum() * k_scale_ / impulse_scale_);
          held_values.push_back(d.dheld_dC.row(h).sum() * c_scale_ / impulse_scale_);
        }
      }
    }
    VecN<6> ql, vl, al;
    double rhs = 0.0;
    for (int i = 0; i <= steps_; ++i) {
      const VecX q = x.segment(z(i), n_), v = x.segment(z(i) + n_, n_);
      // joint rows: rhs = -c(q) / dt, a = dc/dq on the used local entries of the (non-world) bodies
      for (const RowSpec& spec : joint_specs_) {
        stepper_.gather_local(spec, q, v, ql, vl);
        vine::evaluate_row<double>(spec, stepper_.row_context(spec), ql, vl, al, rhs);
        g(row++) = -model_.dt * rhs;
        if (jacobian)
          for (int l = 0; l < 6; ++l)
            if (used(spec, l)) put(al(l));
      }
      // growth rows: g(q, v) = h^ . dh/dt; the row template with lookahead 0 is dg/dv, and with
      // lookahead 1 and dt = 1 it is dg/dv + dg/dq
      for (std::size_t p = 0; p < growth_specs_.size(); ++p) {
        const RowSpec& spec = growth_specs_[p];
        stepper_.gather_local(spec, q, v, ql, vl);
        vine::RowContext ctx = stepper_.row_context(spec);
        ctx.growth_lookahead = 0.0;
        vine::evaluate_row<double>(spec, ctx, ql, vl, al, rhs);
        g(row++) = al.dot(vl) - rates_[i](static_cast<Eigen::Index>(p));
        if (!jacobian) continue;
        VecN<6> gq;
        ctx.growth_lookahead = 1.0;
        ctx.dt = 1.0;
        vine::evaluate_row<double>(spec, ctx, ql, vl, gq, rhs);
        gq -= al;
        for (int l = 0; l < 6; ++l)
          if (used(spec, l)) put(gq(l));
        for (int l = 0; l < 6; ++l)
          if (used(spec, l)) put(al(l));
      }
    }
    for (const ContactRow& cr : contact_rows_) {
      const VecX q = x.segment(z(cr.step), n_), v = x.segment(z(cr.step) + n_, n_);
      stepper_.gather_local(cr.spec, q, v, ql, vl);
      double phi = 0.0;
      vine::evaluate_row<double>(cr.spec, stepper_.row_context(cr.spec), ql, vl, al, rhs, &phi);
      g(row++) = phi;
      if (jacobian)
        for (int l = 3; l < 6; ++l) put(al(l));
    }
    // the joints' velocity constraints at Z_0: a(q_0) . v_0 with a = dc/dq; d/dq_0 = v_0 . da/dq_0
    using Ad = Eigen::AutoDiffScalar<VecN<6>>;
    for (int j = 0; j < num_first_velocity_rows(); ++j) {
      const RowSpec& spec = joint_specs_[static_cast<std::size_t>(j)];
      stepper_.gather_local(spec, x.segment(z(0), n_), x.segment(z(0) + n_, n_), ql, vl);
      Eigen::Matrix<Ad, 6, 1> qa, va, aa;
      for (int l = 0; l < 6; ++l) {
        qa(l) = Ad(ql(l), VecN<6>::Unit(l));
        va(l) = Ad(vl(l), VecN<6>::Zero());
      }
      Ad rhs_ad;
      vine::evaluate_row<Ad>(spec, stepper_.row_context(spec), qa, va, aa, rhs_ad);
      double velocity = 0.0;
      VecN<6> dq = VecN<6>::Zero();
      for (int l = 0; l < 6; ++l)
        if (used(spec, l)) {
          velocity += aa(l).value() * vl(l);
          dq += vl(l) * aa(l).derivatives();
        }
      g(row++) = velocity;
      if (!jacobian) continue;
      for (int l = 0; l < 6; ++l)
        if (used(spec, l)) put(dq(l));
      for (int l = 0; l < 6; ++l)
        if (used(spec, l)) put(aa(l).value());
    }
    row += num_held_rows();  // filled during the steps
    if (min_held_impulse && num_held_rows() > 0)
      *min_held_impulse = impulse_scale_ * g.tail(num_held_rows()).minCoeff();
    for (double h : held_values) put(h);
    TENDRIL_ASSERT(row == num_constraints(), "constraint count");
    if (!g.allFinite() || (jacobian && !jacobian->allFinite())) {
      message = "a constraint or its derivative is not finite";
      return false;
    }
    TENDRIL_ASSERT(!jacobian || value == static_cast<int>(jac_rows_.size()),
                   "Jacobian pattern size");
    return true;
  }

  /// Lower triangle of the objective's Gauss-Newton matrix in the Hessian pattern's order.
  void gauss_newton(const VecX& x, double factor, double* values) const {
    const double w = 1.0 / (options_.measurement_sigma * options_.measurement_sigma);
    int value = 0;
    for (int i = 0; i <= steps_; ++i) {
      if (frame_of_step_[i] < 0) continue;
      const MatX& target = frames_[frame_of_step_[i]].points;
      MatX points, dpoints;
      observe_vine(model_, x.segment(z(i), n_), options_.observation,
                   static_cast<int>(target.rows()), points, &dpoints);
      const MatX h = 2.0 * w * factor * dpoints.transpose() * dpoints;
      for (int a = 0; a < n_; ++a)
        for (int b = 0; b <= a; ++b) values[value++] = h(a, b);
    }
    for (int i = 0; i < steps_; ++i)
      for (int a = 0; a < 2 * n_; ++a) values[value++] = 2.0 * factor * weights_(a);
  }

  /// Lower triangle of the exact Hessian of the Lagrangian factor f(x) + lambda . g(x) in the exact
  /// pattern's order (build_exact_hessian_pattern): the data term's 2 w (dp^T dp + sum_k e_k
  /// d2p_k/dq2), 2 R on the r_i, the dynamics rows' -lambda_i . d2f(Z_i, K, C) and the held
  /// impulses' curvature (vine/step_second_derivatives.hpp), and the joint, growth, contact and
  /// first-state velocity rows' second derivatives (nested AutoDiff of their templates). False
  /// (with `message`) if a step fails.
  bool exact_hessian(const VecX& x, double factor, const VecX& lambda, double* values,
                     std::string& message) const {
    TENDRIL_ASSERT(exact() && lambda.size() == num_constraints(),
                   "EstimationHessian::exact, one multiplier per row");
    const int nz = 2 * n_, np = 2 * nk_;
    std::vector<MatX> block(steps_ + 1, MatX::Zero(nz, nz));  // d2/dZ_i^2
    std::vector<MatX> cross(steps_, MatX::Zero(np, nz));      // d2/d(K, C) dZ_i
    MatX params = MatX::Zero(np, np);                         // d2/d(K, C)^2
    const double w = 1.0 / (options_.measurement_sigma * options_.measurement_sigma);
    for (int i = 0; i <= steps_; ++i) {
      if (frame_of_step_[i] < 0) continue;
      MatX dpoints;
      const VecX e = data_residual(x, i, &dpoints);
      const MatX curvature = observe_curvature(x, i, e);
      block[i].topLeftCorner(n_, n_) +=
          2.0 * w * factor * (dpoints.transpose() * dpoints + curvature);
    }
    std::vector<vine::VineStepper> steppers = step_maps(x);
    for (int i = 0; i < steps_; ++i) {
      VineState s{time(i), x.segment(z(i), n_), x.segment(z(i) + n_, n_)};
      vine::VineStepper& stepper = steppers[held_set_of_step_[i]];
      if (!stepper.step(s).ok()) {
        message = fmt::format("step {}: the model fails in the Hessian", first_step_ + i);
        return false;
      }
      const int nh = static_cast<int>(held_sets_[held_set_of_step_[i]].size());
      const VecX w_held =
          lambda.segment(first_held_row() + held_row_of_step_[i], nh) / impulse_scale_;
      const auto li =
          lambda.segment(2 * n_ * i, nz);  // g = Z_{i+1} - f(Z_i) - r_i: weight -lambda_i on f
      const vine::StepSecondDerivatives d =
          vine::step_second_derivatives(stepper, -li.head(n_), -li.tail(n_), w_held);
      if (!d.ok) {
        message =
            fmt::format("step {}: the step map is not differentiable there (singular KKT matrix)",
                        first_step_ + i);
        return false;
      }
      // theta = (q_i, v_i, K_j, C_j) -> x's (Z_i, K / K_scale, C / C_scale): K_j = K_scale x_K
      // (x_K_j per joint)
      block[i] += d.hessian.topLeftCorner(nz, nz);
      const auto param = [&](int t) {
        const int j = (t - nz) % pins_;
        const bool damping = t - nz >= pins_;
        return std::pair{(damping ? nk_ : 0) + (options_.per_joint ? j : 0),
                         damping ? c_scale_ : k_scale_};
      };
      for (int t = nz; t < nz + 2 * pins_; ++t) {
        const auto [p, scale] = param(t);
        cross[i].row(p) += scale * d.hessian.row(t).head(nz);
        for (int t2 = nz; t2 < nz + 2 * pins_; ++t2) {
          const auto [p2, scale2] = param(t2);
          params(p, p2) += scale * scale2 * d.hessian(t, t2);
        }
      }
    }
    // the rows on single states: local inputs (q_a, q_b, v_a, v_b) to the state's (q, v)
    const auto add_local = [&](MatX& target, const RowSpec& spec, const MatN<12>& h) {
      int index[12];
      for (int l = 0; l < 12; ++l) {
        const int body = l % 6 < 3 ? spec.body_a : spec.body_b;
        index[l] = body < 0 ? -1 : (l < 6 ? 0 : n_) + 3 * body + l % 3;
      }
      for (int a = 0; a < 12; ++a)
        for (int b = 0; b < 12; ++b)
          if (index[a] >= 0 && index[b] >= 0) target(index[a], index[b]) += h(a, b);
    };
    VecN<6> ql, vl;
    int row = num_dynamics_rows();
    for (int i = 0; i <= steps_; ++i) {
      const VecX q = x.segment(z(i), n_), v = x.segment(z(i) + n_, n_);
      for (const RowSpec& spec : joint_specs_) {  // g = c(q) = -dt rhs
        stepper_.gather_local(spec, q, v, ql, vl);
        const vine::RowSecondDerivatives d =
            vine::row_second_derivatives(spec, stepper_.row_context(spec), ql, vl);
        add_local(block[i], spec, -model_.dt * lambda(row++) * d.d2rhs);
      }
      for (const RowSpec& spec : growth_specs_) {  // g = a(q, v) . v with look-ahead 0
        stepper_.gather_local(spec, q, v, ql, vl);
        vine::RowContext ctx = stepper_.row_context(spec);
        ctx.growth_lookahead = 0.0;
        add_local(block[i], spec,
                  lambda(row++) * vine::velocity_row_hessian(
                                      vine::row_second_derivatives(spec, ctx, ql, vl), vl));
      }
    }
    for (const ContactRow& cr : contact_rows_) {  // g = Phi(q)
      stepper_.gather_local(cr.spec, x.segment(z(cr.step), n_), x.segment(z(cr.step) + n_, n_), ql,
                            vl);
      const vine::RowSecondDerivatives d =
          vine::row_second_derivatives(cr.spec, stepper_.row_context(cr.spec), ql, vl);
      add_local(block[cr.step], cr.spec, lambda(row++) * d.d2phi);
    }
    for (int j = 0; j < num_first_velocity_rows(); ++j) {  // g = dc/dq(q_0) . v_0
      const RowSpec& spec = joint_specs_[static_cast<std::size_t>(j)];
      stepper_.gather_local(spec, x.segment(z(0), n_), x.segment(z(0) + n_, n_), ql, vl);
      const vine::RowSecondDerivatives d =
          vine::row_second_derivatives(spec, stepper_.row_context(spec), ql, vl);
      add_local(block[0], spec, lambda(row++) * vine::velocity_row_hessian(d, vl));
    }
    // in the order of build_exact_hessian_pattern
    int value = 0;
    for (int i = 0; i <= steps_; ++i)
      for (int a = 0; a < nz; ++a)
        for (int b = 0; b <= a; ++b) values[value++] = block[i](a, b);
    for (int i = 0; i < steps_; ++i)
      for (int a = 0; a < nz; ++a) values[value++] = 2.0 * factor * weights_(a);
    for (int p = 0; p < np; ++p) {
      for (int i = 0; i < steps_; ++i)
        for (int b = 0; b < nz; ++b) values[value++] = cross[i](p, b);
      for (int p2 = 0; p2 <= p; ++p2) values[value++] = params(p, p2);
    }
    TENDRIL_ASSERT(value == static_cast<int>(exact_rows_.size()), "exact Hessian pattern size");
    for (int e = 0; e < value; ++e)
      if (!std::isfinite(values[e])) {
        message = "a Hessian entry is not finite";
        return false;
      }
    return true;
  }

  /// One-sigma uncertainties of the scaled parameters K / K_scale, C / C_scale (2 nk) from the KKT
  /// matrix [J^T J, A^T; A, 0] at x (J^T J = half the Gauss-Newton matrix, A = dg/dx: the
  /// equalities and the held impulses' rows at 0, i.e. active); +inf if singular.
  VecX parameter_sigmas(const VecX& x, const VecX& g, const VecX& jacobian_values) const {
    std::vector<Triplet> h, a;
    std::vector<double> values(hess_rows_.size());
    gauss_newton(x, 0.5, values.data());
    for (std::size_t e = 0; e < values.size(); ++e)
      h.emplace_back(hess_rows_[e], hess_cols_[e], values[e]);
    for (std::size_t e = 0; e < jac_rows_.size(); ++e)
      a.emplace_back(jac_rows_[e], jac_cols_[e], jacobian_values(static_cast<Eigen::Index>(e)));
    // held impulses' rows count where active (impulse 0); an inactive row gets multiplier 0
    std::vector<int> inactive;
    for (int row = first_held_row(); row < num_constraints(); ++row)
      if (std::abs(g(row)) > 1e-6) inactive.push_back(row);
    return detail::constrained_sigmas(num_variables(), num_constraints(), h, a, inactive, k(0),
                                      2 * nk_);
  }

  /// The observed points at every frame for x.
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

  double time(int i) const { return start_time_ + i * model_.dt; }

 private:
  static bool used(const RowSpec& spec, int l) {
    return vine::row_entry_used(spec.kind, l) && (l >= 3 || spec.body_a >= 0);
  }

  void build_jacobian_pattern() {
    int row = 0;
    const auto add = [&](int rr, int cc) {
      jac_rows_.push_back(rr);
      jac_cols_.push_back(cc);
    };
    for (int i = 0; i < steps_; ++i)
      for (int a = 0; a < 2 * n_; ++a, ++row) {
        for (int b = 0; b < 2 * n_; ++b) add(row, z(i) + b);
        add(row, z(i + 1) + a);
        add(row, r(i) + a);
        for (int j = 0; j < nk_; ++j) add(row, k(j));
        for (int j = 0; j < nk_; ++j) add(row, c(j));
      }
    const auto body_col = [&](const RowSpec& spec, int l) {
      return 3 * (l < 3 ? spec.body_a : spec.body_b) + l % 3;
    };
    for (int i = 0; i <= steps_; ++i) {
      for (const RowSpec& spec : joint_specs_) {
        for (int l = 0; l < 6; ++l)
          if (used(spec, l)) add(row, z(i) + body_col(spec, l));
        ++row;
      }
      for (const RowSpec& spec : growth_specs_) {
        for (int l = 0; l < 6; ++l)
          if (used(spec, l)) add(row, z(i) + body_col(spec, l));
        for (int l = 0; l < 6; ++l)
          if (used(spec, l)) add(row, z(i) + n_ + body_col(spec, l));
        ++row;
      }
    }
    for (const ContactRow& cr : contact_rows_) {
      for (int l = 3; l < 6; ++l) add(row, z(cr.step) + body_col(cr.spec, l));
      ++row;
    }
    for (int j = 0; j < num_first_velocity_rows(); ++j, ++row) {
      const RowSpec& spec = joint_specs_[static_cast<std::size_t>(j)];
      for (int l = 0; l < 6; ++l)
        if (used(spec, l)) add(row, z(0) + body_col(spec, l));
      for (int l = 0; l < 6; ++l)
        if (used(spec, l)) add(row, z(0) + n_ + body_col(spec, l));
    }
    for (int i = 0; i < steps_; ++i)
      for (int h = held_row_of_step_[i]; h < held_row_of_step_[i + 1]; ++h, ++row) {
        for (int b = 0; b < 2 * n_; ++b) add(row, z(i) + b);
        for (int j = 0; j < 2 * nk_; ++j) add(row, k(0) + j);
      }
  }

  bool exact() const { return options_.hessian == EstimationHessian::exact; }

  /// sum_k e_k d2p_k/dq2 at trajectory index i (a measured frame) for the residual e (n x n).
  MatX observe_curvature(const VecX& x, int i, const VecX& e) const {
    return observation_curvature(model_, x.segment(z(i), n_), options_.observation,
                                 static_cast<int>(frames_[frame_of_step_[i]].points.rows()), e);
  }

  /// The exact Hessian's pattern (lower triangle): every state's Z_i block dense, the r_i diagonal,
  /// then for each of K, C (scaled) a row over Z_0 .. Z_{N-1} and the (K, C) block.
  void build_exact_hessian_pattern() {
    const auto add = [&](int rr, int cc) {
      exact_rows_.push_back(rr);
      exact_cols_.push_back(cc);
    };
    for (int i = 0; i <= steps_; ++i)
      for (int a = 0; a < 2 * n_; ++a)
        for (int b = 0; b <= a; ++b) add(z(i) + a, z(i) + b);
    for (int i = 0; i < steps_; ++i)
      for (int a = 0; a < 2 * n_; ++a) add(r(i) + a, r(i) + a);
    for (int p = 0; p < 2 * nk_; ++p) {
      for (int i = 0; i < steps_; ++i)
        for (int b = 0; b < 2 * n_; ++b) add(k(0) + p, z(i) + b);
      for (int p2 = 0; p2 <= p; ++p2) add(k(0) + p, k(0) + p2);
    }
  }

  void build_hessian_pattern() {
    for (int i = 0; i <= steps_; ++i) {
      if (frame_of_step_[i] < 0) continue;
      for (int a = 0; a < n_; ++a)
        for (int b = 0; b <= a; ++b) {
          hess_rows_.push_back(z(i) + a);
          hess_cols_.push_back(z(i) + b);
        }
    }
    for (int i = 0; i < steps_; ++i)
      for (int a = 0; a < 2 * n_; ++a) {
        hess_rows_.push_back(r(i) + a);
        hess_cols_.push_back(r(i) + a);
      }
  }

  VineModel model_;
  std::vector<MeasuredFrame> frames_;
  JointEstimationOptions options_;
  vine::VineStepper stepper_;  // the model at the initial guess: rows, contexts, growth rates
  int n_ = 0, pins_ = 0, nk_ = 1, first_step_ = 0, steps_ = 0;
  double start_time_ = 0.0, k_scale_ = 1.0, c_scale_ = 1.0, k_max_ = 0.0, c_max_ = 0.0;
  VecX weights_;    // diagonal of R (2n)
  VecX row_scale_;  // residual scale of each constraint row in least_squares (#constraints)
  std::vector<RowSpec> joint_specs_, growth_specs_;
  std::vector<ContactRow> contact_rows_;
  std::vector<int> frame_of_step_;
  std::vector<std::vector<vine::BilateralContact>>
      held_sets_;                      // distinct sets of held contacts ([0]: none)
  std::vector<int> held_set_of_step_;  // index into held_sets_ of each step i = 0 .. N-1
  std::vector<int> held_row_of_step_;  // first held row of step i among the held rows (N + 1)
  double impulse_scale_ = 1.0;         // m_ref sigma_v [N s]: the held rows' unit
  std::vector<VecX> rates_;            // u at each step (#prismatic)
  std::vector<int> jac_rows_, jac_cols_, hess_rows_, hess_cols_;  // hess: the Gauss-Newton matrix's
  std::vector<int> exact_rows_, exact_cols_;  // the exact Hessian's (EstimationHessian::exact)
  VecX x0_;
};

/// Eq. 16 with r eliminated by its own equality (r_i = Z_{i+1} - f(Z_i, K, C)), as IPOPT sees it
/// with `eliminate_model_residuals`: variables y = [Z_0 .. Z_N, K / K_scale, C / C_scale],
/// objective |e(y)|^2 (e: the trust-region pass's residuals without the penalty rows, i.e. the
/// measured points / sigma_p and sqrt(R) (Z_{i+1} - f(Z_i))), gradient 2 J^T e, Hessian 2 J^T J (J
/// = de/dy: Gauss-Newton; J is rank-deficient in v_0, see docs/physics/fitting.md), and as
/// constraints the rows of g after the dynamics: joints, growth, known contacts and the held
/// impulses. Their curvature is left out of the Hessian. One evaluation of the steps and their
/// derivatives per y serves f, grad f, g and dg/dy.
class EliminatedProblem {
 public:
  explicit EliminatedProblem(EstimationProblem& problem) : p_(problem) {
    const int first = p_.num_dynamics_rows();
    for (std::size_t e = 0; e < p_.jacobian_rows().size(); ++e)
      if (p_.jacobian_rows()[e] >= first) {
        jac_entries_.push_back(static_cast<int>(e));
        jac_rows_.push_back(p_.jacobian_rows()[e] - first);
        jac_cols_.push_back(p_.reduced_column(p_.jacobian_cols()[e]));
      }
    // the Hessian's pattern: that of J^T J for J with every structural entry of de/dy (the dynamics
    // rows' pattern, and a dense row over q_i for every state as the data rows' superset)
    std::vector<Triplet> t;
    for (std::size_t e = 0; e < p_.jacobian_rows().size(); ++e) {
      const int col = p_.jacobian_cols()[e];
      if (p_.jacobian_rows()[e] < first && (col < p_.r(0) || col >= p_.k(0)))
        t.emplace_back(p_.jacobian_rows()[e], p_.reduced_column(col), 1.0);
    }
    for (int i = 0; i <= p_.steps(); ++i)
      for (int b = 0; b < p_.dofs(); ++b) t.emplace_back(first + i, p_.z(i) + b, 1.0);
    SparseMatrix pattern(first + p_.steps() + 1, num_variables());
    pattern.setFromTriplets(t.begin(), t.end());
    const SparseMatrix h =
        SparseMatrix(pattern.transpose() * pattern).triangularView<Eigen::Lower>();
    for (int col = 0; col < h.outerSize(); ++col)
      for (SparseMatrix::InnerIterator it(h, col); it; ++it) {
        hess_rows_.push_back(static_cast<int>(it.row()));
        hess_cols_.push_back(col);
      }
  }

  int num_variables() const { return p_.num_reduced_variables(); }
  int num_constraints() const { return p_.num_constraints() - p_.num_dynamics_rows(); }
  int first_held_row() const { return p_.first_held_row() - p_.num_dynamics_rows(); }
  int k(int j) const { return p_.reduced_column(p_.k(j)); }
  int c(int j) const { return p_.reduced_column(p_.c(j)); }
  double stiffness_upper() const { return p_.stiffness_upper(); }
  double damping_upper() const { return p_.damping_upper(); }
  const std::vector<int>& jacobian_rows() const { return jac_rows_; }
  const std::vector<int>& jacobian_cols() const { return jac_cols_; }
  const std::vector<int>& hessian_rows() const { return hess_rows_; }
  const std::vector<int>& hessian_cols() const { return hess_cols_; }

  /// |e(y)|^2 and, if asked, 2 J^T e; NaN where the model fails at y.
  double objective(const VecX& y, VecX* gradient) {
    if (!evaluate(y, gradient != nullptr)) {
      if (gradient) gradient->setConstant(y.size(), std::numeric_limits<double>::quiet_NaN());
      return std::numeric_limits<double>::quiet_NaN();
    }
    if (gradient) *gradient = 2.0 * (at_.jacobian.transpose() * at_.residual);
    return at_.residual.squaredNorm();
  }

  /// The constraint rows after the dynamics and, if asked, their Jacobian values in the pattern's
  /// order.
  bool constraints(const VecX& y, VecX& g, VecX* jacobian, std::string& message) {
    if (!evaluate(y, jacobian != nullptr)) {
      message = at_.message;
      return false;
    }
    g = g_.tail(num_constraints());
    if (jacobian) {
      jacobian->resize(static_cast<Eigen::Index>(jac_entries_.size()));
      for (std::size_t e = 0; e < jac_entries_.size(); ++e)
        (*jacobian)(static_cast<Eigen::Index>(e)) = values_(jac_entries_[e]);
    }
    return true;
  }

  /// e(y) and J = de/dy (empty where the model fails at y).
  SparseResiduals residuals(const VecX& y) {
    evaluate(y, true);
    return at_;
  }

  /// Lower triangle of factor 2 J^T J in the Hessian pattern's order.
  void gauss_newton(const VecX& y, double factor, double* values) {
    const bool ok = evaluate(y, true);
    const SparseMatrix h =
        ok ? SparseMatrix(at_.jacobian.transpose() * at_.jacobian) : SparseMatrix();
    for (std::size_t e = 0; e < hess_rows_.size(); ++e)
      values[e] = ok ? 2.0 * factor * h.coeff(hess_rows_[e], hess_cols_[e]) : 0.0;
  }

 private:
  // e, J, g and dg/dx at y, recomputed when y is new or the derivatives are wanted and missing
  bool evaluate(const VecX& y, bool with_jacobian) {
    if (y.size() != y_.size() || y != y_ || (with_jacobian && !have_jacobian_)) {
      y_ = y;
      have_jacobian_ = with_jacobian;
      at_ = p_.least_squares(y, with_jacobian, false, &g_, &values_);
    }
    return at_.ok;
  }

  EstimationProblem& p_;
  std::vector<int> jac_entries_;  // index into the full problem's Jacobian values of each entry
  std::vector<int> jac_rows_, jac_cols_, hess_rows_, hess_cols_;
  VecX y_, g_, values_;
  SparseResiduals at_;
  bool have_jacobian_ = false;
};

}  // namespace

namespace detail {

const char* status_name(Ipopt::ApplicationReturnStatus status) {
  switch (status) {
    case Ipopt::Solve_Succeeded:
      return "Solve_Succeeded";
    case Ipopt::Solved_To_Acceptable_Level:
      return "Solved_To_Acceptable_Level";
    case Ipopt::Infeasible_Problem_Detected:
      return "Infeasible_Problem_Detected";
    case Ipopt::Search_Direction_Becomes_Too_Small:
      return "Search_Direction_Becomes_Too_Small";
    case Ipopt::Diverging_Iterates:
      return "Diverging_Iterates";
    case Ipopt::User_Requested_Stop:
      return "User_Requested_Stop";
    case Ipopt::Feasible_Point_Found:
      return "Feasible_Point_Found";
    case Ipopt::Maximum_Iterations_Exceeded:
      return "Maximum_Iterations_Exceeded";
    case Ipopt::Restoration_Failed:
      return "Restoration_Failed";
    case Ipopt::Error_In_Step_Computation:
      return "Error_In_Step_Computation";
    case Ipopt::Maximum_CpuTime_Exceeded:
      return "Maximum_CpuTime_Exceeded";
    case Ipopt::Not_Enough_Degrees_Of_Freedom:
      return "Not_Enough_Degrees_Of_Freedom";
    case Ipopt::Invalid_Problem_Definition:
      return "Invalid_Problem_Definition";
    case Ipopt::Invalid_Option:
      return "Invalid_Option";
    case Ipopt::Invalid_Number_Detected:
      return "Invalid_Number_Detected";
    case Ipopt::Unrecoverable_Exception:
      return "Unrecoverable_Exception";
    case Ipopt::NonIpopt_Exception_Thrown:
      return "NonIpopt_Exception_Thrown";
    case Ipopt::Insufficient_Memory:
      return "Insufficient_Memory";
    case Ipopt::Internal_Error:
      return "Internal_Error";
  }
  return "unknown IPOPT status";
}

}  // namespace detail

JointEstimationOptions step_map_options() {
  JointEstimationOptions o;
  o.formulation = EstimationFormulation::step_map;
  o.hessian = EstimationHessian::gauss_newton;
  o.trust_region_iterations = 0;
  o.trust_region_newton_iterations = 0;
  o.multiplier_sigma = 0.0;
  o.min_prismatic_extension = -std::numeric_limits<double>::infinity();
  return o;
}

JointEstimationResult estimate_vine_states_and_parameters(const VineModel& model,
                                                          const VineState& start,
                                                          const std::vector<MeasuredFrame>& frames,
                                                          const JointEstimationOptions& options) {
  if (options.max_iterations < 1)
    throw InputError("joint_estimation.max_iterations", std::to_string(options.max_iterations),
                     "an integer >= 1");
  if (options.trust_region_newton_iterations < 0 ||
      (options.trust_region_newton_iterations > 0 &&
       options.formulation != EstimationFormulation::transcribed))
    throw InputError("joint_estimation.trust_region_newton_iterations",
                     std::to_string(options.trust_region_newton_iterations),
                     "an integer >= 0, and 0 unless formulation: transcribed");
  if (options.formulation != EstimationFormulation::transcribed) {
    if (options.multiplier_sigma != 0.0)
      throw InputError("joint_estimation.multiplier_sigma",
                       fmt::format("{}", options.multiplier_sigma),
                       "0 (no prior) unless formulation: transcribed");
    if (options.min_prismatic_extension != -std::numeric_limits<double>::infinity())
      throw InputError("joint_estimation.min_prismatic_extension",
                       fmt::format("{}", options.min_prismatic_extension),
                       "-inf (no bound) unless formulation: transcribed");
  }
  if (options.formulation == EstimationFormulation::transcribed)
    return detail::estimate_transcribed(model, start, frames, options);
  EstimationProblem problem(model, start, frames, options);
  JointEstimationResult result;
  result.first_step = problem.first_step();
  result.initial_objective = problem.objective(problem.initial_guess(), nullptr);

  // the trust-region pass: Levenberg-Marquardt on the least-squares form from the simulated guess
  VecX x_start = problem.initial_guess();
  if (options.trust_region_iterations > 0) {
    const int ny = problem.num_reduced_variables(), nk = problem.num_parameters();
    VecX lower = VecX::Constant(ny, -INFINITY), upper = VecX::Constant(ny, INFINITY);
    lower.tail(2 * nk).setZero();
    upper.segment(ny - 2 * nk, nk).setConstant(problem.stiffness_upper());
    upper.tail(nk).setConstant(problem.damping_upper());
    const auto t0 = std::chrono::steady_clock::now();
    const SparseLmResult lm = minimise_sparse_least_squares(
        [&](const VecX& y, bool with_jacobian) { return problem.least_squares(y, with_jacobian); },
        problem.reduced(x_start), lower, upper, {.max_iterations = options.trust_region_iterations},
        {}, detail::trust_region_progress(options));
    result.trust_region_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    result.trust_region_iterations = lm.iterations;
    result.trust_region_message = lm.message;
    result.trust_region_interrupted = lm.interrupted;
    const VecX x = problem.full(lm.y);
    if (x.size() > 0) x_start = x;
    result.trust_region_objective = problem.objective(x_start, nullptr);
  }

  VecX x = problem.initial_guess();
  if (result.trust_region_interrupted) {
    result.status = "User_Requested_Stop";
    x = x_start;
  } else if (options.eliminate_model_residuals) {
    EliminatedProblem eliminated(problem);
    const VecX y = detail::solve_with_ipopt(eliminated, options, problem.reduced(x_start), result);
    if (y.size() > 0) x = problem.full(y);  // r = the defects; empty if the model fails at y
    if (x.size() == 0) x = problem.initial_guess();
  } else {
    const VecX solution = detail::solve_with_ipopt(problem, options, x_start, result);
    if (solution.size() > 0) x = solution;
  }

  result.objective = problem.objective(x, nullptr, &result.data_term, &result.model_term);
  VecX g, jac;
  std::string message;
  const bool evaluated = problem.constraints(x, g, &jac, message, &result.min_contact_impulse);
  result.constraint_violation =
      evaluated ? problem.violation(g) : std::numeric_limits<double>::infinity();
  const int nk = problem.num_parameters();
  VecX sigma = VecX::Constant(2 * nk, std::numeric_limits<double>::infinity());
  if (evaluated && result.status != "User_Requested_Stop")
    sigma = problem.parameter_sigmas(x, g, jac);  // not when stopped
  detail::fill_estimate(problem, x, sigma, result);
  return result;
}

JointEstimationProblemEvaluation evaluate_joint_estimation(const VineModel& model,
                                                           const VineState& start,
                                                           const std::vector<MeasuredFrame>& frames,
                                                           const JointEstimationOptions& options,
                                                           const VecX& x, const VecX& multipliers) {
  if (options.formulation == EstimationFormulation::transcribed)
    return detail::evaluate_transcribed(model, start, frames, options, x, multipliers);
  EstimationProblem problem(model, start, frames, options);
  if (!options.eliminate_model_residuals)
    return detail::evaluate_at(problem, x.size() > 0 ? x : problem.initial_guess(), multipliers);
  EliminatedProblem eliminated(problem);
  JointEstimationProblemEvaluation out =
      detail::evaluate_at(eliminated, x.size() > 0 ? x : problem.reduced(problem.initial_guess()));
  const SparseResiduals e = eliminated.residuals(out.x);
  out.residuals = e.residual;
  out.residual_jacobian = e.jacobian;
  return out;
}

}  // namespace tendril::fit
