"""Vine fits of a fit file from Python (tendril.fit_vine, docs/python.md): the joint estimation (the
vine paper's eq. 16 with IPOPT) on the synthetic tracked video of examples/fit/track, whose truth is
K = 0.05 N m/rad, C = 5e-4 N m s/rad (track/swinging_vine.yaml): both within four sigmas, identifiable,
the progress lines seen; single shooting of the same file; bad input raises tendril.InputError."""
import pytest

import tendril

TRUTH = {"vine.stiffness": 0.05, "vine.damping": 5e-4}


def fit_file(tmp_path, repo, method, options=""):
    track = repo / "examples/fit/track"
    text = (f"scene: {track}/swinging_vine.yaml\nmethod: {method}\nparameters:\n"
            "  - {key: vine.stiffness, initial: 0.02, lower: 0}\n"
            "  - {key: vine.damping, initial: 2.0e-3, lower: 0}\n"
            f"data:\n  track: {{points: {track}/video_track.csv, frame_rate: 30, scale: 5.0e-4, "
            f"flip_y: true, origin: [400, 560], walls: {track}/walls.csv, wall_half_thickness: 0.002}}\n"
            + options)
    path = tmp_path / f"{method}.yaml"
    path.write_text(text)
    return path


def check_recovery(result):
    assert result["converged"], result["message"]
    assert [p["key"] for p in result["parameters"]] == list(TRUTH)
    for p in result["parameters"]:
        assert p["identifiable"]
        assert abs(p["value"] - TRUTH[p["key"]]) < 4 * p["sigma"], p


def test_joint_estimation_recovers_k_and_c_from_the_tracked_video(tmp_path, repo):
    lines = []
    result = tendril.fit_vine(fit_file(tmp_path, repo, "joint_estimation", "options: {measurement_sigma: 1.0e-4}\n"),
                              progress=lines.append)
    check_recovery(result)
    assert result["method"] == "joint_estimation" and result["ipopt_status"] == "Solve_Succeeded"
    assert len(lines) > 1
    assert all(isinstance(line, tendril.FitIteration) for line in lines)
    assert result["shape_error"]["fitted"]["mean_distance_mean"] < result["shape_error"]["guess"]["mean_distance_mean"]


def test_shooting_of_the_same_file_estimates_the_start_too(tmp_path, repo):
    result = tendril.fit_vine(fit_file(tmp_path, repo, "vine_shooting"))
    check_recovery(result)
    assert len(result["start"]["pin_angles"]) == 3 and len(result["start"]["q"]) == 18


def test_bad_input_names_the_key(tmp_path, repo):
    path = fit_file(tmp_path, repo, "vine_shooting", "options: {no_such_option: 1}\n")
    with pytest.raises(tendril.InputError, match="no_such_option"):
        tendril.fit_vine(path)
    with pytest.raises(tendril.InputError, match="method"):
        tendril.fit_vine(repo / "examples/fit/flagellated_robot_n2.yaml")


def test_an_exception_in_progress_stops_the_fit(tmp_path, repo):
    def stop(line):
        if line.iteration >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tendril.fit_vine(fit_file(tmp_path, repo, "vine_shooting"), progress=stop)
