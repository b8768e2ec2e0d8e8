"""Planning with the vine simulator's step derivatives (vine paper, "low-level access for planning"):
choose the growth rates u of the three prismatic joints, held for a few steps, so that the tip reaches
a target, by gradient descent through the rollout.

The rollout's sensitivities follow the chain rule over the step map (q, v; u) -> (q', v'):
    dq'/du = dq_dq dq/du + dq_dv dv/du + dq_du,   dv'/du = dv_dq dq/du + dv_dv dv/du + dv_du,
and the tip (x_B + d cos theta_B, y_B + d sin theta_B) of the last body B adds its own derivative.

    python3 examples/python/vine_planning.py
"""
import numpy as np

import tendril

HALF_LENGTH = 0.02  # d [m]
STEPS = 8
SCENE = {
    "vine": {"bodies": 6, "half_length": HALF_LENGTH, "tube_diameter": 0.024, "mass": 0.001, "inertia": 2e-4,
             "stiffness": [0.05], "damping": [1e-4], "heading": 1.2, "rest_angles": [1.3, 0, 0],
             "dt": 0.01, "steps": STEPS, "initial_state": {"extension": 0.004}},
}


def tip_and_jacobian(q):
    """The tip point [m] and its derivative with respect to q (2 x 3B)."""
    x, y, th = q[-3:]
    J = np.zeros((2, q.size))
    J[:, -3:] = [[1, 0, -HALF_LENGTH * np.sin(th)], [0, 1, HALF_LENGTH * np.cos(th)]]
    return np.array([x + HALF_LENGTH * np.cos(th), y + HALF_LENGTH * np.sin(th)]), J


def rollout(u):
    """The tip after STEPS steps at rates u (#prismatic) and d tip / d u."""
    sim = tendril.VineSimulation.from_dict(SCENE)
    n = sim.state.q.size
    dq, dv = np.zeros((n, u.size)), np.zeros((n, u.size))
    for _ in range(STEPS):
        if not sim.step(u).ok:
            raise SystemExit("a step failed")
        d = sim.derivatives()
        dq, dv = d.dq_dq @ dq + d.dq_dv @ dv + d.dq_du, d.dv_dq @ dq + d.dv_dv @ dv + d.dv_du
    tip, J = tip_and_jacobian(sim.state.q)
    return tip, J @ dq


def main():
    # a goal the vine can reach: the tip after growing at rates the planner does not know
    goal, _ = rollout(np.array([0.03, 0.005, 0.02]))
    u = np.full(3, 0.01)  # first guess: 1 cm/s per joint
    tip, G = rollout(u)
    # the rollout derivative against central finite differences of the whole rollout
    h = 1e-6
    fd = np.column_stack([(rollout(u + h * e)[0] - rollout(u - h * e)[0]) / (2 * h) for e in np.eye(3)])
    print(f"d tip / d u: derivatives vs finite differences, max difference {np.abs(G - fd).max():.2e}")
    if not np.allclose(G, fd, rtol=1e-5, atol=1e-8):
        raise SystemExit("the rollout derivative disagrees with finite differences")
    first = np.linalg.norm(tip - goal)
    damping = 1e-3  # Levenberg-Marquardt: gradient descent far away, Gauss-Newton near the goal
    for it in range(12):
        r = tip - goal
        step = -np.linalg.solve(G.T @ G + damping * np.eye(3), G.T @ r)
        trial_tip, trial_G = rollout(u + step)
        if np.linalg.norm(trial_tip - goal) < np.linalg.norm(r):
            u, tip, G, damping = u + step, trial_tip, trial_G, damping / 3
        else:
            damping *= 10
        print(f"iteration {it:2d}: |tip - goal| = {np.linalg.norm(tip - goal) * 1e6:9.4f} um, u = {np.round(u, 5)} m/s")
    if not np.linalg.norm(tip - goal) < 1e-2 * first:
        raise SystemExit("the planner did not reach the goal")


if __name__ == "__main__":
    main()
