#pragma once
/// Tracked video in (docs/physics/fitting.md, "Tracked video"): the fit file's `data.track`
/// section turns what a tracker gives, points per video frame in pixels, into the vine methods'
/// measured frames: pixels to metres (scale, axis flips, origin), each frame's points in order
/// from the base (centerline_order.hpp: a graph walk for unordered skeleton points), resampled
/// at evenly spaced arc lengths (the fits compare points at equal arc-length fractions,
/// vine_observation.hpp), frame times from a frame rate or a time column (dropped frames allowed)
/// mapped to simulation steps, walls as segment lists in the same pixels, and the start state
/// from the first frame, projected onto the constraints with a tolerance of at least one pixel.
/// Every conversion is kept in a record that `tendril fit` writes into fit.json (`track`).

#include <filesystem>
#include <vector>

#include "tendril/fit/run_least_squares.hpp"
#include "tendril/fit/vine_shooting_fit.hpp"
#include "tendril/io/json.hpp"
#include "tendril/io/scene.hpp"
#include "tendril/io/schema.hpp"

namespace tendril::fit {

/// `v` as a scene override's list value, "[v_0, v_1, ...]", each to 17 significant digits (read
/// back bit for bit).
std::string reals_text(const VecX& v);

/// The keys of `data.track` (appended to the fit file's schema).
std::vector<io::KeySpec> track_import_keys();

struct ImportedTrack {
  std::vector<MeasuredFrame> frames;  ///< base to tip, resampled, [m]; step 0 the first frame
  /// scene overrides: the walls (vine.obstacles) and the start state from the first frame
  /// (vine.initial_state.q, already on the constraints)
  RunSettings settings;
  io::Json record;  ///< the conversions, for fit.json
};

/// Reads `track` (the fit file's data.track; files relative to `base_dir`) for `scene` loaded
/// with `settings` (its dt, base and bodies). InputError naming the key, or the file, line and
/// reason, for bad data.
ImportedTrack import_track(const io::SceneNode& track, const std::filesystem::path& base_dir,
                           const std::filesystem::path& scene, const RunSettings& settings);

}  // namespace tendril::fit
