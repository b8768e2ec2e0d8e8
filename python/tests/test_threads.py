"""Simulations shared by Python threads: each object serialises its own calls (N threads x M steps on one
object take exactly N M steps and end where a serial run ends), separate objects step in parallel, and a
callback may read, but not step, the simulation it is called from."""
import threading
import time

import numpy as np
import pytest

import tendril
from conftest import cantilever
from test_vine import SCENE as VINE_SCENE

THREADS, STEPS = 8, 100


def hammer(step, threads=THREADS, steps=STEPS):
    """Calls step() `steps` times on each of `threads` threads; the reports and any exception raised."""
    reports, errors = [], []

    def work():
        try:
            for _ in range(steps):
                reports.append(step())
        except Exception as e:  # noqa: BLE001 (reported by the test)
            errors.append(e)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return reports, errors


def yielding():
    """A zero custom force that yields the GIL and the CPU inside every step (time.sleep(0)), so other
    threads run while one is inside a step."""
    def force(q, u, t):
        time.sleep(0)
        return np.zeros_like(q)
    return tendril.CustomForce(force)


def test_rod_steps_from_threads_are_all_taken():
    total = THREADS * STEPS
    scene = cantilever(num_nodes=6, duration=total * 1e-3)
    serial = tendril.Simulation.from_dict(scene, forces=[yielding()])
    while not serial.finished:
        assert serial.step().ok
    shared = tendril.Simulation.from_dict(scene, forces=[yielding()])
    reports, errors = hammer(shared.step)
    assert errors == [] and len(reports) == total and all(r.ok for r in reports)
    assert shared.steps_taken == serial.steps_taken == total and shared.finished
    assert shared.state.time == serial.state.time
    assert np.array_equal(shared.state.q, serial.state.q) and np.array_equal(shared.state.u, serial.state.u)


def test_vine_steps_from_threads_are_all_taken():
    total = THREADS * 10
    scene = {"vine": dict(VINE_SCENE["vine"], steps=total)}
    serial = tendril.VineSimulation.from_dict(scene)
    for _ in range(total):
        assert serial.step().ok
    shared = tendril.VineSimulation.from_dict(scene)
    # a reader on another thread: the stepper's last step and the centerline while the steps go on
    done = threading.Event()
    shapes = set()

    def read_shapes(sim):
        return (sim.centerline().shape, sim.stepper.last_q.shape, sim.stepper.joint_jacobian().shape,
                sim.stepper.joint_errors().shape)

    def read():
        while not done.is_set():
            shapes.add(read_shapes(shared))

    reader = threading.Thread(target=read)
    reader.start()
    reports, errors = hammer(shared.step, steps=10)
    done.set()
    reader.join()
    assert errors == [] and len(reports) == total and all(r.ok for r in reports)
    assert shapes == {read_shapes(serial)}
    assert shared.steps_taken == total and shared.state.time == serial.state.time
    assert np.array_equal(shared.state.q, serial.state.q) and np.array_equal(shared.state.v, serial.state.v)
    assert np.array_equal(shared.stepper.last_q, serial.stepper.last_q)


def test_one_simulation_steps_one_thread_at_a_time():
    # two threads step one simulation whose custom force, on its first call in each thread, waits (up to
    # 2 s) inside the step for the other thread to arrive; a thread that arrives while the other waits
    # there is inside a step at the same time. Without the lock it arrives at once; with it, it waits
    # for the lock until the first step has returned.
    guard = threading.Lock()
    state = {"waiting": 0, "overlaps": 0}
    arrived = threading.Event()
    first_call = threading.local()

    def force(q, u, t):
        if not getattr(first_call, "done", False):
            first_call.done = True
            with guard:
                if state["waiting"]:
                    state["overlaps"] += 1
                    arrived.set()
                    return np.zeros_like(q)
                state["waiting"] += 1
            arrived.wait(timeout=2)
            with guard:
                state["waiting"] -= 1
        return np.zeros_like(q)

    sim = tendril.Simulation.from_dict(cantilever(), forces=[tendril.CustomForce(force)])
    reports, errors = hammer(sim.step, threads=2, steps=1)
    assert errors == [] and all(r.ok for r in reports) and sim.steps_taken == 2
    assert state["overlaps"] == 0


def test_separate_simulations_step_at_once():
    # each simulation's custom force, called inside its step, waits for the other simulation to be inside
    # its own step: both get there only if the two steps overlap (with one lock for both objects, the
    # second step would start after the first returned, and the first would wait out the timeout)
    inside = [threading.Event(), threading.Event()]
    met = [False, False]

    def force(me):
        def f(q, u, t):
            if not inside[me].is_set():
                inside[me].set()
                met[me] = inside[1 - me].wait(timeout=120)
            return np.zeros_like(q)
        return tendril.CustomForce(f)

    sims = [tendril.Simulation.from_dict(cantilever(), forces=[force(i)]) for i in range(2)]
    reports = [None, None]

    def step(i):
        reports[i] = sims[i].step()

    workers = [threading.Thread(target=step, args=(i,)) for i in range(2)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert met == [True, True] and all(r.ok for r in reports)


def test_callbacks_read_but_do_not_step_their_simulation():
    # a progress callback runs between steps on the running thread, which holds the lock: it reads the
    # simulation (the lock is recursive) and sees each step's time
    sim = tendril.Simulation.from_dict(cantilever(duration=0.005))
    seen = []
    sim.run(progress=lambda p: seen.append((p.step, sim.steps_taken, sim.state.time, "kinetic" in sim.energies())))
    assert seen == [(k, k, pytest.approx(k * 1e-3), True) for k in range(1, 6)]
    # a custom force that steps the simulation it is called from is refused, naming the call
    holder = []

    def restep(q, u, t):
        holder[0].step()
        return np.zeros_like(q)

    holder.append(tendril.Simulation.from_dict(cantilever(), forces=[tendril.CustomForce(restep)]))
    with pytest.raises(RuntimeError, match=r"Simulation.step: called from a callback inside a step of the same"):
        holder[0].step()
    assert holder[0].steps_taken == 0
