#pragma once
/// The fit file's part for method `joint_estimation` (the vine paper's eq. 16 with IPOPT,
/// fit/vine_joint_estimation.hpp): its `options` keys (schema rows, read into
/// JointEstimationOptions) and the known contacts, checked against the vine scene. Used by
/// fit_file.cpp; keys documented in docs/scene_reference.md ("Fit files") and
/// docs/physics/fitting.md.

#include <string>
#include <utility>
#include <vector>

#include "tendril/fit/vine_joint_estimation.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/io/schema.hpp"
#include "tendril/vine/vine_model.hpp"

namespace tendril::fit {

/// The names of the Hessian choices (`options.hessian`); a new EstimationHessian is one more row.
const std::vector<std::pair<std::string, EstimationHessian>>& estimation_hessians();

/// The names of the formulations (`options.formulation`).
const std::vector<std::pair<std::string, EstimationFormulation>>& estimation_formulations();

/// The schema rows of joint_estimation's options (under `options.`).
std::vector<io::KeySpec> joint_estimation_option_keys();

/// The option keys only one method (or some) reads: `key` -> the methods that accept it. A key
/// given with another method is refused naming the key, its value and the methods.
const std::vector<std::pair<std::string, std::vector<std::string>>>& method_option_keys();

/// Reads joint_estimation's options from the fit file's `options` map (the sigmas, Hessian, IPOPT's
/// tolerance and iterations, the switches); the known contacts are read by read_known_contacts.
JointEstimationOptions read_joint_estimation_options(const io::SceneNode& options);

/// Reads `options.known_contacts` and checks them against the scene's model: the point model, a
/// contact point (`tip` or an index) and obstacle that exist, steps within the measured frames'
/// [first_step, last_step] (the defaults). InputError at the key otherwise.
std::vector<KnownContact> read_known_contacts(const io::SceneNode& options,
                                              const vine::VineModel& model, int first_step,
                                              int last_step);

}  // namespace tendril::fit
