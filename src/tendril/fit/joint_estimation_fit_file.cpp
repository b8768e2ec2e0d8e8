#include "tendril/fit/joint_estimation_fit_file.hpp"

#include <fmt/format.h>

#include "tendril/io/schema_keys.hpp"

namespace tendril::fit {

using io::KeyType;
using namespace io::keys;

const std::vector<std::pair<std::string, EstimationHessian>>& estimation_hessians() {
  static const std::vector<std::pair<std::string, EstimationHessian>> names = {
      {"gauss_newton", EstimationHessian::gauss_newton},
      {"exact", EstimationHessian::exact},
  };
  return names;
}

const std::vector<std::pair<std::string, EstimationFormulation>>& estimation_formulations() {
  static const std::vector<std::pair<std::string, EstimationFormulation>> names = {
      {"step_map", EstimationFormulation::step_map},
      {"transcribed", EstimationFormulation::transcribed},
  };
  return names;
}

std::vector<io::KeySpec> joint_estimation_option_keys() {
  std::vector<std::string> hessians;
  for (const auto& [name, unused] : estimation_hessians()) hessians.push_back(name);
  std::vector<std::string> formulations;
  for (const auto& [name, unused] : estimation_formulations()) formulations.push_back(name);
  return {
      choice("options.formulation", "transcribed", formulations,
             "joint_estimation: how the dynamics enter the NLP: transcribed (the step's velocities "
             "and impulses as "
             "variables and the QP's optimality conditions as constraints; explicit springs, no "
             "friction, without the "
             "step-map options; the configuration that converges on the measured wall growth) or "
             "step_map "
             "(Z_{i+1} - f(Z_i, K, C) = r_i, the step QP solved inside every evaluation; the "
             "paper's form). The "
             "other options' defaults depend on it."),
      positive("options.tolerance", "1e-8", "-",
               "joint_estimation: IPOPT's convergence tolerance `tol` (scaled NLP error)."),
      positive("options.measurement_sigma", "1e-3", "m",
               "joint_estimation: sigma_p, the standard deviation of a measured coordinate (the "
               "data term is "
               "sum |p_hat - p(q)|^2 / sigma_p^2)."),
      positive("options.model_sigma_position", "1e-5", "m",
               "joint_estimation: sigma_q, the standard deviation of a one-step model error in x, "
               "y (R's weights)."),
      positive("options.model_sigma_angle", "1e-4", "rad",
               "joint_estimation: sigma_theta, of a one-step error in theta."),
      positive("options.model_sigma_velocity", "1e-3", "m/s",
               "joint_estimation: sigma_v, of a one-step error in the velocities dx/dt, dy/dt."),
      positive("options.model_sigma_angular_velocity", "1e-2", "rad/s",
               "joint_estimation: sigma_omega, of a one-step error in dtheta/dt."),
      flag("options.per_joint", "false",
           "joint_estimation: true fits K_j and C_j per pin joint (reported as vine.stiffness[j], "
           "vine.damping[j]); "
           "false one K and one C for all pins (the paper's choice)."),
      choice("options.hessian", kOpt, hessians,
             "joint_estimation: the Hessian of the Lagrangian given to IPOPT: exact (with the step "
             "map's, or the "
             "transcribed rows', second derivatives; not with eliminate_model_residuals; the "
             "default with transcribed) "
             "or gauss_newton (the objective's, constraint curvature left out; the default with "
             "step_map)."),
      integer("options.trust_region_iterations", kOpt, 0,
              "joint_estimation, formulation transcribed only: accepted steps of the sparse "
              "Levenberg-Marquardt pass before IPOPT, which then starts warm from its point (0: "
              "IPOPT from the simulated guess); default 200."),
      integer(
          "options.trust_region_newton_iterations", kOpt, 0,
          "joint_estimation, formulation transcribed only: accepted steps of the pass after those, "
          "with the "
          "residuals' own curvature added to J^T J (a trust-region Newton method); default 1500."),
      positive("options.multiplier_sigma", kOpt, "m/s",
               "joint_estimation, formulation transcribed only: sigma_y of a weak prior sum_i "
               "|y_i|^2 / sigma_y^2 on "
               "the step rows' multipliers y (scaled impulses) in the objective, fixing a "
               "direction two (nearly) "
               "dependent rows leave free; default 10."),
      real("options.min_prismatic_extension", kOpt, "m",
           "joint_estimation, formulation transcribed only: e_min, the first state's prismatic "
           "joints asked "
           "|h_j(q_0)| >= d_a + d_b + e_min (the gap between the bodies' ends at least e_min; 0: "
           "at least end to end; "
           "greater than minus the joint's two half lengths); default 0."),
      flag("options.bilateral_contacts", "false",
           "joint_estimation: the step map holds the known contacts by equality rows (impulses may "
           "pull) and the "
           "problem asks their impulses >= 0, instead of eq. 13's unilateral contact."),
      flag("options.eliminate_model_residuals", "false",
           "joint_estimation: IPOPT solves with r_i = Z_{i+1} - f(Z_i, K, C) substituted "
           "(variables Z, K, C only)."),
      flag("options.first_state_joint_velocities", "false",
           "joint_estimation: also impose the joints' velocity constraints dc/dq(q_0) v_0 = 0 at "
           "the first state."),
      node("options.known_contacts", KeyType::List,
           "joint_estimation: contacts known from the video, held as Phi(q_i) = 0 at their steps "
           "(the scene's "
           "vine.contact.model must be point), one map each, e.g. {point: tip, obstacle: 0}."),
      {.path = "options.known_contacts[].point",
       .type = KeyType::String,
       .default_value = kReq,
       .unit = "",
       .doc = "`tip` (the contact point at the last body's distal end) or the index of a contact "
              "point of the scene "
              "(vine.contact.points, or the default ones: the distal ends of the bodies before "
              "each pin, then the tip)."},
      integer("options.known_contacts[].obstacle", kReq, 0,
              "Index of the obstacle in the scene's vine.obstacles."),
      integer("options.known_contacts[].first_step", kOpt, 0,
              "First simulation step of the contact (counted from the start, as the data's step "
              "column minus "
              "step_offset); default the first measured frame's."),
      integer(
          "options.known_contacts[].last_step", kOpt, 0,
          "Last simulation step of the contact (inclusive); default the last measured frame's."),
  };
}

const std::vector<std::pair<std::string, std::vector<std::string>>>& method_option_keys() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> keys = [] {
    std::vector<std::pair<std::string, std::vector<std::string>>> k = {
        {"difference_step", {"finite_difference_lm"}},
        {"gradient_tolerance", {"finite_difference_lm", "adjoint_lm"}},
        {"jobs", {"finite_difference_lm", "adjoint_lm"}},
        {"step_tolerance",
         {"finite_difference_lm", "adjoint_lm", "vine_shooting", "vine3d_shooting"}},
        {"cost_tolerance", {"finite_difference_lm", "adjoint_lm", "vine_shooting"}},
    };
    for (const io::KeySpec& spec : joint_estimation_option_keys())
      if (spec.path.find("[]") == std::string::npos)
        k.push_back({spec.path.substr(8), {"joint_estimation"}});
    return k;
  }();
  return keys;
}

JointEstimationOptions read_joint_estimation_options(const io::SceneNode& options) {
  // the formulation's defaults, then the keys given
  const std::string formulation = options.text("formulation");
  JointEstimationOptions o =
      formulation == "step_map" ? step_map_options() : JointEstimationOptions{};
  o.tolerance = options.real("tolerance");
  o.measurement_sigma = options.real("measurement_sigma");
  o.model_sigma_position = options.real("model_sigma_position");
  o.model_sigma_angle = options.real("model_sigma_angle");
  o.model_sigma_velocity = options.real("model_sigma_velocity");
  o.model_sigma_angular_velocity = options.real("model_sigma_angular_velocity");
  o.per_joint = options.boolean("per_joint");
  for (const auto& [name, value] : estimation_formulations())
    if (name == formulation) o.formulation = value;
  if (options.has("hessian"))
    for (const auto& [name, value] : estimation_hessians())
      if (name == options.text("hessian")) o.hessian = value;
  if (options.has("trust_region_iterations"))
    o.trust_region_iterations = options.integer("trust_region_iterations");
  if (options.has("trust_region_newton_iterations"))
    o.trust_region_newton_iterations = options.integer("trust_region_newton_iterations");
  if (options.has("multiplier_sigma")) o.multiplier_sigma = options.real("multiplier_sigma");
  if (options.has("min_prismatic_extension"))
    o.min_prismatic_extension = options.real("min_prismatic_extension");
  o.bilateral_contacts = options.boolean("bilateral_contacts");
  o.eliminate_model_residuals = options.boolean("eliminate_model_residuals");
  o.first_state_joint_velocities = options.boolean("first_state_joint_velocities");
  return o;
}

std::vector<KnownContact> read_known_contacts(const io::SceneNode& options,
                                              const vine::VineModel& model, int first_step,
                                              int last_step) {
  std::vector<KnownContact> contacts;
  const std::vector<io::SceneNode> list = options.list("known_contacts");
  if (!list.empty() && model.contact_model != vine::ContactModel::point)
    options.fail("known_contacts", "(given)",
                 "known contacts only with the scene's point contact (vine.contact.model: point)");
  const int points = static_cast<int>(model.contact_points.size());
  const int obstacles = static_cast<int>(model.obstacles.size());
  for (const io::SceneNode& c : list) {
    KnownContact k;
    const std::string point = c.text("point");
    if (point == "tip") {
      const int last = model.num_bodies - 1;
      k.point = -1;
      for (int i = 0; i < points; ++i)
        if (model.contact_points[i].body == last &&
            model.contact_points[i].offset == model.half_length[last])
          k.point = i;
      if (k.point < 0)
        c.fail("point", point, "tip only if a contact point is at the tip (vine.contact.points)");
    } else {
      std::size_t used = 0;
      try {
        k.point = std::stoi(point, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != point.size() || k.point < 0 || k.point >= points)
        c.fail("point", point,
               fmt::format("tip, or a contact point index 0 .. {} of the scene", points - 1));
    }
    k.obstacle = c.integer("obstacle");
    if (k.obstacle >= obstacles)
      c.fail("obstacle", std::to_string(k.obstacle),
             obstacles == 0 ? std::string("an obstacle of the scene (it has none: vine.obstacles)")
                            : fmt::format("an obstacle index 0 .. {} of the scene's vine.obstacles",
                                          obstacles - 1));
    k.first_step = c.has("first_step") ? c.integer("first_step") : first_step;
    k.last_step = c.has("last_step") ? c.integer("last_step") : last_step;
    if (k.first_step < first_step || k.first_step > last_step)
      c.fail("first_step", std::to_string(k.first_step),
             fmt::format("a step of the measured frames' span {} .. {}", first_step, last_step));
    if (k.last_step < k.first_step || k.last_step > last_step)
      c.fail("last_step", std::to_string(k.last_step),
             fmt::format("a step in first_step .. the last measured frame's ({} .. {})",
                         k.first_step, last_step));
    contacts.push_back(k);
  }
  return contacts;
}

}  // namespace tendril::fit
