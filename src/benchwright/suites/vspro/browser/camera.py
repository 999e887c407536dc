"""The vspro 3D contract (facts C7) as plain math: scene, orbit camera, projection, ray picks.

Written from the contract text, independently of any app: the probe uses it to aim its
clicks, the T checks to recompute what each pixel must show. Screen coordinates are CSS
pixels of the canvas, origin top-left. Nothing here touches a browser.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Vec = tuple[float, float, float]

STATUSES = ("settled", "pending", "refunded", "failed")
"""Row index ``j`` of each status (back to front)."""
STATUS_RGB: Mapping[str, tuple[int, int, int]] = {
    "settled": (22, 163, 74), "pending": (245, 158, 11),
    "refunded": (139, 92, 246), "failed": (220, 38, 38),
}  # fmt: skip
BACKGROUND = (15, 23, 42)  # #0F172A
SIDE_FACTOR = 0.62
CELL, HALF, H_PER_COUNT = 1.5, 0.5, 0.25
TARGET: Vec = (0.0, 3.0, 0.0)
K = 1 / math.tan(math.radians(25))  # fovY 50 degrees
NEAR = 0.1
PITCH_RANGE, DISTANCE_RANGE = (5.0, 85.0), (10.0, 90.0)
DRAG_DEG_PER_PX, WHEEL_K = 0.35, 0.0012


def side_rgb(status: str) -> tuple[int, int, int]:
    """A side face: each channel of the top colour x 0.62, rounded (half up)."""
    r, g, b = (math.floor(c * SIDE_FACTOR + 0.5) for c in STATUS_RGB[status])
    return r, g, b


@dataclass(frozen=True)
class Camera:
    yaw: float = 35.0
    pitch: float = 27.0
    distance: float = 30.0

    def eye(self) -> Vec:
        t, p, d = math.radians(self.yaw), math.radians(self.pitch), self.distance
        return (TARGET[0] + d * math.cos(p) * math.sin(t), TARGET[1] + d * math.sin(p),
                TARGET[2] + d * math.cos(p) * math.cos(t))  # fmt: skip

    def basis(self) -> tuple[Vec, Vec, Vec]:
        """(f, r, u): forward ``norm(T - eye)``, right ``norm(f x y)``, up ``r x f``."""
        f = _norm(_sub(TARGET, self.eye()))
        r = _norm(_cross(f, (0.0, 1.0, 0.0)))
        return f, r, _cross(r, f)

    def project(self, point: Vec, width: float, height: float) -> tuple[float, float] | None:
        """C7's ``(sx, sy)``, or None when the point is not in front (``zc <= 0.1``)."""
        f, r, u = self.basis()
        q = _sub(point, self.eye())
        xc, yc, zc = _dot(q, r), _dot(q, u), _dot(q, f)
        if zc <= NEAR:
            return None
        return ((K / (width / height)) * xc / zc + 1) / 2 * width, (1 - K * yc / zc) / 2 * height

    def ray(self, sx: float, sy: float, width: float, height: float) -> Vec:
        """Unit direction from the eye through CSS pixel ``(sx, sy)``."""
        f, r, u = self.basis()
        cx = ((sx / width) * 2 - 1) / (K / (width / height))
        cy = (1 - 2 * sy / height) / K
        return _norm(tuple(f[k] + cx * r[k] + cy * u[k] for k in range(3)))  # type: ignore[arg-type]


DEFAULT_CAMERA = Camera()


def after_wheel(cam: Camera, delta_y: float) -> Camera:
    d = _clamp(cam.distance * math.exp(WHEEL_K * delta_y), *DISTANCE_RANGE)
    return Camera(cam.yaw, cam.pitch, d)


def after_drag(cam: Camera, dx: float, dy: float) -> Camera:
    pitch = _clamp(cam.pitch + DRAG_DEG_PER_PX * dy, *PITCH_RANGE)
    return Camera(cam.yaw - DRAG_DEG_PER_PX * dx, pitch, cam.distance)


def angle_between(a: float, b: float) -> float:
    """Angular distance in degrees, modulo 360 (yaw -7 and 353 are the same)."""
    d = (a - b) % 360.0
    return min(d, 360.0 - d)


@dataclass(frozen=True)
class Bar:
    key: str
    day: str
    status: str
    i: int
    j: int
    count: int
    x: float
    z: float
    h: float

    @property
    def top_rgb(self) -> tuple[int, int, int]:
        return STATUS_RGB[self.status]

    def box(self) -> tuple[Vec, Vec]:
        return (self.x - HALF, 0.0, self.z - HALF), (self.x + HALF, self.h, self.z + HALF)

    def top_corners(self) -> tuple[Vec, ...]:
        x0, x1, z0, z1 = self.x - HALF, self.x + HALF, self.z - HALF, self.z + HALF
        return (x0, self.h, z0), (x1, self.h, z0), (x1, self.h, z1), (x0, self.h, z1)


def scene_bars(buckets: Mapping) -> tuple[Bar, ...]:
    """The bars the contract requires for ``/api/buckets``-shaped data; zero counts draw none."""
    days = list(buckets.get("days") or [])
    n, bars = len(days), []
    for cell in buckets.get("cells") or []:
        count, status = int(cell.get("count") or 0), cell.get("status")
        if count <= 0 or status not in STATUSES or cell.get("day") not in days:
            continue
        i, j = days.index(cell["day"]), STATUSES.index(status)
        x, z = (i - (n - 1) / 2) * CELL, (j - 1.5) * CELL
        bars.append(Bar(f"{cell['day']}|{status}", cell["day"], status, i, j, count, x, z,
                        count * H_PER_COUNT))  # fmt: skip
    return tuple(bars)


@dataclass(frozen=True)
class Hit:
    bar: Bar
    t: float
    face: str
    """``top`` or ``side`` (bars have no visible bottom from above the ground)."""


def hit(bars: Iterable[Bar], cam: Camera, sx: float, sy: float, w: float, h: float) -> Hit | None:
    """The nearest bar surface along the ray through ``(sx, sy)``: what the depth buffer keeps."""
    eye, d = cam.eye(), cam.ray(sx, sy, w, h)
    best: Hit | None = None
    for bar in bars:
        t = _ray_box(eye, d, *bar.box())
        if t is not None and (best is None or t < best.t):
            y = eye[1] + t * d[1]
            best = Hit(bar, t, "top" if abs(y - bar.h) < 1e-6 else "side")
    return best


def polygon_area(points: Sequence[tuple[float, float]]) -> float:
    pairs = zip(points, (*points[1:], points[0]), strict=True)
    return abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in pairs)) / 2


def top_area(bar: Bar, cam: Camera, w: float, h: float) -> float:
    """Projected area (CSS px^2) of the top face; 0 when a corner is behind the camera."""
    corners = [cam.project(c, w, h) for c in bar.top_corners()]
    return 0.0 if None in corners else polygon_area(corners)  # type: ignore[arg-type]


# -- sampling: where a pixel's colour is unambiguous ----------------------------------------

INSET = 3
CLEAR_PX = 2
MIN_FACE_PX2 = 25.0
ABOVE_TOP = 0.6
SKY_GRID = (8, 5)


@dataclass(frozen=True)
class Sample:
    kind: str
    """``top``, ``above`` (just over a top: background), ``side`` or ``sky``."""
    sx: float
    sy: float
    expect: tuple[int, int, int]
    key: str | None = None
    """The bar whose surface it samples (None for background)."""


def samples(bars: Sequence[Bar], cam: Camera, w: float, h: float) -> tuple[Sample, ...]:
    """Graded sample points: occluded, backfacing, sub-25 px^2 and edge-ambiguous ones dropped.

    A point is kept only when the rays through it and its 8 neighbours 2 px away all
    meet the same bar face (or all meet nothing, for background samples).
    """
    out: list[Sample] = []
    eye = cam.eye()
    for bar in bars:
        if eye[1] > bar.h + 1e-6 and top_area(bar, cam, w, h) >= MIN_FACE_PX2:
            out += _keep("top", cam.project((bar.x, bar.h, bar.z), w, h), bars, cam, w, h,
                         bar.top_rgb, bar, "top")  # fmt: skip
        out += _keep("above", cam.project((bar.x, bar.h + ABOVE_TOP, bar.z), w, h), bars, cam,
                     w, h, BACKGROUND)  # fmt: skip
        face = _front_side(bar, cam, w, h)
        if face is not None:
            out += _keep("side", face, bars, cam, w, h, side_rgb(bar.status), bar, "side")
    cols, rows = SKY_GRID
    for ix in range(cols):
        for iy in range(rows):
            point = ((ix + 0.5) * w / cols, (iy + 0.5) * h / rows)
            out += _keep("sky", point, bars, cam, w, h, BACKGROUND)
    return tuple(out)


def depth_pair(bars: Sequence[Bar], cam: Camera, w: float, h: float) -> tuple[Bar, Bar, tuple[
        float, float]] | None:  # fmt: skip
    """(occluder, occluded, point): a top centre of one bar hidden, with margin, by a nearer
    bar of another status; None when no cross-status occlusion is on screen."""
    eye = cam.eye()
    for far in bars:
        point = cam.project((far.x, far.h, far.z), w, h)
        if eye[1] <= far.h or point is None or not _inside(point, w, h):
            continue
        first = hit(bars, cam, *point, w, h)
        if first is None or first.bar.status == far.status:
            continue
        ok = all(
            (near := hit(bars, cam, x, y, w, h)) is not None and near.bar == first.bar
            and (own := hit((far,), cam, x, y, w, h)) is not None and own.face == "top"
            for x, y in _around(point)
        )  # fmt: skip
        if ok:
            return first.bar, far, point
    return None


def _keep(kind, point, bars, cam, w, h, rgb, bar=None, face=None) -> list[Sample]:
    if point is None or not _inside(point, w, h):
        return []
    for x, y in _around(point):
        found = hit(bars, cam, x, y, w, h)
        if bar is None and found is not None:
            return []
        if bar is not None and (found is None or found.bar != bar or found.face != face):
            return []
    return [Sample(kind, point[0], point[1], rgb, bar.key if bar else None)]


def _front_side(bar: Bar, cam: Camera, w: float, h: float) -> tuple[float, float] | None:
    """Centre of the side face that faces the camera most, if it is big enough on screen."""
    eye, best = cam.eye(), None
    for nx, nz in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        centre = (bar.x + nx * HALF, bar.h / 2, bar.z + nz * HALF)
        facing = _dot((nx, 0.0, nz), _norm(_sub(eye, centre)))
        if facing > 0 and (best is None or facing > best[0]):
            best = (facing, centre, nx, nz)
    if best is None:
        return None
    _, (cx, _, cz), nx, nz = best
    dx, dz = (0.0, HALF) if nx else (HALF, 0.0)
    quad = [cam.project((cx + sx * dx, y, cz + sx * dz), w, h)
            for sx, y in ((-1, 0.0), (1, 0.0), (1, bar.h), (-1, bar.h))]  # fmt: skip
    if None in quad or polygon_area(quad) < MIN_FACE_PX2:  # type: ignore[arg-type]
        return None
    return cam.project(best[1], w, h)


def _inside(point: tuple[float, float], w: float, h: float) -> bool:
    return INSET <= point[0] <= w - INSET - 1 and INSET <= point[1] <= h - INSET - 1


def _around(point: tuple[float, float]) -> list[tuple[float, float]]:
    return [(point[0] + dx, point[1] + dy) for dy in (-CLEAR_PX, 0, CLEAR_PX)
            for dx in (-CLEAR_PX, 0, CLEAR_PX)]  # fmt: skip


def _ray_box(o: Vec, d: Vec, lo: Vec, hi: Vec) -> float | None:
    t0, t1 = -math.inf, math.inf
    for k in range(3):
        if abs(d[k]) < 1e-12:
            if o[k] < lo[k] or o[k] > hi[k]:
                return None
            continue
        a, b = (lo[k] - o[k]) / d[k], (hi[k] - o[k]) / d[k]
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
    return max(t0, 0.0) if t0 <= t1 and t1 > 0 else None


def _clamp(v: float, lo: float, hi: float) -> float:
    return min(hi, max(lo, v))


def _sub(a: Vec, b: Vec) -> Vec:
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


def _dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(a: Vec, b: Vec) -> Vec:
    return a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]


def _norm(a: Vec) -> Vec:
    n = math.sqrt(_dot(a, a)) or 1.0
    return a[0] / n, a[1] / n, a[2] / n
