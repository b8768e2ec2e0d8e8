// What a body meets: the obstacles of a planar (vine) run as flat shapes, and the ground and rigid
// obstacles of a rod run with contact (scene key `contact`, docs/physics/contact.md) as 3D shapes
// that follow their prescribed paths, with their signed distances for the contact-gap field.
import * as THREE from 'three';

const OBSTACLE_COLOUR = 0x8a8f98;
const GROUND_COLOUR = 0xb9b2a4;

/** Obstacles of a planar (vine) run as flat grey shapes just below the body's plane. */
export function planarObstacleMeshes(run, box, radius) {
  const group = new THREE.Group();
  const material = new THREE.MeshBasicMaterial({ color: OBSTACLE_COLOUR, side: THREE.DoubleSide });
  const size = box.getSize(new THREE.Vector3()).length() || 1;
  const centre = box.getCenter(new THREE.Vector3());
  const polygon = (points) => new THREE.ShapeGeometry(new THREE.Shape(points.map(([u, v]) => new THREE.Vector2(u, v))));
  for (const o of run.obstacles) {
    let g = null;
    if (o.type === 'circle') {
      g = new THREE.CircleGeometry(o.radius, 48);
      g.translate(o.center[0], o.center[1], 0);
    } else if (o.type === 'polygon') {
      g = polygon(o.vertices);
    } else if (o.type === 'box') {
      const [w, h] = o.size, c = Math.cos(o.angle || 0), s = Math.sin(o.angle || 0);
      g = polygon([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]].map(([u, v]) =>
        [o.center[0] + c * u - s * v, o.center[1] + s * u + c * v]));
    } else if (o.type === 'segment') {
      const [ax, ay] = o.a, [bx, by] = o.b, l = Math.hypot(bx - ax, by - ay) || 1;
      const w = Math.max(o.radius || 0, 0.002 * size), nx = (-(by - ay) / l) * w, ny = ((bx - ax) / l) * w;
      g = polygon([[ax + nx, ay + ny], [bx + nx, by + ny], [bx - nx, by - ny], [ax - nx, ay - ny]]);
    } else if (o.type === 'half_plane') {
      // a large rectangle on the solid side of the wall line
      const [px, py] = o.point, [nx, ny] = o.normal, l = Math.hypot(nx, ny) || 1;
      const ux = -ny / l, uy = nx / l, L = 10 * size + Math.hypot(centre.x - px, centre.y - py);
      g = polygon([[px - L * ux, py - L * uy], [px + L * ux, py + L * uy],
                   [px + L * ux - L * nx / l, py + L * uy - L * ny / l], [px - L * ux - L * nx / l, py - L * uy - L * ny / l]]);
    }
    if (g) {
      g.translate(0, 0, -2 * radius);
      group.add(new THREE.Mesh(g, material));
    }
  }
  return group;
}

// rotation matrix of a rotation vector (axis times angle [rad]), Rodrigues' formula
function rotationMatrix([x, y, z]) {
  const angle = Math.hypot(x, y, z);
  return angle > 0 ? new THREE.Matrix4().makeRotationAxis(new THREE.Vector3(x / angle, y / angle, z / angle), angle)
                   : new THREE.Matrix4();
}

// translation d(t) [m] along a path of rows [t, dx, dy, dz], piecewise linear, constant outside
function pathDisplacement(path, t) {
  if (!path || !path.length) return [0, 0, 0];
  if (t <= path[0][0]) return path[0].slice(1, 4);
  for (let k = 1; k < path.length; ++k)
    if (t <= path[k][0]) {
      const [t0, ...a] = path[k - 1], [t1, ...b] = path[k];
      const w = t1 > t0 ? (t - t0) / (t1 - t0) : 1;
      return a.map((v, i) => v + w * (b[i] - v));
    }
  return path[path.length - 1].slice(1, 4);
}

const unit = ([x, y, z]) => { const l = Math.hypot(x, y, z) || 1; return [x / l, y / l, z / l]; };
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

// signed distance phi_0(p) [m] of an obstacle at its placement (negative inside), as in
// src/tendril/contact/obstacles/rigid_obstacle.hpp
function placedDistance(o, p) {
  if (o.shape === 'plane') return dot(o.normal, sub(p, o.point));
  if (o.shape === 'sphere') return Math.hypot(...sub(p, o.center)) - o.radius;
  if (o.shape === 'capsule') {
    const axis = sub(o.p1, o.p0), l2 = dot(axis, axis);
    const s = l2 > 0 ? Math.min(Math.max(dot(sub(p, o.p0), axis) / l2, 0), 1) : 0;
    return Math.hypot(...sub(p, o.p0.map((v, i) => v + s * axis[i]))) - o.radius;
  }
  // box: local coordinates along the box axes (columns of its rotation)
  const d = sub(p, o.center), e = o.axes.map((a) => dot(a, d));
  const q = e.map((v, i) => Math.abs(v) - o.half_extents[i]);
  const outside = Math.hypot(...q.map((v) => Math.max(v, 0)));
  return outside > 0 ? outside : Math.max(...q);
}

/**
 * The ground and rigid obstacles of a rod run's `scene.contact`: meshes (`group`) placed at time t by
 * `show(t)`, and `gap(x, t)`, the smallest signed distance [m] from a point to any of them.
 */
export class RigidObstacles {
  constructor(contact, box) {
    this.items = [];
    if (contact.ground?.enabled ?? true)
      this.items.push({ shape: 'plane', point: contact.ground?.point ?? [0, 0, 0], normal: unit(contact.ground?.normal ?? [0, 0, 1]),
                        ground: true });
    for (const o of contact.obstacles ?? []) {
      const item = { ...o };
      if (o.shape === 'plane') item.normal = unit(o.normal);
      if (o.shape === 'box') {
        const r = rotationMatrix(o.rotation ?? [0, 0, 0]).elements;  // column-major
        item.axes = [0, 1, 2].map((c) => [r[4 * c], r[4 * c + 1], r[4 * c + 2]]);
      }
      this.items.push(item);
    }
    this.group = new THREE.Group();
    const size = box.getSize(new THREE.Vector3()).length() || 1;
    const centre = box.getCenter(new THREE.Vector3());
    for (const item of this.items) {
      item.mesh = this.mesh(item, size, centre);
      this.group.add(item.mesh);
    }
  }

  mesh(o, size, centre) {
    const material = new THREE.MeshLambertMaterial({ color: o.ground ? GROUND_COLOUR : OBSTACLE_COLOUR, side: THREE.DoubleSide });
    let mesh;
    if (o.shape === 'plane') {
      // a square of 3 x the body's size around the body's centre projected onto the plane
      mesh = new THREE.Mesh(new THREE.PlaneGeometry(3 * size, 3 * size), material);
      const n = new THREE.Vector3(...o.normal);
      const foot = centre.clone().addScaledVector(n, -dot(o.normal, sub(centre.toArray(), o.point)));
      mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), n);
      mesh.userData.base = foot;
    } else if (o.shape === 'sphere') {
      mesh = new THREE.Mesh(new THREE.SphereGeometry(o.radius, 32, 16), material);
      mesh.userData.base = new THREE.Vector3(...o.center);
    } else if (o.shape === 'capsule') {
      const a = new THREE.Vector3(...o.p0), b = new THREE.Vector3(...o.p1);
      mesh = new THREE.Mesh(new THREE.CapsuleGeometry(o.radius, a.distanceTo(b), 8, 24), material);
      if (a.distanceTo(b) > 0) mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), b.clone().sub(a).normalize());
      mesh.userData.base = a.add(b).multiplyScalar(0.5);
    } else {
      const [hx, hy, hz] = o.half_extents;
      mesh = new THREE.Mesh(new THREE.BoxGeometry(2 * hx, 2 * hy, 2 * hz), material);
      mesh.quaternion.setFromRotationMatrix(rotationMatrix(o.rotation ?? [0, 0, 0]));
      mesh.userData.base = new THREE.Vector3(...o.center);
    }
    mesh.position.copy(mesh.userData.base);
    return mesh;
  }

  /** Places every moving obstacle at time t [s]. */
  show(t) {
    for (const o of this.items)
      if (o.path) o.mesh.position.copy(o.mesh.userData.base).add(new THREE.Vector3(...pathDisplacement(o.path, t)));
  }

  /** min over obstacles of phi(x, t) = phi_0(x - d(t)) [m] at a point x = [x, y, z]. */
  gap(x, t) {
    let g = Infinity;
    for (const o of this.items) g = Math.min(g, placedDistance(o, sub(x, pathDisplacement(o.path, t))));
    return g;
  }
}
