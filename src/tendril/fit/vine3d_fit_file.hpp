#pragma once
/// The fit file of method vine3d_shooting (docs/physics/fitting.md, "Method `vine3d_shooting`"): a
/// 3D vine scene (`vine3d:`), its uniform bending stiffness and damping as the parameters
/// (vine3d.stiffness, vine3d.damping), and tracked 3D joint points from a CSV, one row per point:
/// the step, the point's index (0 the base, i the proximal end of body i, #bodies the tip) and x,
/// y, z (`data.frames` with `point` and `z`).

#include <filesystem>
#include <string>
#include <vector>

#include "tendril/fit/measurement_csv.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/vine3d/shooting_fit3d.hpp"
#include "tendril/vine3d/vine3d_scene.hpp"

namespace tendril::fit {

struct FitFile;

/// True for the method that fits a 3D vine scene (vine3d_shooting).
bool is_vine3d_method(const std::string& method);

/// Refuses parameter `p`'s key unless it is vine3d.stiffness or vine3d.damping.
void check_vine3d_parameter_key(const io::SceneNode& p, const std::string& key);

/// The 3D vine scene with `settings` and K, C at the parameters' initial values (vine3d.stiffness,
/// vine3d.damping); InputError if the scene does not load or has the inflated-beam law (its joints
/// have no K).
vine3d::Vine3dScene vine3d_scene_at_initial_values(const FitFile& file,
                                                   const std::vector<std::string>& settings);

/// The tracked frames from the columns `frames` names (step, point, x, y, z, step_offset, factor)
/// for a vine of `bodies` bodies: the rows grouped by step (in increasing order), each frame with
/// every joint point 0 .. bodies once [m]. InputError naming the key, the file and its line
/// otherwise (a cell that is not a finite number, a step or point index that is not whole, a point
/// the scene does not have, a point twice or missing in a frame).
std::vector<vine3d::TrackedFrame3> read_tracked_frames3(const CsvTable& t,
                                                        const io::SceneNode& frames,
                                                        const std::filesystem::path& csv,
                                                        int bodies);

}  // namespace tendril::fit
