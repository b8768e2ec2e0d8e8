#pragma once
/// The sections that the scenes of both vine models (`vine:`, vine_scene.hpp, and `vine3d:`,
/// vine3d/vine3d_scene.hpp) read alike: the bending joints' law, stiffness and damping, the
/// steering schedules, the growth map, the contact map and a start from a saved run. `Model` is a
/// VineModel or a Vine3dModel (the same member names); errors are InputErrors at the scene keys.

#include <filesystem>
#include <string_view>
#include <utility>
#include <vector>

#include "tendril/actuation/schedule.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/vine/vine_scene.hpp"

namespace tendril::vine {

/// One value for every joint, or exactly `count` values (one per `joint`, e.g. "pin joint").
std::vector<double> per_joint(const io::SceneNode& node, std::string_view name, int count,
                              std::string_view joint);

/// The schedules of a `steering` map: one per column a_k of the rows [t, a_0, ..., a_{columns-1}]
/// of `table` or of the CSV file `csv` (relative to `base_dir`; `columns_doc` says what its
/// columns are), none without either.
std::vector<Schedule> read_steering(const io::SceneNode& steer,
                                    const std::filesystem::path& base_dir, int columns,
                                    std::string_view columns_doc);

/// The `count` bending joints' (`joint`s') `bending_law` (linear with `stiffness`, or
/// inflated_beam with its map) and `damping`.
template <class Model>
void read_bending_law(const io::SceneNode& v, int count, std::string_view joint, Model& m) {
  if (v.text("bending_law") == "inflated_beam") {
    if (v.has("stiffness"))
      v.fail("stiffness", "no stiffness with bending_law inflated_beam (the law sets the moment)");
    if (!v.has("inflated_beam"))
      v.fail("inflated_beam", "an inflated_beam map with bending_law inflated_beam");
    m.bending_law = BendingLaw::inflated_beam;
    m.inflated_beam =
        read_inflated_beam(v.map("inflated_beam"), v.real("tube_diameter"), m.half_length[0]);
    m.stiffness.assign(count, 0.0);
  } else {
    if (!v.has("stiffness")) v.fail("stiffness", "a stiffness with bending_law linear");
    if (v.has("inflated_beam"))
      v.fail("inflated_beam", "an inflated_beam map only with bending_law inflated_beam");
    m.stiffness = per_joint(v, "stiffness", count, joint);
  }
  m.damping = per_joint(v, "damping", count, joint);
}

/// The `growth` map's mode, rate u(t), lookahead and everted material.
template <class Model>
void read_growth_map(const io::SceneNode& g, const std::filesystem::path& base_dir, Model& m) {
  m.growth_mode = g.text("mode") == "tip" ? GrowthMode::tip : GrowthMode::uniform;
  m.growth = read_growth(g, base_dir);
  m.growth_lookahead = g.real("lookahead");
  m.everted_density = g.real("everted_density");
}

/// The `contact` map's radius (default: the model's), friction and gap.
template <class Model>
void read_contact_map(const io::SceneNode& c, Model& m) {
  if (c.has("radius")) m.contact_radius = c.real("radius");
  m.friction = c.real("friction");
  m.contact_gap = c.real("gap");
}

/// The start of `out` (with its model) from frame `frame` of the run folder `run` of the
/// `initial_state` map `s` (relative to `base_dir`): state and QP warm start, exactly.
template <class Scene>
void read_start_from_run(const io::SceneNode& s, const std::filesystem::path& base_dir,
                         Scene& out) {
  auto saved = read_saved_state(base_dir / s.text("run"), s.integer("frame"), out.model,
                                s.child_path("run"), s.child_path("frame"));
  out.initial = std::move(saved.state);
  out.warm_start = std::move(saved.warm_start);
}

}  // namespace tendril::vine
