"""Python custom forces (mat_dismech 5.5: F(q, u, t) with an optional Jacobian): the Jacobian against
finite differences, Newton's convergence with and without it, equivalence with a built-in point load,
and clear exceptions for bad callbacks."""
import numpy as np
import pytest

import tendril
from conftest import cantilever

K, C = 50.0, 0.5  # spring stiffness [N/m] and damping [N s/m] to the target


def target(t):
    """A target moving in a circle above the tip [m]."""
    return np.array([1.0, 0.1 * np.sin(20 * t), 0.1 + 0.1 * np.cos(20 * t)])


class TipSpring:
    """F = -K (x_tip - target(t)) - C u_tip on the tip node; Jacobian (-K I, -C I) on its 3 DOFs."""

    def __init__(self, num_dofs, tip):
        self.n, self.dofs = num_dofs, [3 * tip, 3 * tip + 1, 3 * tip + 2]
        self.calls = 0

    def force(self, q, u, t):
        self.calls += 1
        F = np.zeros(self.n)
        F[self.dofs] = -K * (q[self.dofs] - target(t)) - C * u[self.dofs]
        return F

    def jacobian(self, q, u, t):
        return -K * np.eye(3), -C * np.eye(3)


def make(jacobian=True, duration=0.05):
    probe = tendril.Simulation.from_dict(cantilever(num_nodes=8, duration=duration))
    spring = TipSpring(probe.num_dofs, probe.num_nodes - 1)
    f = tendril.CustomForce(spring.force, spring.jacobian if jacobian else None, dofs=spring.dofs, name="tip_spring")
    return tendril.Simulation.from_dict(cantilever(num_nodes=8, duration=duration), forces=[f]), spring


def test_jacobian_matches_finite_differences():
    sim, spring = make()
    f = tendril.CustomForce(spring.force, spring.jacobian, dofs=spring.dofs, name="s")
    assert f.force == spring.force and f.jacobian == spring.jacobian and f.dofs == spring.dofs and f.name == "s"
    for _ in range(5):
        sim.step()
    q, u, t = sim.state.q.copy(), sim.state.u.copy(), sim.state.time
    dq_exact, du_exact = spring.jacobian(q, u, t)
    h = 1e-6
    dq_fd, du_fd = np.zeros((3, 3)), np.zeros((3, 3))
    for j, d in enumerate(spring.dofs):
        e = np.zeros_like(q)
        e[d] = h
        dq_fd[:, j] = (spring.force(q + e, u, t) - spring.force(q - e, u, t))[spring.dofs] / (2 * h)
        du_fd[:, j] = (spring.force(q, u + e, t) - spring.force(q, u - e, t))[spring.dofs] / (2 * h)
        # no other DOF is touched
        assert not np.delete(spring.force(q + e, u, t) - spring.force(q, u, t), spring.dofs).any()
    assert np.allclose(dq_fd, dq_exact, rtol=1e-7, atol=1e-6) and np.allclose(du_fd, du_exact, rtol=1e-7, atol=1e-6)


def test_force_acts_and_jacobian_speeds_up_newton():
    with_j, spring = make(jacobian=True)
    without, _ = make(jacobian=False)
    plain = tendril.Simulation.from_dict(cantilever(num_nodes=8, duration=0.05))
    it_with = it_without = 0
    while not with_j.finished:
        r1, r2 = with_j.step(), without.step()
        plain.step()
        assert r1.ok and r2.ok
        it_with += r1.iterations
        it_without += r2.iterations
    assert spring.calls > 0
    # the spring pulls the tip up towards the target: above the rod under gravity alone
    assert with_j.state.positions[-1, 2] > plain.state.positions[-1, 2] + 1e-3
    # the Jacobian changes the search direction only, not the solution (to Newton's tolerance)
    assert np.allclose(with_j.state.q, without.state.q, atol=1e-8)
    assert it_with < it_without


def test_equals_a_builtin_point_load():
    # a constant custom force on the tip gives the trajectory of forces.point_loads on node -1
    scene = cantilever(num_nodes=8)
    scene["forces"]["point_loads"] = [{"node": -1, "force": [0.0, 0.3, 0.2]}]
    builtin = tendril.Simulation.from_dict(scene)
    n = builtin.num_dofs

    def tip_load(q, u, t):
        F = np.zeros(n)
        F[3 * 7:3 * 8] = [0.0, 0.3, 0.2]
        return F

    custom = tendril.Simulation.from_dict(cantilever(num_nodes=8), forces=[tendril.CustomForce(tip_load)])
    builtin.run()
    custom.run()
    assert np.allclose(custom.state.q, builtin.state.q, rtol=0, atol=1e-12)
    assert not np.allclose(custom.state.q, tendril.Simulation.from_dict(cantilever(num_nodes=8)).state.q)


def test_wrong_length_raises_value_error():
    f = tendril.CustomForce(lambda q, u, t: np.zeros(3), name="short")
    sim = tendril.Simulation.from_dict(cantilever(), forces=[f])
    q0 = sim.state.q.copy()
    with pytest.raises(ValueError, match=r"custom force 'short' returned F: got shape \(3,\); allowed: \(\d+,\)"):
        sim.step()
    assert np.array_equal(sim.state.q, q0) and sim.steps_taken == 0


def test_raising_callback_propagates_and_state_is_unchanged():
    calls = []

    def flaky(q, u, t):
        calls.append(t)
        if len(calls) == 1:
            raise RuntimeError("sensor offline")
        return np.zeros(len(q))

    sim = tendril.Simulation.from_dict(cantilever(), forces=[tendril.CustomForce(flaky)])
    q0 = sim.state.q.copy()
    with pytest.raises(RuntimeError, match="sensor offline"):
        sim.step()
    assert np.array_equal(sim.state.q, q0) and sim.state.time == 0.0
    assert sim.step().ok and sim.steps_taken == 1  # usable afterwards


def test_bad_results_and_specs():
    n = tendril.Simulation.from_dict(cantilever()).num_dofs
    zero = lambda q, u, t: np.zeros(len(q))  # noqa: E731
    cases = [
        (tendril.CustomForce(lambda q, u, t: "no"), TypeError, "returned F: got dtype <U2"),
        (tendril.CustomForce(lambda q, u, t: None), TypeError, "returned F: got dtype object"),
        (tendril.CustomForce(zero, lambda q, u, t: np.eye(3), dofs=[15, 16, 17]), TypeError, "allowed: a tuple"),
        (tendril.CustomForce(zero, lambda q, u, t: (np.eye(2), None), dofs=[15, 16, 17]), ValueError,
         r"returned dF_dq: got shape \(2, 2\); allowed: \(3, 3\)"),
    ]
    for force, error, message in cases:
        sim = tendril.Simulation.from_dict(cantilever(), forces=[force])
        with pytest.raises(error, match=message):
            sim.step()
    with pytest.raises(ValueError, match=f"dofs: got {n}; allowed: DOF indices 0..{n - 1}"):
        tendril.Simulation.from_dict(cantilever(), forces=[tendril.CustomForce(zero, zero, dofs=[n])])
    with pytest.raises(TypeError, match="force is not callable"):
        tendril.Simulation.from_dict(cantilever(), forces=[tendril.CustomForce(3)])
