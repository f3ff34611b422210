# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""Generate eval-science-v2: applied physics and chemistry with every constant pinned.

Six categories (kinematics, dynamics, electricity, thermodynamics, waves and optics,
chemistry) x easy/medium/hard x 14 rows. Every constant an item needs (g, specific heats,
latent heats, R, atomic masses, refractive indices, the speed of sound, half-lives) is
stated in the prompt, so the answer depends on nothing outside it. Easy items take one
formula, medium two steps or a unit conversion, hard several (projectiles from a height,
limiting reagents, resistor networks, RC charging, ice-to-water heat budgets, lens
pairs). Answers are computed in exact fractions wherever the physics allows (floats only
for roots, logarithms, exponentials and trigonometry), stored to six significant figures,
and scored `numeric` with meta.rel_tolerance 0.01 -- the prompt states the 1 % tolerance
-- or, on about a quarter of the rows, `mc` with distractors built from typical mistakes
(a forgotten unit conversion, a missing factor of 2, the wrong branch of a formula), each
at least 3 % away from the answer. Every hard item re-derives its answer by a second route
(energy vs kinematics, simulation vs closed form, mass balance) before it is accepted.

    python datasets/_gen/gen_eval_science_v2.py [--out DIR]
"""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _evalkit as K  # noqa: E402
import _lib  # noqa: E402

DATASET_ID = "eval-science-v2"
SEED = 8_200_002
PER_CELL = 14
REL_TOL = 0.01
F = Fraction
G_CHOICES = ("9.81", "9.8")


def close(a: float, b: float, rel: float = 1e-9) -> bool:
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def answer(S, rng, cat, diff, question, value, unit, meta, mistakes=()):
    """A numeric row (1 % tolerance, stated) or, about a quarter of the time, an mc row whose
    distractors are the given mistaken values (kept only when >= 3 % from the answer)."""
    value = float(value)
    assert math.isfinite(value) and value != 0, (question, value)
    question = K.fix_articles(question)
    meta = {**meta, "value": K.sig_figs(value, 10)}
    wrong = []
    for m in mistakes:
        m = float(m)
        if math.isfinite(m) and m > 0 and all(abs(m - x) > 0.03 * abs(x) for x in [value, *wrong]):
            wrong.append(m)
    if len(wrong) >= 3 and rng.random() < 0.27:
        fmt = lambda v: f"{K.sig_figs(v, 3)} {unit}"  # noqa: E731
        return S.add_mc(rng, category=cat, difficulty=diff, stem=question, correct=fmt(value), distractors=[fmt(w) for w in wrong], meta=meta)
    prompt = f"{question} Give the value in {unit}, to at least 3 significant figures (answers within 1 % are accepted); reply with the number only."
    return S.add(category=cat, difficulty=diff, prompt=prompt, answer=K.sig_figs(value, 6), scorer="numeric", meta={**meta, "rel_tolerance": REL_TOL})


def g_pick(rng) -> tuple[str, Fraction]:
    g = rng.choice(G_CHOICES)
    return g, F(g)


def dec(x) -> str:
    return K.decimal_string(F(x)) if K.is_terminating(F(x)) else K.sig_figs(float(x), 4)


# --- kinematics ------------------------------------------------------------------------


def ki_accel(S, rng, diff, cat):
    a = F(rng.randrange(5, 60), 10)
    t = F(rng.randrange(20, 150), 10)
    vehicle = rng.choice(["A cart", "A sled", "A test car", "An electric scooter", "A lift cabin"])
    if rng.random() < 0.5:
        d = a * t * t / 2
        q = f"{vehicle} starts from rest and accelerates uniformly at {dec(a)} m/s² for {dec(t)} s. How far does it travel in that time?"
        return answer(S, rng, cat, diff, q, d, "m", {"formula": "d = a t² / 2"}, [a * t * t, a * t, a * t / 2])
    v0 = F(rng.randrange(0, 20))
    v = v0 + a * t
    q = f"{vehicle} moving at {v0} m/s accelerates uniformly at {dec(a)} m/s² for {dec(t)} s. What is its final speed?"
    return answer(S, rng, cat, diff, q, v, "m/s", {"formula": "v = v0 + a t"}, [a * t, v0 + a * t / 2, v0 + a * t * t])


def ki_braking(S, rng, diff, cat):
    v_kmh = rng.randrange(30, 130)
    decel = F(rng.randrange(30, 90), 10)
    v = F(v_kmh * 1000, 3600)
    d = v * v / (2 * decel)
    react = F(rng.randrange(5, 20), 10)
    if diff == "easy" or rng.random() < 0.5:
        q = f"A car travelling at {v_kmh} km/h brakes with a constant deceleration of {dec(decel)} m/s². How far does it travel while braking?"
        return answer(S, rng, cat, diff, q, d, "m", {"formula": "d = v² / (2a), v in m/s"}, [F(v_kmh) ** 2 / (2 * decel), v * v / decel, v / decel])
    total = v * react + d
    # independent: integrate the motion in small exact steps of the braking phase
    steps, pos, speed = 2000, v * react, v
    dt = (v / decel) / steps
    for _ in range(steps):
        pos += speed * dt - decel * dt * dt / 2
        speed -= decel * dt
    assert close(float(pos), float(total), 1e-9)
    q = (f"A driver travelling at {v_kmh} km/h sees a hazard, reacts after {dec(react)} s (speed unchanged meanwhile), then brakes at a "
         f"constant {dec(decel)} m/s². What total distance is covered from seeing the hazard to stopping?")
    return answer(S, rng, cat, diff, q, total, "m", {"formula": "d = v t_r + v² / (2a)"}, [d, v_kmh * react + d, v * react + v * v / decel])


def ki_fall(S, rng, diff, cat):
    gt, g = g_pick(rng)
    h = F(rng.randrange(5, 200))
    if diff != "hard":
        t = math.sqrt(float(2 * h / g))
        q = f"A stone is dropped from rest from a height of {h} m. Taking g = {gt} m/s² and ignoring air resistance, how long does it take to reach the ground?"
        return answer(S, rng, cat, diff, q, t, "s", {"formula": "t = √(2h/g)", "constants": {"g": gt}}, [math.sqrt(float(h / g)), float(2 * h / g), math.sqrt(float(2 * h))])
    v = F(rng.randrange(5, 30))
    theta = rng.choice([15, 20, 30, 40, 45, 50, 60])
    vx, vy = float(v) * math.cos(math.radians(theta)), float(v) * math.sin(math.radians(theta))
    t = (vy + math.sqrt(vy * vy + 2 * float(g) * float(h))) / float(g)
    rng_x = vx * t
    # independent: time-step the flight (semi-implicit, fine steps) and compare
    x, y, uy, dt = 0.0, float(h), vy, 1e-4
    while y > 0:
        y += uy * dt - float(g) * dt * dt / 2
        uy -= float(g) * dt
        x += vx * dt
    assert abs(x - rng_x) < 0.002 * rng_x + 0.01
    q = (f"A ball is thrown from the edge of a cliff {h} m above flat ground at {v} m/s, {theta}° above the horizontal. Taking g = {gt} m/s² and "
         "ignoring air resistance, how far from the foot of the cliff does it land?")
    flat = float(v) ** 2 * math.sin(math.radians(2 * theta)) / float(g)
    return answer(S, rng, cat, diff, q, rng_x, "m", {"formula": "solve h + v sinθ t − g t²/2 = 0, x = v cosθ t", "constants": {"g": gt}},
                  [flat, vx * math.sqrt(2 * float(h) / float(g)), float(v) * t])


def ki_meeting(S, rng, diff, cat):
    d = F(rng.randrange(20, 400))
    v1, v2 = F(rng.randrange(30, 120)), F(rng.randrange(30, 120))
    delay = F(rng.randrange(0, 60) if diff == "hard" else 0)
    # second vehicle leaves `delay` minutes later
    t = (d + v2 * delay / 60) / (v1 + v2)  # hours after the first departs
    if t < delay / 60:
        raise K.Redraw("met before the second left")
    x = v1 * t
    # independent: positions coincide
    assert v1 * t == d - v2 * (t - delay / 60)
    a, b = rng.sample(["Ashford", "Brindle", "Corrow", "Dunmere", "Eastwick", "Fallow"], 2)
    extra = f" The second train leaves {delay} minutes after the first." if delay else " Both leave at the same moment."
    q = (f"Two trains run towards each other on a straight track between {a} and {b}, {d} km apart: one from {a} at {v1} km/h and one from {b} "
         f"at {v2} km/h.{extra} How far from {a} do they meet?")
    return answer(S, rng, cat, diff, q, x, "km", {"formula": "x = v1 t with v1 t + v2 (t − delay) = d"}, [d / 2, v2 * t, d * v2 / (v1 + v2)])


# --- dynamics and energy -------------------------------------------------------------------


def dy_force(S, rng, diff, cat):
    m = F(rng.randrange(2, 300), 2)
    if diff == "easy":
        a = F(rng.randrange(5, 60), 10)
        q = f"What net force is needed to give a {dec(m)} kg trolley an acceleration of {dec(a)} m/s²?"
        return answer(S, rng, cat, diff, q, m * a, "N", {"formula": "F = m a"}, [m / a, m * a / 2, m + a])
    gt, g = g_pick(rng)
    theta = rng.choice([10, 15, 20, 25, 30, 35, 40])
    mu = F(rng.randrange(5, 40), 100)
    acc = float(g) * (math.sin(math.radians(theta)) - float(mu) * math.cos(math.radians(theta)))
    if acc <= 0.05:
        raise K.Redraw("block does not slide")
    if diff == "medium":
        q = (f"A block slides down a ramp inclined at {theta}° to the horizontal. The coefficient of kinetic friction is {dec(mu)}. Taking g = {gt} m/s², "
             "what is the block's acceleration along the ramp?")
        return answer(S, rng, cat, diff, q, acc, "m/s²", {"formula": "a = g(sinθ − μ cosθ)", "constants": {"g": gt}},
                      [float(g) * math.sin(math.radians(theta)), float(g) * (math.cos(math.radians(theta)) - float(mu) * math.sin(math.radians(theta))), float(g) * (math.sin(math.radians(theta)) + float(mu) * math.cos(math.radians(theta)))])
    L = F(rng.randrange(2, 30))
    v = math.sqrt(2 * acc * float(L))
    # independent: energy balance m g L sinθ − μ m g cosθ L = ½ m v²
    e = float(g) * float(L) * math.sin(math.radians(theta)) - float(mu) * float(g) * math.cos(math.radians(theta)) * float(L)
    assert close(v, math.sqrt(2 * e), 1e-9)
    q = (f"A crate starts from rest at the top of a {L} m ramp inclined at {theta}°, with a coefficient of kinetic friction of {dec(mu)}. Taking g = {gt} m/s², "
         "how fast is it moving at the bottom?")
    return answer(S, rng, cat, diff, q, v, "m/s", {"formula": "v = √(2 g L (sinθ − μ cosθ))", "constants": {"g": gt}},
                  [math.sqrt(2 * float(g) * float(L) * math.sin(math.radians(theta))), 2 * acc * float(L), acc * float(L)])


def dy_energy(S, rng, diff, cat):
    m = F(rng.randrange(1, 200), 10)
    v = F(rng.randrange(2, 40))
    if diff == "easy":
        q = f"What is the kinetic energy of a {dec(m)} kg ball moving at {v} m/s?"
        return answer(S, rng, cat, diff, q, m * v * v / 2, "J", {"formula": "E = m v² / 2"}, [m * v * v, m * v / 2, m * v])
    if diff == "medium":
        gt, g = g_pick(rng)
        h = F(rng.randrange(2, 80))
        t = F(rng.randrange(4, 60))
        p = m * g * h / t
        q = f"A winch lifts a {dec(m)} kg load {h} m straight up at constant speed in {t} s. Taking g = {gt} m/s², what average power does it deliver to the load?"
        return answer(S, rng, cat, diff, q, p, "W", {"formula": "P = m g h / t", "constants": {"g": gt}}, [m * h / t, m * g * h, m * g * h * t])
    k = F(rng.randrange(100, 2000))
    x = F(rng.randrange(2, 30), 100)
    gt, g = g_pick(rng)
    h = F(rng.randrange(0, 5), 10)
    # spring-launched up a frictionless ramp: ½kx² = ½mv² + m g h
    mm = m / 10
    v2 = (k * x * x - 2 * mm * g * h) / mm
    if v2 <= 0:
        raise K.Redraw("does not reach the height")
    vel = math.sqrt(float(v2))
    assert close(float(k * x * x / 2), float(mm) * vel * vel / 2 + float(mm * g * h), 1e-9)
    q = (f"A spring of stiffness {k} N/m is compressed by {dec(x)} m and launches a {dec(mm)} kg puck along a frictionless track that rises "
         f"{dec(h)} m. Taking g = {gt} m/s², how fast is the puck moving at the top of the rise?")
    return answer(S, rng, cat, diff, q, vel, "m/s", {"formula": "½kx² = ½mv² + mgh", "constants": {"g": gt}},
                  [math.sqrt(float(k * x * x / mm)), float(v2), math.sqrt(float(k * x / mm))])


def dy_collision(S, rng, diff, cat):
    m1, m2 = F(rng.randrange(1, 20)), F(rng.randrange(1, 20))
    u1, u2 = F(rng.randrange(1, 15)), -F(rng.randrange(0, 10))
    if diff != "hard":
        v = (m1 * u1 + m2 * u2) / (m1 + m2)
        if v == 0:
            raise K.Redraw("zero")
        q = (f"A {m1} kg cart moving at {u1} m/s collides with a {m2} kg cart "
             f"{'at rest' if u2 == 0 else f'moving at {-u2} m/s in the opposite direction'}, and they stick together. What is the speed of the pair just after the collision?")
        return answer(S, rng, cat, diff, q, abs(v), "m/s", {"formula": "perfectly inelastic: v = (m1u1 + m2u2)/(m1 + m2)"},
                      [abs((m1 * u1 - m2 * u2) / (m1 + m2)), (u1 + abs(u2)) / 2, abs(m1 * u1 / m2)])
    v1 = ((m1 - m2) * u1 + 2 * m2 * u2) / (m1 + m2)
    v2 = ((m2 - m1) * u2 + 2 * m1 * u1) / (m1 + m2)
    assert m1 * u1 + m2 * u2 == m1 * v1 + m2 * v2 and m1 * u1 * u1 + m2 * u2 * u2 == m1 * v1 * v1 + m2 * v2 * v2
    if v2 == 0:
        raise K.Redraw("zero")
    q = (f"A {m1} kg glider moving at {u1} m/s hits a {m2} kg glider {'at rest' if u2 == 0 else f'moving towards it at {-u2} m/s'} on a frictionless "
         "air track. The collision is perfectly elastic and head-on. What is the speed of the second glider just afterwards?")
    return answer(S, rng, cat, diff, q, abs(v2), "m/s", {"formula": "elastic: momentum and kinetic energy both conserved (checked exactly)"},
                  [abs(v1), abs((m1 * u1 + m2 * u2) / (m1 + m2)), abs(m1 * u1 / m2)])


# --- electricity ---------------------------------------------------------------------------


def el_ohm(S, rng, diff, cat):
    r = F(rng.randrange(2, 500))
    v = F(rng.randrange(3, 240))
    if diff == "easy":
        q = f"A {v} V supply is connected across a {r} Ω resistor. What current flows?"
        return answer(S, rng, cat, diff, q, v / r, "A", {"formula": "I = V/R"}, [r / v, v * r, v / r * 1000])
    if diff == "medium":
        q = f"What power does a {r} Ω resistor dissipate when connected across {v} V?"
        return answer(S, rng, cat, diff, q, v * v / r, "W", {"formula": "P = V²/R"}, [v / r, v * r, v * v / r / 2])
    w = F(rng.randrange(200, 3000))
    hours = F(rng.randrange(1, 12))
    days = rng.randrange(5, 31)
    price = F(rng.randrange(10, 45), 100)
    cost = w / 1000 * hours * days * price
    q = (f"A {w} W heater runs {hours} hours a day for {days} days. Electricity costs {dec(price)} dollars per kWh. What is the total cost, in dollars?")
    return answer(S, rng, cat, diff, q, cost, "dollars", {"formula": "cost = P(kW) × hours × price"}, [w * hours * days * price, w / 1000 * hours * price, cost / 2])


def el_network(S, rng, diff, cat):
    r1, r2, r3 = (F(rng.randrange(1, 100)) for _ in range(3))
    v = F(rng.randrange(3, 60))
    if diff == "easy":
        q = f"Resistors of {r1} Ω and {r2} Ω are connected in parallel. What is their combined resistance?"
        return answer(S, rng, cat, diff, q, r1 * r2 / (r1 + r2), "Ω", {"formula": "1/R = 1/R1 + 1/R2"}, [r1 + r2, (r1 + r2) / 2, r1 * r2])
    par = r2 * r3 / (r2 + r3)
    total = r1 + par
    i = v / total
    if diff == "medium":
        q = f"A {r1} Ω resistor is in series with a parallel pair of {r2} Ω and {r3} Ω, across a {v} V battery. What current does the battery supply?"
        return answer(S, rng, cat, diff, q, i, "A", {"formula": "I = V / (R1 + R2R3/(R2+R3))"}, [v / (r1 + r2 + r3), v / r1, v / par])
    i3 = i * r2 / (r2 + r3)
    # independent: node voltage method
    vn = v * par / total
    assert vn / r3 == i3 and vn / r2 + vn / r3 == i
    q = (f"A {r1} Ω resistor is in series with a parallel pair of {r2} Ω and {r3} Ω, across an ideal {v} V battery. What current flows through the "
         f"{r3} Ω resistor?")
    return answer(S, rng, cat, diff, q, i3, "A", {"formula": "current divider after the series drop"}, [i * r3 / (r2 + r3), v / r3, i / 2])


def el_rc(S, rng, diff, cat):
    r = F(rng.randrange(1, 100)) * 1000
    c = F(rng.randrange(1, 100), 10**6)
    tau = r * c
    if diff == "easy":
        q = f"What is the time constant of a circuit with a {dec(r / 1000)} kΩ resistor and a {dec(c * 10**6)} µF capacitor?"
        return answer(S, rng, cat, diff, q, tau, "s", {"formula": "τ = RC"}, [tau * 1000, r / c / 10**12, tau / 1000])
    v0 = F(rng.randrange(3, 24))
    if diff == "medium":
        q = f"How much energy is stored in a {dec(c * 10**6)} µF capacitor charged to {v0} V?"
        e = c * v0 * v0 / 2
        return answer(S, rng, cat, diff, q, e, "J", {"formula": "E = C V² / 2"}, [c * v0 * v0, c * v0 / 2, e * 10**6])
    t = F(rng.randrange(1, 40), 10) * tau
    vt = float(v0) * (1 - math.exp(-float(t / tau)))
    # independent: Euler integration of dV/dt = (V0 − V)/RC with fine steps
    steps, vv, dt = 20000, 0.0, float(t) / 20000
    for _ in range(steps):
        vv += (float(v0) - vv) / float(tau) * dt
    assert abs(vv - vt) < 1e-3 * float(v0)
    q = (f"An uncharged {dec(c * 10**6)} µF capacitor is charged from a {v0} V source through a {dec(r / 1000)} kΩ resistor. What is the capacitor voltage "
         f"{K.sig_figs(float(t), 4)} s after the switch closes?")
    return answer(S, rng, cat, diff, q, vt, "V", {"formula": "V = V0 (1 − e^(−t/RC))"}, [float(v0) * math.exp(-float(t / tau)), float(v0) * float(t / tau), float(v0) * (1 - math.exp(-float(t / tau) / 1000))])


# --- thermodynamics ------------------------------------------------------------------------------

C_WATER = F(4186)  # J/(kg K), stated in each prompt that uses it


def th_heat(S, rng, diff, cat):
    m = F(rng.randrange(1, 50), 10)
    metal, c = rng.choice([("aluminium", F(900)), ("copper", F(385)), ("iron", F(450)), ("lead", F(128)), ("glass", F(840))])
    dT = F(rng.randrange(5, 80))
    if diff == "easy":
        q = f"How much heat is needed to warm {dec(m)} kg of {metal} by {dT} K? Take its specific heat as {c} J/(kg·K)."
        return answer(S, rng, cat, diff, q, m * c * dT, "J", {"formula": "Q = m c ΔT"}, [m * c, c * dT, m * c * dT / 1000])
    if diff == "medium":
        m2 = F(rng.randrange(1, 50), 10)
        t1, t2 = F(rng.randrange(60, 300)), F(rng.randrange(5, 30))
        tf = (m * c * t1 + m2 * C_WATER * t2) / (m * c + m2 * C_WATER)
        assert m * c * (t1 - tf) == m2 * C_WATER * (tf - t2)
        q = (f"A {dec(m)} kg block of {metal} at {t1} °C is dropped into {dec(m2)} kg of water at {t2} °C in an insulated container. Specific heats: "
             f"{metal} {c} J/(kg·K), water {C_WATER} J/(kg·K). What is the final temperature?")
        return answer(S, rng, cat, diff, q, tf, "°C", {"formula": "heat lost = heat gained"}, [(t1 + t2) / 2, (m * t1 + m2 * t2) / (m + m2), tf + 10])
    mi = F(rng.randrange(1, 20), 10)
    mw = F(rng.randrange(5, 50), 10)
    tw = F(rng.randrange(40, 95))
    lf = F(334000)
    c_ice = F(2100)
    ti = -F(rng.randrange(1, 20))
    # heat to bring ice to 0 and melt it; water cools
    need = mi * c_ice * (-ti) + mi * lf
    avail = mw * C_WATER * tw
    if need >= avail:
        raise K.Redraw("ice does not all melt")
    tf = (avail - need) / ((mi + mw) * C_WATER)
    assert mw * C_WATER * (tw - tf) == mi * c_ice * (-ti) + mi * lf + mi * C_WATER * tf
    q = (f"{dec(mi)} kg of ice at {ti} °C is added to {dec(mw)} kg of water at {tw} °C in an insulated flask. Specific heat of ice 2100 J/(kg·K), of water "
         f"{C_WATER} J/(kg·K); latent heat of fusion 334000 J/kg. All the ice melts. What is the final temperature?")
    return answer(S, rng, cat, diff, q, tf, "°C", {"formula": "m_w c_w (t_w − t) = m_i c_i Δt_i + m_i L + m_i c_w t"},
                  [(mw * tw) / (mi + mw), (avail - mi * lf) / ((mi + mw) * C_WATER), (avail - need) / (mw * C_WATER)])


def th_gas(S, rng, diff, cat):
    R = F(8314, 1000)
    n = F(rng.randrange(1, 50), 10)
    T = F(rng.randrange(250, 600))
    V = F(rng.randrange(5, 200), 1000)
    if diff == "easy":
        P = n * R * T / V
        q = f"{dec(n)} mol of an ideal gas at {T} K fills a {dec(V * 1000)} L container. Taking R = 8.314 J/(mol·K), what is its pressure in kPa?"
        return answer(S, rng, cat, diff, q, P / 1000, "kPa", {"formula": "P = nRT/V", "constants": {"R": "8.314"}}, [P, n * R * T / (V * 1000), P / 1000 * 2])
    P1 = F(rng.randrange(80, 400))
    T1, T2 = F(rng.randrange(250, 400)), F(rng.randrange(250, 600))
    V1, V2 = rng.sample([F(x) for x in range(1, 40)], 2)
    P2 = P1 * V1 / T1 * T2 / V2
    if diff == "medium":
        q = (f"A gas sample at {P1} kPa, {V1} L and {T1} K is {'compressed' if V2 < V1 else 'expanded'} to {V2} L while its temperature becomes {T2} K. "
             "Treating it as ideal, what is the new pressure?")
        return answer(S, rng, cat, diff, q, P2, "kPa", {"formula": "P1V1/T1 = P2V2/T2"}, [P1 * V1 / V2, P1 * T2 / T1, P1 * V2 / V1 * T2 / T1])
    th, tc = F(rng.randrange(400, 900)), F(rng.randrange(250, 380))
    w_in = F(rng.randrange(100, 5000))
    eff = 1 - tc / th
    work = w_in * eff
    q = (f"An ideal (Carnot) engine runs between reservoirs at {th} K and {tc} K and draws {w_in} J of heat from the hot reservoir each cycle. "
         "How much work does it do per cycle?")
    return answer(S, rng, cat, diff, q, work, "J", {"formula": "W = Q_h (1 − T_c/T_h)"}, [w_in * tc / th, w_in * (th - tc) / 273, w_in * (1 - (tc - 273) / (th - 273))])


# --- waves and optics ----------------------------------------------------------------------------


def wa_basic(S, rng, diff, cat):
    f = F(rng.randrange(20, 2000))
    v = F(rng.choice([340, 343, 1480, 5960]))
    medium_name = {340: "air", 343: "air", 1480: "water", 5960: "steel"}[int(v)]
    if diff == "easy":
        q = f"A {f} Hz sound travels through {medium_name} at {v} m/s. What is its wavelength?"
        return answer(S, rng, cat, diff, q, v / f, "m", {"formula": "λ = v/f"}, [f / v, v * f, v / f / 2])
    vs = rng.randrange(5, 60)
    approaching = rng.random() < 0.5
    fo = f * v / (v - vs) if approaching else f * v / (v + vs)
    if diff == "medium":
        q = (f"An ambulance siren emits {f} Hz. The ambulance moves at {vs} m/s {'towards' if approaching else 'away from'} a stationary listener; "
             f"sound travels at {v} m/s. What frequency does the listener hear?")
        return answer(S, rng, cat, diff, q, fo, "Hz", {"formula": "f' = f v/(v ∓ v_s)"}, [f * v / (v + vs) if approaching else f * v / (v - vs), f * (v + vs) / v if approaching else f * (v - vs) / v, f])
    L = F(rng.randrange(20, 300), 100)
    n = rng.randrange(1, 5)
    kind = rng.choice(["open", "closed"])
    freq = n * v / (2 * L) if kind == "open" else (2 * n - 1) * v / (4 * L)
    q = (f"A pipe {dec(L)} m long is {'open at both ends' if kind == 'open' else 'closed at one end'}. Sound travels at {v} m/s. What is the frequency of its "
         f"{K.ordinal(n)} lowest resonance?")
    return answer(S, rng, cat, diff, q, freq, "Hz", {"formula": "open: n v/(2L); closed: (2n − 1) v/(4L)"},
                  [n * v / (4 * L), (2 * n - 1) * v / (2 * L) if kind == "closed" else n * v / L, v / (2 * L)])


def wa_optics(S, rng, diff, cat):
    n1, n2 = rng.sample([F(1), F(133, 100), F(15, 10), F(152, 100), F(242, 100)], 2)
    theta = rng.randrange(10, 70)
    names = {F(1): "air", F(133, 100): "water", F(15, 10): "crown glass", F(152, 100): "acrylic", F(242, 100): "diamond"}
    if diff == "easy":
        fl = F(rng.randrange(5, 50))
        do = F(rng.randrange(int(fl) + 2, 200))
        di = 1 / (1 / fl - 1 / do)
        q = f"An object stands {do} cm in front of a thin converging lens of focal length {fl} cm. How far behind the lens does the sharp image form?"
        return answer(S, rng, cat, diff, q, di, "cm", {"formula": "1/f = 1/d_o + 1/d_i"}, [1 / (1 / fl + 1 / do), do - fl, do * fl / (do + fl) * 2])
    if diff == "medium":
        s = float(n1) * math.sin(math.radians(theta)) / float(n2)
        if s >= 1:
            raise K.Redraw("total internal reflection")
        ang = math.degrees(math.asin(s))
        q = (f"Light passes from {names[n1]} (refractive index {dec(n1)}) into {names[n2]} (refractive index {dec(n2)}), meeting the boundary at {theta}° "
             "to the normal. What is the angle of refraction, measured from the normal?")
        return answer(S, rng, cat, diff, q, ang, "degrees", {"formula": "n1 sinθ1 = n2 sinθ2"},
                      [theta * float(n1 / n2), math.degrees(math.asin(min(0.999, float(n2) * math.sin(math.radians(theta)) / float(n1)))) if float(n2) * math.sin(math.radians(theta)) / float(n1) < 1 else 89.0, 90 - ang])
    if rng.random() < 0.5:
        hi, lo = max(n1, n2), min(n1, n2)
        crit = math.degrees(math.asin(float(lo / hi)))
        q = f"What is the critical angle for light inside {names[hi]} (refractive index {dec(hi)}) meeting a boundary with {names[lo]} (refractive index {dec(lo)})?"
        return answer(S, rng, cat, diff, q, crit, "degrees", {"formula": "sinθc = n2/n1"}, [90 - crit, math.degrees(math.atan(float(lo / hi))), float(lo / hi) * 90])
    lines = rng.choice([300, 500, 600, 800, 1000, 1200])
    lam = rng.randrange(400, 700)
    m = rng.randrange(1, 3)
    s = m * lam * 1e-9 * lines * 1000
    if s >= 1:
        raise K.Redraw("order does not exist")
    ang = math.degrees(math.asin(s))
    q = f"Light of wavelength {lam} nm falls normally on a diffraction grating with {lines} lines per millimetre. At what angle from the straight-through direction is the {K.ordinal(m)}-order maximum?"
    return answer(S, rng, cat, diff, q, ang, "degrees", {"formula": "d sinθ = mλ"}, [math.degrees(math.asin(s / m)) if m > 1 else 2 * ang, math.degrees(s), 90 - ang])


# --- chemistry ------------------------------------------------------------------------------------

ATOMIC = {"H": F(1008, 1000), "C": F(12011, 1000), "N": F(14007, 1000), "O": F(15999, 1000), "Na": F(22990, 1000), "Cl": F(35453, 1000),
          "Ca": F(40078, 1000), "S": F(32065, 1000), "Fe": F(55845, 1000), "Mg": F(24305, 1000), "K": F(39098, 1000), "Al": F(26982, 1000)}
COMPOUNDS = {"H2O": {"H": 2, "O": 1}, "CO2": {"C": 1, "O": 2}, "NaCl": {"Na": 1, "Cl": 1}, "CaCO3": {"Ca": 1, "C": 1, "O": 3},
             "H2SO4": {"H": 2, "S": 1, "O": 4}, "NH3": {"N": 1, "H": 3}, "C6H12O6": {"C": 6, "H": 12, "O": 6}, "MgO": {"Mg": 1, "O": 1},
             "KCl": {"K": 1, "Cl": 1}, "Fe2O3": {"Fe": 2, "O": 3}, "CH4": {"C": 1, "H": 4}, "Al2O3": {"Al": 2, "O": 3}}


def molar(formula: str) -> Fraction:
    return sum(ATOMIC[el] * k for el, k in COMPOUNDS[formula].items())


def masses_text(*formulas: str) -> str:
    els = sorted({el for f in formulas for el in COMPOUNDS[f]})
    return ", ".join(f"{el} = {K.decimal_string(ATOMIC[el])}" for el in els)


def ch_moles(S, rng, diff, cat):
    f = rng.choice(["H2O", "CO2", "NaCl", "CaCO3", "H2SO4", "NH3", "C6H12O6", "MgO", "KCl", "Fe2O3", "CH4", "Al2O3"] if diff == "easy"
                   else ["NaCl", "KCl", "C6H12O6", "H2SO4", "NH3"])
    M = molar(f)
    m = F(rng.randrange(5, 500))
    if diff == "easy":
        q = f"How many moles are in {m} g of {f}? Use atomic masses (g/mol) {masses_text(f)}."
        return answer(S, rng, cat, diff, q, m / M, "mol", {"formula": "n = m/M", "molar_mass": K.decimal_string(M)}, [m * M, M / m, m / (M / 2)])
    vol = F(rng.randrange(100, 2000))
    conc = m / M / (vol / 1000)
    if diff == "medium" or rng.random() < 0.5:
        q = f"{m} g of {f} is dissolved in water to make {vol} mL of solution. What is the molar concentration? Use atomic masses (g/mol) {masses_text(f)}."
        return answer(S, rng, cat, diff, q, conc, "mol/L", {"formula": "c = (m/M)/V", "molar_mass": K.decimal_string(M)}, [m / M / vol, m / vol, conc * 2])
    v_final = vol + F(rng.randrange(100, 3000))
    c2 = conc * vol / v_final
    q = (f"{m} g of {f} is dissolved to make {vol} mL of solution, which is then diluted with water to {v_final} mL. What is the final molar concentration? "
         f"Use atomic masses (g/mol) {masses_text(f)}.")
    return answer(S, rng, cat, diff, q, c2, "mol/L", {"formula": "c2 = c1 V1/V2"}, [conc, conc * v_final / vol, m / M / (v_final - vol) * 1000])


REACTIONS = [
    ({"CH4": 1, "O2": 2}, {"CO2": 1, "H2O": 2}, "CH4 + 2 O2 → CO2 + 2 H2O"),
    ({"Mg": 2, "O2": 1}, {"MgO": 2}, "2 Mg + O2 → 2 MgO"),
    ({"Fe": 4, "O2": 3}, {"Fe2O3": 2}, "4 Fe + 3 O2 → 2 Fe2O3"),
    ({"Al": 4, "O2": 3}, {"Al2O3": 2}, "4 Al + 3 O2 → 2 Al2O3"),
    ({"CaCO3": 1}, {"CO2": 1}, "CaCO3 → CaO + CO2"),
    ({"N2": 1, "H2": 3}, {"NH3": 2}, "N2 + 3 H2 → 2 NH3"),
]
ELEMENTS_AS = {"O2": {"O": 2}, "Mg": {"Mg": 1}, "Fe": {"Fe": 1}, "Al": {"Al": 1}, "N2": {"N": 2}, "H2": {"H": 2}}
COMPOUNDS.update(ELEMENTS_AS)


def ch_stoich(S, rng, diff, cat):
    react, prod, eq = rng.choice(REACTIONS if diff != "easy" else REACTIONS[:5])
    r_names, p_names = list(react), list(prod)
    p = rng.choice(p_names)
    if diff == "hard" and len(r_names) == 2:
        masses = {r: F(rng.randrange(5, 200)) for r in r_names}
        extents = {r: masses[r] / molar(r) / react[r] for r in r_names}
        lim = min(extents, key=lambda r: extents[r])
        product = extents[lim] * prod[p] * molar(p)
        # independent: mass balance -- total reactant mass consumed equals total product mass formed
        consumed = sum(extents[lim] * react[r] * molar(r) for r in r_names)
        formed = sum(extents[lim] * prod[x] * molar(x) for x in p_names)
        assert consumed == formed or eq.startswith("CaCO3")
        q = (f"For the reaction {eq}, {K.decimal_string(masses[r_names[0]])} g of {r_names[0]} and {K.decimal_string(masses[r_names[1]])} g of {r_names[1]} react "
             f"until one runs out. What mass of {p} forms? Use atomic masses (g/mol) {masses_text(*r_names, *p_names)}.")
        other = max(extents, key=lambda r: extents[r])
        return answer(S, rng, cat, diff, q, product, "g", {"formula": "limiting reagent", "limiting": lim},
                      [extents[other] * prod[p] * molar(p), sum(masses.values()), masses[lim] / molar(lim) * molar(p)])
    r = rng.choice(r_names)
    m = F(rng.randrange(2, 300))
    product = m / molar(r) / react[r] * prod[p] * molar(p)
    q = f"For the reaction {eq}, what mass of {p} forms from {m} g of {r} with the other reactants in excess? Use atomic masses (g/mol) {masses_text(r, p)}."
    return answer(S, rng, cat, diff, q, product, "g", {"formula": "mass → moles → ratio → mass"}, [m, m / molar(r) * molar(p), product * react[r] / prod[p] * 2])


def ch_ph_decay(S, rng, diff, cat):
    if diff == "easy":
        c = F(rng.randrange(1, 99), 10 ** rng.randrange(2, 5))
        acid = rng.choice(["HCl", "HNO3"])
        ph = -math.log10(float(c))
        q = f"What is the pH of a {K.sig_figs(float(c), 3)} mol/L solution of the strong acid {acid} (fully dissociated)?"
        return answer(S, rng, cat, diff, q, ph, "pH units", {"formula": "pH = −log10[H+]"}, [-math.log(float(c)), 14 - ph, -math.log10(float(c) / 2)])
    if diff == "medium":
        half = F(rng.randrange(2, 60))
        t = F(rng.randrange(1, 200))
        m0 = F(rng.randrange(10, 1000))
        left = float(m0) * 2 ** (-float(t / half))
        unit = rng.choice(["days", "years", "hours"])
        q = f"An isotope has a half-life of {half} {unit}. Of a {m0} mg sample, how much remains undecayed after {t} {unit}?"
        return answer(S, rng, cat, diff, q, left, "mg", {"formula": "m = m0 (1/2)^(t/T½)"}, [float(m0) * max(0.0, 1 - float(t / half) / 2), float(m0) / float(t / half), float(m0) * math.exp(-float(t / half))])
    ca, va = F(rng.randrange(1, 20), 100), F(rng.randrange(10, 100))
    cb, vb = F(rng.randrange(1, 20), 100), F(rng.randrange(10, 100))
    h = ca * va - cb * vb
    if h == 0:
        raise K.Redraw("neutral")
    vt = va + vb
    ph = -math.log10(float(h / vt)) if h > 0 else 14 + math.log10(float(-h / vt))
    q = (f"{va} mL of {dec(ca)} mol/L HCl is mixed with {vb} mL of {dec(cb)} mol/L NaOH. Both are fully dissociated; take Kw = 1.0e-14 at this temperature. "
         "What is the pH of the mixture?")
    naive = -math.log10(float(abs(ca - cb))) if ca != cb else 7.0
    return answer(S, rng, cat, diff, q, ph, "pH units", {"formula": "excess H+ or OH− over the total volume"},
                  [naive if h > 0 else 14 - naive, 14 - ph, -math.log10(float(abs(h)) / 1000) if h > 0 else 14 + math.log10(float(-h) / 1000)])


CATEGORIES = {
    "kinematics": [ki_accel, ki_braking, ki_fall, ki_meeting],
    "dynamics": [dy_force, dy_energy, dy_collision],
    "electricity": [el_ohm, el_network, el_rc],
    "thermodynamics": [th_heat, th_gas],
    "waves_optics": [wa_basic, wa_optics],
    "chemistry": [ch_moles, ch_stoich, ch_ph_decay],
}


def make_rows() -> K.EvalSet:
    S = K.EvalSet(DATASET_ID, "sci2")
    K.fill(S, random.Random(SEED), CATEGORIES, PER_CELL)
    return S


def generate(out: Path) -> None:
    S = make_rows()
    S.write(
        out,
        description=(
            "Applied physics and chemistry with every constant pinned in the prompt (second wave): "
            "kinematics, dynamics, electricity, thermodynamics, waves and optics, chemistry, "
            "easy/medium/hard. Numeric answers to six significant figures scored with a stated 1 % "
            "tolerance (meta.rel_tolerance), about a quarter mc with mistake-derived distractors; hard "
            "items are re-derived by a second route"
        ),
        generator=__file__,
        seed=SEED,
        default_scorer="numeric",
        date=K.SECOND_WAVE_DATE,
    )


if __name__ == "__main__":
    generate(_lib.out_dir_from_argv(DATASET_ID))
