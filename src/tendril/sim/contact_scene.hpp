#pragma once
/// The `contact` keys of scenes: ground, rigid obstacles and self-contact of rods and shells with
/// their friction (src/tendril/contact/, docs/physics/contact.md), read into the Model's energies
/// and forces.

#include <vector>

#include "tendril/io/scene.hpp"
#include "tendril/sim/rod_scene.hpp"
#include "tendril/sim/shell_scene.hpp"

namespace tendril::sim {

/// The schema table of the `contact` keys.
const io::SchemaTable& contact_scene_schema();

/// Reads `contact` (if present) and appends its terms to out.model. rod_radius: contact radius of
/// each rod [m] (#rods); shells: the scene's shells once added (triangles in model node indices),
/// whose contact radius is half their thickness. Throws InputError for bad values, friction without
/// contact, an obstacle (or the ground) that starts inside a rod or shell.
void add_contact(const io::SceneNode& root, RodScene& out, const std::vector<double>& rod_radius,
                 const std::vector<SceneShell>& shells);

}  // namespace tendril::sim
