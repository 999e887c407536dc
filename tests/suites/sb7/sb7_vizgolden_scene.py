"""The golden 3D field's scene recomputed in Python from ``/api/viz/records`` alone (spec
§8.1, §8.4, §8.5): placement, the digest, the printed projection, the nearest column
along a pixel's ray, and the greedy label cull. The golden viz.js tests compare the page
with these numbers, so that the page is checked against the spec's formulas and never
against itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date

EXPONENT = {"EUR": 2, "USD": 2, "JPY": 0, "KWD": 3}
PITCH, SPAN_DAYS, HALF_FOOT = 1.2, 96, 0.45
LABEL_W, LABEL_H = 110, 18
TOP = {
    "settled": (5, 150, 105),
    "pending": (217, 119, 6),
    "refunded": (124, 58, 237),
    "failed": (185, 28, 28),
}
BACKGROUND = (16, 24, 40)


@dataclass(frozen=True)
class Column:
    """One record's column: arrival index ``n``, placement and height."""

    n: int
    id: str
    status: str
    major: float
    x: float
    z: float
    h: float


def height(amount_minor: int, currency: str) -> float:
    major = amount_minor / 10 ** EXPONENT[currency]
    return min(4.2, max(0.2, 0.9 + 0.55 * math.log10(major))) if major > 0 else 0.2


def columns(viz: dict) -> tuple[dict, list[Column]]:
    """(the layout basis, every column) of a first ``/api/viz/records`` answer."""
    per_day: dict[str, int] = {}
    for day in viz["day"]:
        per_day[day] = per_day.get(day, 0) + 1
    basis = {"d0": min(per_day), "D0": SPAN_DAYS, "R0": max(per_day.values())}
    first, ranks, out = date.fromisoformat(basis["d0"]), dict.fromkeys(per_day, 0), []
    for n in range(viz["count"]):
        day, currency = viz["day"][n], viz["currency"][n]
        rank, ranks[day] = ranks[day], ranks[day] + 1
        d = (date.fromisoformat(day) - first).days
        out.append(
            Column(
                n=n,
                id=viz["id"][n],
                status=viz["status"][n],
                major=viz["amount_minor"][n] / 10 ** EXPONENT[currency],
                x=(d - (SPAN_DAYS - 1) / 2) * PITCH,
                z=(rank - (basis["R0"] - 1) / 2) * PITCH,
                h=height(viz["amount_minor"][n], currency),
            )
        )
    return basis, out


def digest(cols: list[Column], brushed: int = 0) -> dict:
    sums = {
        "Sh": math.fsum(c.h for c in cols),
        "Sh2": math.fsum(c.h * c.h for c in cols),
        "Sx": math.fsum(c.x for c in cols),
        "Sz": math.fsum(c.z for c in cols),
        "Sxh": math.fsum(c.x * c.h for c in cols),
        "Szh": math.fsum(c.z * c.h for c in cols),
    }
    return {"count": len(cols), **sums, "brushedCount": brushed}


@dataclass(frozen=True)
class Camera:
    """The printed orbit camera over a canvas of ``w`` x ``h`` CSS pixels."""

    yaw: float
    pitch: float
    distance: float
    w: float
    h: float

    def basis(self) -> tuple[tuple[float, ...], ...]:
        th, ph, d = math.radians(self.yaw), math.radians(self.pitch), self.distance
        eye = (
            d * math.cos(ph) * math.sin(th),
            1 + d * math.sin(ph),
            d * math.cos(ph) * math.cos(th),
        )
        f = _unit((-eye[0], 1 - eye[1], -eye[2]))
        r = _unit((-f[2], 0.0, f[0]))
        u = (r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0])
        return eye, f, r, u

    def project(self, x: float, y: float, z: float) -> tuple[float, float] | None:
        eye, f, r, u = self.basis()
        q = (x - eye[0], y - eye[1], z - eye[2])
        zc = _dot(q, f)
        if zc <= 0.5:
            return None
        k = 1 / math.tan(math.radians(25))
        ndcx, ndcy = k / (self.w / self.h) * _dot(q, r) / zc, k * _dot(q, u) / zc
        return (ndcx + 1) / 2 * self.w, (1 - ndcy) / 2 * self.h

    def nearest(self, sx: float, sy: float, cols: list[Column]) -> int | None:
        """The column the ray through CSS point (sx, sy) hits first (its ``n``), or None."""
        eye, f, r, u = self.basis()
        k = 1 / math.tan(math.radians(25))
        nx, ny = sx / self.w * 2 - 1, 1 - sy / self.h * 2
        ray = tuple(f[i] + nx * (self.w / self.h) / k * r[i] + ny / k * u[i] for i in range(3))
        best: tuple[float, int] | None = None
        for c in cols:
            hit = _slab(
                eye,
                ray,
                (c.x - HALF_FOOT, 0.0, c.z - HALF_FOOT),
                (c.x + HALF_FOOT, c.h, c.z + HALF_FOOT),
            )
            if hit is not None and (best is None or hit < best[0]):
                best = (hit, c.n)
        return None if best is None else best[1]


def pixel_centre(sx: float, sy: float) -> tuple[float, float]:
    """The CSS centre of the device pixel (at DPR 1) that pick reads for (sx, sy)."""
    return round(sx) + 0.5, round(sy) + 0.5


def candidates(cols: list[Column]) -> list[Column]:
    return sorted(cols, key=lambda c: (-c.major, c.id))[:12]


def expected_labels(cam: Camera, cols: list[Column]) -> dict[str, tuple[float, float]]:
    """id -> the top left of each label the greedy cull shows (the ray decides hiding)."""
    shown: dict[str, tuple[float, float]] = {}
    for c in candidates(cols):
        anchor = cam.project(c.x, c.h, c.z)
        if anchor is None or not (0 <= anchor[0] < cam.w and 0 <= anchor[1] < cam.h):
            continue
        if cam.nearest(*pixel_centre(*anchor), cols) != c.n:
            continue
        box = (anchor[0] + 10, anchor[1] - 9)
        if any(_overlap(box, other) for other in shown.values()):
            continue
        shown[c.id] = box
    return shown


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    wide = min(a[0], b[0]) + LABEL_W - max(a[0], b[0])
    tall = min(a[1], b[1]) + LABEL_H - max(a[1], b[1])
    return wide >= 1 and tall >= 1


def _slab(eye: tuple, ray: tuple, lo: tuple, hi: tuple) -> float | None:
    near, far = -math.inf, math.inf
    for i in range(3):
        if abs(ray[i]) < 1e-12:
            if not lo[i] <= eye[i] <= hi[i]:
                return None
            continue
        a, b = (lo[i] - eye[i]) / ray[i], (hi[i] - eye[i]) / ray[i]
        near, far = max(near, min(a, b)), min(far, max(a, b))
    return near if near <= far and near > 0 else None


def _unit(v: tuple[float, ...]) -> tuple[float, float, float]:
    length = math.hypot(*v)
    return (v[0] / length, v[1] / length, v[2] / length)


def _dot(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
