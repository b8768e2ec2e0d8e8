"""The vine simulator from Python (vine paper, "low-level access for planning"): stepping, q and v views,
the constraint Jacobians as scipy.sparse, and the step-map derivatives against finite differences."""
import copy

import numpy as np
import pytest
import scipy.sparse

import tendril

SCENE = {
    "vine": {"bodies": 6, "half_length": 0.02, "tube_diameter": 0.024, "mass": 0.001, "inertia": 2e-4,
             "stiffness": [0.05], "damping": [1e-4], "heading": 1.2, "rest_angles": [1.3, 0, 0],
             "dt": 0.01, "steps": 10, "growth": {"rate": 0.03}, "initial_state": {"extension": 0.004}},
}


def make():
    return tendril.VineSimulation.from_dict(SCENE)


def test_build_step_and_views(repo):
    sim = make()
    assert sim.model.num_bodies == 6 and sim.model.num_prismatic == 3 and sim.model.num_pins == 3
    assert sim.total_steps == 10 and sim.model.dt == pytest.approx(0.01)
    q, v = sim.state.q, sim.state.v
    assert q.shape == (18,) and v.shape == (18,) and sim.state.poses.shape == (6, 3)
    tip0 = sim.centerline()[-1].copy()
    r = sim.step()
    assert isinstance(r, tendril.VineStepReport) and r.ok and r.status == tendril.QpStatus.solved
    assert r.qp_iterations > 0 and r.kkt_residual <= 1e-9 and sim.steps_taken == 1
    assert sim.state.time == pytest.approx(0.01) and np.shares_memory(q, sim.state.q)
    assert np.array_equal(q, sim.state.q) and np.abs(v).max() > 0  # views see the step
    assert sim.centerline().shape == (7, 2) and np.linalg.norm(sim.centerline()[-1] - tip0) > 1e-5
    assert sim.model.stiffness == [0.05] * 3 and sim.model.damping == [1e-4] * 3
    assert np.isinf(r.min_distance) and r.active_contacts == 0 and r.joint_error >= 0
    # a file scene with overrides, with an obstacle: contact rows and their distances
    wall = tendril.VineSimulation.from_file(repo / "examples/vine_wall_growth.yaml", {"vine.steps": 3})
    w = wall.step()
    assert wall.total_steps == 3 and w.ok and np.isfinite(w.min_distance) and w.min_distance > 0
    L = wall.stepper.contact_jacobian()
    phi = wall.stepper.contact_distances_at(wall.stepper.last_q)
    # rows only for the pairs near contact; distances for every (element, obstacle) pair
    assert 0 < L.shape[0] <= phi.shape[0] and phi.min() == pytest.approx(w.min_distance, rel=1e-9, abs=1e-12)


def test_set_state_and_rates():
    a, b = make(), make()
    a.step()
    # writing q and v into b makes its next step equal a's
    b.state.q = a.state.q
    b.state.v = a.state.v
    a.step()
    b.step()
    assert np.allclose(a.state.q, b.state.q, atol=1e-12)
    # explicit growth rates: zero growth keeps the prismatic lengths, faster growth extends further
    slow, fast = make(), make()
    slow.step(np.zeros(3))
    fast.step(np.full(3, 0.05))
    assert np.linalg.norm(fast.centerline()[-1] - fast.centerline()[0]) > \
        np.linalg.norm(slow.centerline()[-1] - slow.centerline()[0])
    with pytest.raises(ValueError, match=r"rates: got 2 values; allowed: one per prismatic joint \(3\)"):
        slow.step(np.zeros(2))
    with pytest.raises(ValueError, match=r"state.q: got shape \(4,\); allowed: \(18,\)"):
        slow.state.q = np.zeros(4)


def test_constraint_jacobians_are_sparse_and_consistent():
    sim = make()
    sim.step()
    st = sim.stepper
    J, G = st.joint_jacobian(), st.growth_jacobian()
    assert scipy.sparse.issparse(J) and J.shape == (12, 18) and G.shape == (3, 18)
    assert scipy.sparse.issparse(st.contact_jacobian())
    # J = dc/dq by central differences of c(q) at the step's start
    q0 = st.last_q.copy()
    h = 1e-7
    fd = np.column_stack([(st.joint_errors_at(q0 + h * e) - st.joint_errors_at(q0 - h * e)) / (2 * h)
                          for e in np.eye(18)])
    assert np.allclose(J.toarray(), fd, atol=1e-6)
    assert np.allclose(st.joint_errors(), st.joint_errors_at(q0))
    assert st.joint_impulses().shape == (12,) and st.growth_impulses().shape == (3,)
    assert np.allclose(st.last_joint_rates, st.joint_growth_rates(0.0))
    assert np.array_equal(st.last_v.shape, (18,))


def test_step_derivative_du_matches_finite_differences():
    base = make()
    base.step()
    d = base.derivatives()
    assert d.ok and d.dq_du.shape == (18, 3) and d.dq_dq.shape == (18, 18) and d.dv_dK.shape == (18, 3)
    u0 = base.stepper.last_joint_rates.copy()
    h = 1e-6
    fd = np.zeros((18, 3))
    for j in range(3):
        qs = []
        for s in (+1, -1):
            sim = make()
            u = u0.copy()
            u[j] += s * h
            assert sim.step(u).ok
            qs.append(sim.state.q.copy())
        fd[:, j] = (qs[0] - qs[1]) / (2 * h)
    assert np.allclose(d.dq_du, fd, rtol=1e-5, atol=1e-7)
    for name in ("dq_dv", "dv_dq", "dv_dv", "dq_dK", "dq_dC", "dv_dC", "dv_du"):
        assert np.isfinite(getattr(d, name)).all()


def test_bad_vine_input_names_key():
    with pytest.raises(tendril.InputError) as e:
        tendril.VineSimulation.from_dict(SCENE, {"vine.bodies": -1})
    assert e.value.key_path.startswith("vine.bodies")


def beam_scene():
    """SCENE with the inflated-beam law (and implicit springs) instead of the linear K."""
    scene = copy.deepcopy(SCENE)
    del scene["vine"]["stiffness"]
    scene["vine"].update({"bending_law": "inflated_beam", "springs": "implicit",
                          "inflated_beam": {"pressure": 2000.0, "wrinkling_strain": 0.02}})
    return scene


def test_inflated_beam_fields_and_the_step_derivative_in_the_collapse_moment():
    def after_one_step(pressure):
        sim = tendril.VineSimulation.from_dict(beam_scene(), {"vine.inflated_beam.pressure": pressure})
        assert sim.step().ok
        return sim

    sim = after_one_step(1500.0)
    m = sim.model
    assert m.bending_law == "inflated_beam" and m.springs == "implicit" and m.stiffness == [0.0] * 3
    b = m.inflated_beam
    assert b.pressure == 1500.0 and b.radius == 0.012 and b.joint_length == pytest.approx(0.08)
    # the law's identifiable parameters: M_c = pi p r^3, theta_w = l eps_w / r
    assert b.collapse_moment == pytest.approx(np.pi * 1500.0 * 0.012 ** 3, rel=1e-14)
    assert b.wrinkling_angle == pytest.approx(0.08 * 0.02 / 0.012, rel=1e-14)
    assert m.rest_angle == pytest.approx([1.3, 0, 0]) and m.contact_radius == pytest.approx(0.012)
    d = sim.derivatives()
    assert d.ok and d.dq_dlaw.shape == (18, 2) and d.dq_drest.shape == (18, 3) and d.dq_dradius.shape == (18,)
    # dq/dp = dq/dM_c pi r^3 (theta_w does not depend on p) against central differences in p
    h = 1e-2
    fd = (after_one_step(1500.0 + h).state.q - after_one_step(1500.0 - h).state.q) / (2 * h)
    assert np.abs(fd).max() > 1e-9
    assert np.allclose(d.dq_dlaw[:, 0] * np.pi * 0.012 ** 3, fd, rtol=1e-5, atol=1e-6 * np.abs(fd).max())

