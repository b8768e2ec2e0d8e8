"""Simulation.run_with_gradient (docs/physics/gradients.md) against central differences of whole
runs stepped from Python on scenes with the parameter changed in the scene itself (E, density,
natural curvature), the objective computed here from the stepped positions. Parameters are named by
the scene keys `tendril fit` differentiates, or by the names of those no scene key expresses."""
import numpy as np
import pytest

import tendril

SCENE = "examples/cantilever_gravity.yaml"
TIGHT = {"rods.0.geometry.num_nodes": 11, "integrator.newton.force_tolerance": 1e-14}
TARGET = np.array([0.9, 0.0, -0.1])
STEPS = 20


def objective_of_scene(repo, overrides):
    """1/2 |x_tip - target|^2 after STEPS steps of the scene with `overrides`."""
    sim = tendril.Simulation.from_file(repo / SCENE, {**TIGHT, **overrides})
    for _ in range(STEPS):
        assert sim.step().ok
    return 0.5 * np.sum((sim.state.positions[10] - TARGET) ** 2)


def central_difference(f, x, h0):
    """(f(x + h) - f(x - h)) / 2h at the h = h0 10^-j (j = 0..4) whose estimate changes least to
    the next smaller h."""
    estimates = [(f(x + h) - f(x - h)) / (2 * h) for h in h0 * 10.0 ** -np.arange(5)]
    changes = np.abs(np.diff(estimates))
    return estimates[int(np.argmin(changes))]


def test_gradient_matches_differences_of_scene_runs(repo):
    sim = tendril.Simulation.from_file(repo / SCENE, TIGHT)
    result = sim.run_with_gradient(STEPS, [(10, STEPS, tuple(TARGET))],
                                   [("rods[0].material.E", 1e7), ("rods.0.material.density", 1273.52),
                                    ("natural_curvature_1", 0.0)], checkpoint_interval=3)
    assert result["ok"], result["message"]
    assert sim.steps_taken == 0, "the simulation itself does not move"
    assert result["value"] == pytest.approx(objective_of_scene(repo, {}), rel=1e-12)
    g = result["gradient"]
    e = central_difference(lambda v: objective_of_scene(repo, {"rods.0.material.E": v}), 1e7, 1e5)
    rho = central_difference(lambda v: objective_of_scene(repo, {"rods.0.material.density": v}),
                             1273.52, 12.7352)
    kappa = central_difference(lambda k: objective_of_scene(repo, {"rods.0.natural_curvature": [k, 0.0]}),
                               0.0, 1e-1)
    assert g["rods[0].material.E"] == pytest.approx(e, rel=1e-6)
    assert g["rods.0.material.density"] == pytest.approx(rho, rel=1e-6)
    assert g["natural_curvature_1"] == pytest.approx(kappa, rel=1e-6)
    assert result["initial_velocity"].shape == (sim.num_dofs,)


def test_unknown_parameter_is_refused(repo):
    # the error lists the scene keys adjoint_lm differentiates and the names no scene key expresses
    sim = tendril.Simulation.from_file(repo / SCENE, TIGHT)
    for name in ["radius", "youngs_modulus_scale", "rods[0].geometry.length"]:
        with pytest.raises(tendril.InputError) as error:
            sim.run_with_gradient(3, [], [(name, 1.0)])
        assert error.value.key_path == "parameters" and error.value.value == name
        for allowed in ["rods[].material.E", "shells[].material.thickness", "contact.ground.friction",
                        "flagellated_robot.C1", "rest_length_scale", "springs[k].natural_curvature_1",
                        "actuation[a].table[j]"]:
            assert allowed in error.value.allowed
            assert allowed in tendril.Simulation.run_with_gradient.__doc__


def test_scene_key_refuses_controls_set_from_python(repo):
    # a scene key's parameter loads the scene again: natural curvatures set from Python would be lost
    sim = tendril.Simulation.from_file(repo / SCENE, TIGHT)
    sim.controls.natural_curvature[3] = [0.1, 0.0]
    with pytest.raises(tendril.InputError, match="sim.controls"):
        sim.run_with_gradient(3, [], [("rods[0].material.E", 1e7)])
    assert sim.run_with_gradient(3, [], [("springs[3].natural_curvature_1", 0.1)])["ok"]


def test_scipy_recovers_a_natural_curvature(repo):
    # the tip's end position of a run whose springs have the integrated natural curvature 1.5 l (the
    # parameter's convention; the scene key gives 2 tan(kappa l / 2), l the edge length) is the
    # target; L-BFGS-B with the adjoint gradient recovers kappa_1 = 1.5 1/m from 0
    scipy_optimize = pytest.importorskip("scipy.optimize")
    start = tendril.Simulation.from_file(repo / SCENE, TIGHT)
    l = np.linalg.norm(start.state.positions[1] - start.state.positions[0])
    kappa_scene = 2.0 * np.arctan(0.5 * 1.5 * l) / l
    sim = tendril.Simulation.from_file(repo / SCENE, {**TIGHT, "rods.0.natural_curvature": [kappa_scene, 0.0]})
    for _ in range(STEPS):
        assert sim.step().ok
    target = tuple(sim.state.positions[10])

    def objective(kappa):
        r = start.run_with_gradient(STEPS, [(10, STEPS, target)], [("natural_curvature_1", float(kappa[0]))])
        assert r["ok"], r["message"]
        return r["value"], np.array([r["gradient"]["natural_curvature_1"]])

    result = scipy_optimize.minimize(objective, [0.0], jac=True, method="L-BFGS-B",
                                     options={"ftol": 1e-20, "gtol": 1e-14})
    assert result.x[0] == pytest.approx(1.5, abs=1e-6)


def user_objective(step, q, u):
    """l_k = 1/2 |x_tip - target|^2 at the last state plus 1e-3 |v_tip|^2 at every state (reads q and
    u), with its gradient."""
    dq, du = np.zeros_like(q), np.zeros_like(u)
    value = 1e-3 * np.sum(u[30:33] ** 2)
    du[30:33] = 2e-3 * u[30:33]
    if step == STEPS:
        miss = q[30:33] - TARGET
        value += 0.5 * np.sum(miss ** 2)
        dq[30:33] = miss
    return value, dq, du


def user_objective_of_scene(repo, overrides):
    """The user objective summed over the states of a run stepped here."""
    sim = tendril.Simulation.from_file(repo / SCENE, {**TIGHT, **overrides})
    total = user_objective(0, sim.state.q, sim.state.u)[0]
    for k in range(1, STEPS + 1):
        assert sim.step().ok
        total += user_objective(k, sim.state.q, sim.state.u)[0]
    return total


def test_user_objective_from_python_matches_differences_of_scene_runs(repo):
    sim = tendril.Simulation.from_file(repo / SCENE, TIGHT)
    assert sim.num_dofs == 43 and np.allclose(sim.state.q[30:33], sim.state.positions[10])
    result = sim.run_with_gradient(STEPS, [], [("rods[0].material.E", 1e7), ("rods[0].material.density", 1273.52)],
                                   objective=user_objective)
    assert result["ok"], result["message"]
    assert result["value"] == pytest.approx(user_objective_of_scene(repo, {}), rel=1e-12)
    e = central_difference(lambda v: user_objective_of_scene(repo, {"rods.0.material.E": v}), 1e7, 1e5)
    rho = central_difference(
        lambda v: user_objective_of_scene(repo, {"rods.0.material.density": v}), 1273.52, 12.7352)
    assert result["gradient"]["rods[0].material.E"] == pytest.approx(e, rel=1e-6)
    assert result["gradient"]["rods[0].material.density"] == pytest.approx(rho, rel=1e-6)


def test_bad_user_objective_is_refused(repo):
    sim = tendril.Simulation.from_file(repo / SCENE, TIGHT)
    with pytest.raises(ValueError, match="dl_dq: got 3 entries; allowed: 43 finite values"):
        sim.run_with_gradient(3, [], objective=lambda step, q, u: (0.0, np.zeros(3)))
    with pytest.raises(tendril.InputError, match="objective"):
        sim.run_with_gradient(3, [], objective=3.0)
    with pytest.raises(ZeroDivisionError):
        sim.run_with_gradient(3, [], objective=lambda step, q, u: 1 / 0)


def test_section_parameters_under_the_midpoint_rule(repo):
    # the rod's radius and shear modulus G (the scene gives G instead of nu) against differences of
    # scene runs with the radius and G changed, under implicit midpoint, with twist rates so that the
    # torsion matters
    midpoint = {"integrator.type": "implicit_midpoint", "rods.0.natural_curvature": [1.0, -2.0],
                "rods.0.material.nu": None, "rods.0.material.G": 1e7 / 2.6}
    sim = tendril.Simulation.from_file(repo / SCENE, {**TIGHT, **midpoint})
    result = sim.run_with_gradient(STEPS, [(10, STEPS, tuple(TARGET))],
                                   [("rods[0].material.radius", 0.005), ("rods[0].material.G", 1e7 / 2.6)])
    assert result["ok"], result["message"]
    assert result["substeps"] == STEPS
    g = result["gradient"]
    radius = central_difference(
        lambda r: objective_of_scene(repo, {**midpoint, "rods.0.material.radius": r}), 0.005, 5e-5)
    shear = central_difference(
        lambda v: objective_of_scene(repo, {**midpoint, "rods.0.material.G": v}), 1e7 / 2.6, 1e7 / 260)
    assert g["rods[0].material.radius"] == pytest.approx(radius, rel=1e-6)
    assert g["rods[0].material.G"] == pytest.approx(shear, rel=1e-6)


# A free rod (11 nodes, L 1 m, r 5 mm) lying on the ground and sliding at 0.5 m/s: IMC contact
# (k_c 1e3 N/m, delta 1 mm) and friction (mu 0.4, nu 1 mm/s).
SLIDING_ROD = """
duration: 0.04
rods:
  - geometry: {type: straight, start: [0, 0, 0.005], direction: [1, 0, 0], length: 1.0, num_nodes: 11}
    material: {E: 1.0e7, nu: 0.5, density: 1273.52, radius: 0.005}
forces: {gravity: [0, 0, -9.81]}
contact:
  stiffness: 1000
  distance_tolerance: 1.0e-3
  slip_tolerance: 1.0e-3
  ground: {friction: 0.4}
initial_conditions:
  velocities: [{velocity: [0.5, 0.1, 0]}]
integrator:
  type: implicit_euler
  dt: 2.0e-3
  newton: {force_tolerance: 1.0e-14, force_tolerance_abs: 1.0e-11}
"""

# The 11-node cantilever with a tip load and its natural curvature kappa_bar_1 scheduled by a table.
LOADED_ACTUATED_CANTILEVER = """
duration: 0.04
rods:
  - geometry: {type: straight, start: [0, 0, 0], direction: [1, 0, 0], length: 1.0, num_nodes: 11}
    clamp: start
    material: {E: 1.0e7, nu: 0.3, density: 1273.52, radius: 0.005}
forces:
  gravity: [0, 0, -9.81]
  point_loads: [{node: -1, force: [0.05, 0, -0.1]}]
actuation:
  - {rod: 0, quantity: natural_curvature_1, schedule: {type: table, table: [[0, 0], [0.01, 0.2], [0.03, -0.1]]}}
integrator:
  type: implicit_euler
  dt: 2.0e-3
  newton: {force_tolerance: 1.0e-14}
"""


def scene_file(tmp_path, text):
    path = tmp_path / "scene.yaml"
    path.write_text(text)
    return path


def tip_objective(path, overrides, target, steps=STEPS):
    """1/2 |x_tip - target|^2 after `steps` steps of the scene with `overrides`, stepped here."""
    sim = tendril.Simulation.from_file(path, overrides)
    for _ in range(steps):
        assert sim.step().ok
    return 0.5 * np.sum((sim.state.positions[10] - target) ** 2)


def test_contact_parameters_match_differences_of_scene_runs(repo, tmp_path):
    path = scene_file(tmp_path, SLIDING_ROD)
    target = np.array([1.1, 0.02, 0.0])
    sim = tendril.Simulation.from_file(path)
    result = sim.run_with_gradient(STEPS, [(10, STEPS, tuple(target))],
                                   [("contact.stiffness", 1e3), ("contact.ground.friction", 0.4)])
    assert result["ok"], result["message"]
    assert result["contact_switches"] == 0
    assert result["value"] == pytest.approx(tip_objective(path, {}, target), rel=1e-12)
    kc = central_difference(lambda k: tip_objective(path, {"contact.stiffness": k}, target), 1e3, 10.0)
    mu = central_difference(lambda m: tip_objective(path, {"contact.ground.friction": m}, target), 0.4, 4e-3)
    assert result["gradient"]["contact.stiffness"] == pytest.approx(kc, rel=1e-6)
    assert result["gradient"]["contact.ground.friction"] == pytest.approx(mu, rel=1e-6)


def test_load_and_knot_parameters_match_differences_of_scene_runs(repo, tmp_path):
    path = scene_file(tmp_path, LOADED_ACTUATED_CANTILEVER)
    target = np.array([0.9, 0.05, -0.1])
    sim = tendril.Simulation.from_file(path)
    result = sim.run_with_gradient(STEPS, [(10, STEPS, tuple(target))],
                                   [("point_loads[0].force_x", 0.05), ("point_loads[0].force_z", -0.1),
                                    ("actuation[0].table[1]", 0.2)])
    assert result["ok"], result["message"]
    assert result["value"] == pytest.approx(tip_objective(path, {}, target), rel=1e-12)
    g = result["gradient"]
    fx = central_difference(
        lambda f: tip_objective(path, {"forces.point_loads.0.force": [f, 0, -0.1]}, target), 0.05, 5e-3)
    fz = central_difference(
        lambda f: tip_objective(path, {"forces.point_loads.0.force": [0.05, 0, f]}, target), -0.1, 1e-2)
    knot = central_difference(
        lambda v: tip_objective(path, {"actuation.0.schedule.table": [[0, 0], [0.01, v], [0.03, -0.1]]},
                                target), 0.2, 2e-2)
    assert g["point_loads[0].force_x"] == pytest.approx(fx, rel=1e-6)
    assert g["point_loads[0].force_z"] == pytest.approx(fz, rel=1e-6)
    assert g["actuation[0].table[1]"] == pytest.approx(knot, rel=1e-6)


def test_poisson_ratio_and_rest_length_scale_match_differences_of_runs(repo, tmp_path):
    path = scene_file(tmp_path, LOADED_ACTUATED_CANTILEVER)
    target = np.array([0.9, 0.05, -0.1])
    sim = tendril.Simulation.from_file(path)
    names = [("poisson_ratio", 0.3), ("rest_length_scale", 1.0)]
    result = sim.run_with_gradient(STEPS, [(10, STEPS, tuple(target))], names)
    assert result["ok"], result["message"]
    nu = central_difference(lambda v: tip_objective(path, {"rods.0.material.nu": v}, target), 0.3, 3e-3)

    def run_value(scale):
        """L of the run with the rest lengths scaled (no scene key sets them: the run from C++)."""
        r = sim.run_with_gradient(STEPS, [(10, STEPS, tuple(target))], [("rest_length_scale", scale)])
        assert r["ok"], r["message"]
        return r["value"]

    scale = central_difference(run_value, 1.0, 1e-2)
    assert result["gradient"]["poisson_ratio"] == pytest.approx(nu, rel=1e-6)
    assert result["gradient"]["rest_length_scale"] == pytest.approx(scale, rel=1e-6)


def test_inapplicable_parameters_are_refused(repo, tmp_path):
    sim = tendril.Simulation.from_file(scene_file(tmp_path, LOADED_ACTUATED_CANTILEVER))
    with pytest.raises(tendril.InputError, match="self-contact"):
        sim.run_with_gradient(3, [], [("contact.stiffness", 1.0)])
    with pytest.raises(tendril.InputError, match="point loads"):
        sim.run_with_gradient(3, [], [("point_loads[1].force_x", 1.0)])
    with pytest.raises(tendril.InputError, match="rows"):
        sim.run_with_gradient(3, [], [("actuation[0].table[3]", 1.0)])


def test_quasi_static_scene_matches_differences_of_scene_runs(repo, tmp_path):
    # the loaded, actuated cantilever solved quasi-statically: a static solve every 2 ms as the
    # load's schedule and the natural curvature's table change
    text = LOADED_ACTUATED_CANTILEVER.replace("type: implicit_euler", "type: static")
    text = text.replace("force: [0.05, 0, -0.1]", "table: [[0, 0, 0, 0], [0.04, 0.1, 0, -0.2]]")
    path = scene_file(tmp_path, text)
    target = np.array([0.9, 0.05, -0.1])
    sim = tendril.Simulation.from_file(path)
    names = [("actuation[0].table[1]", 0.2), ("rods[0].material.E", 1e7), ("poisson_ratio", 0.3)]
    result = sim.run_with_gradient(STEPS, [(10, STEPS, tuple(target))], names)
    assert result["ok"], result["message"]
    assert result["value"] == pytest.approx(tip_objective(path, {}, target), rel=1e-12)
    g = result["gradient"]
    e = central_difference(lambda v: tip_objective(path, {"rods.0.material.E": v}, target), 1e7, 1e5)
    knot = central_difference(
        lambda v: tip_objective(path, {"actuation.0.schedule.table": [[0, 0], [0.01, v], [0.03, -0.1]]},
                                target), 0.2, 2e-2)
    nu = central_difference(lambda v: tip_objective(path, {"rods.0.material.nu": v}, target), 0.3, 3e-3)
    assert g["rods[0].material.E"] == pytest.approx(e, rel=1e-6)
    assert g["actuation[0].table[1]"] == pytest.approx(knot, rel=1e-6)
    assert g["poisson_ratio"] == pytest.approx(nu, rel=1e-6)


def test_scene_key_keeps_the_python_forces(repo):
    # a scene key's parameter loads the scene again, with the simulation's Python forces: a spring
    # pulling the tip towards a point, whose run differs from the scene's alone
    tip = [30, 31, 32]
    anchor = np.array([0.8, 0.0, 0.2])

    def force(q, u, t):
        f = np.zeros(len(q))
        f[tip] = -0.5 * (q[tip] - anchor)
        return f

    def jacobian(q, u, t):
        return -0.5 * np.eye(3), None

    def run(overrides):
        sim = tendril.Simulation.from_file(repo / SCENE, {**TIGHT, **overrides},
                                           forces=[tendril.CustomForce(force, jacobian, dofs=tip)])
        for _ in range(STEPS):
            assert sim.step().ok
        return 0.5 * np.sum((sim.state.positions[10] - TARGET) ** 2)

    sim = tendril.Simulation.from_file(repo / SCENE, TIGHT, forces=[tendril.CustomForce(force, jacobian, dofs=tip)])
    result = sim.run_with_gradient(STEPS, [(10, STEPS, tuple(TARGET))], [("rods[0].material.E", 1e7)])
    assert result["ok"], result["message"]
    assert result["value"] == pytest.approx(run({}), rel=1e-12)
    assert result["value"] != pytest.approx(objective_of_scene(repo, {}), rel=1e-3)
    e = central_difference(lambda v: run({"rods.0.material.E": v}), 1e7, 1e5)
    assert result["gradient"]["rods[0].material.E"] == pytest.approx(e, rel=1e-6)


HINGE_STRIP = """
duration: 0.04
shells:
  - geometry: {type: rectangle, length: 0.2, width: 0.05, nodes_x: 7, nodes_y: 3, pattern: alternating}
    material: {E: 2.0e7, nu: 0.3, density: 1000, thickness: 0.004}
    bending: hinge
    clamp: {side: x_min, rows: 2}
forces: {gravity: [0, 0, -9.81]}
integrator:
  type: implicit_euler
  dt: 2.0e-3
  newton: {force_tolerance: 1.0e-14}
"""


def controlled_objective(path, control, index, value, node, target):
    """1/2 |x_node - target|^2 after STEPS steps stepped here, with sim.controls.<control>[index] = value."""
    sim = tendril.Simulation.from_file(path)
    getattr(sim.controls, control)[index] = value
    for _ in range(STEPS):
        assert sim.step().ok
    return 0.5 * np.sum((sim.state.positions[node] - target) ** 2)


@pytest.mark.parametrize("text, control, name, index", [
    (LOADED_ACTUATED_CANTILEVER, "rest_length", "edges[{}].rest_length", 4),
    (HINGE_STRIP, "hinge_natural_angle", "hinges[{}].natural_angle", 5)])
def test_edge_rest_length_and_hinge_angle_match_differences_of_runs(tmp_path, text, control, name, index):
    # a rod edge's rest length and a shell hinge's natural angle, set 10 % / 0.1 rad away from the
    # scene's, against differences of runs with sim.controls changed (the quantities they set)
    path = scene_file(tmp_path, text)
    sim = tendril.Simulation.from_file(path)
    start = float(getattr(sim.controls, control)[index])
    value = 1.1 * start if control == "rest_length" else 0.1
    node = int(np.argmax(sim.state.positions[:, 0]))
    target = sim.state.positions[node] + np.array([-0.01, 0.02, -0.05])
    result = sim.run_with_gradient(STEPS, [(node, STEPS, tuple(target))], [(name.format(index), value)])
    assert result["ok"], result["message"]
    assert result["value"] == pytest.approx(controlled_objective(path, control, index, value, node, target),
                                            rel=1e-12)
    h0 = 1e-2 * abs(value)
    difference = central_difference(lambda v: controlled_objective(path, control, index, v, node, target),
                                    value, h0)
    assert result["gradient"][name.format(index)] == pytest.approx(difference, rel=1e-6)


def test_midedge_natural_fold_matches_differences_of_runs(tmp_path):
    # the natural fold of an interior shell edge of a mid-edge strip (no control or scene key sets
    # it: the runs from C++ at the folds moved)
    path = scene_file(tmp_path, HINGE_STRIP.replace("bending: hinge", "bending: midedge"))
    sim = tendril.Simulation.from_file(path)
    node = int(np.argmax(sim.state.positions[:, 0]))
    target = tuple(sim.state.positions[node] + np.array([-0.01, 0.02, -0.05]))
    name = "shell_edges[20].natural_fold"

    def run_value(fold):
        r = sim.run_with_gradient(STEPS, [(node, STEPS, target)], [(name, fold)])
        assert r["ok"], r["message"]
        return r["value"], r["gradient"][name]

    value, gradient = run_value(0.1)
    assert gradient == pytest.approx(central_difference(lambda v: run_value(v)[0], 0.1, 1e-3), rel=1e-6)
    with pytest.raises(tendril.InputError, match="two mid-edge bending triangles"):
        tendril.Simulation.from_file(path, {"shells.0.bending": "hinge"}).run_with_gradient(3, [], [(name, 0.0)])


ROBOT = {"duration": 0.1, "flagellated_robot": {"tails": 2, "motor_rpm": 100},
         "integrator": {"type": "implicit_euler", "dt": 0.01, "newton": {"force_tolerance": 1e-14}}}


def test_robot_keys_match_differences_of_scene_runs():
    # the flagellated robot's keys (once Python's own names C1, C2, mu, motor_rpm): 10 steps, the
    # head node's distance to a point ahead, against runs stepped here with the key changed
    target = (0.01, 0.0, 0.0)
    values = {"flagellated_robot.C1": 2.42, "flagellated_robot.mu": 7.0, "flagellated_robot.motor_rpm": 100.0}

    def run(overrides):
        sim = tendril.Simulation.from_dict(ROBOT, overrides)
        for _ in range(10):
            assert sim.step().ok
        return 0.5 * np.sum((sim.state.positions[0] - target) ** 2)

    sim = tendril.Simulation.from_dict(ROBOT, {k: v for k, v in values.items() if k != "flagellated_robot.C1"})
    result = sim.run_with_gradient(10, [(0, 10, target)], list(values.items()))
    assert result["ok"], result["message"]
    assert result["value"] == pytest.approx(run(values), rel=1e-12)
    for key, value in values.items():
        difference = central_difference(lambda v: run({**values, key: v}), value, 1e-2 * value)
        assert result["gradient"][key] == pytest.approx(difference, rel=1e-6), key
