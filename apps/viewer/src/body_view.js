// The three.js objects of one run: rods as tubes with their true radius (one instanced cylinder per
// edge, one instanced sphere per node closing the joints), a dark stripe along the material
// director d1 so twist shows, triangles as a surface when the run has them, and the obstacles of
// planar and 3D vines.
// The body is drawn with its displacement from the first frame magnified by a deformation scale
// factor s: x_i(0) + s (x_i(t) - x_i(0)) (1: as saved).
import * as THREE from 'three';
import { MaterialFrames } from './material_frames.js';
import { colourMap, fieldRange } from './fields.js';
import { planarObstacleMeshes, RigidObstacles } from './obstacles.js';

const BODY_COLOUR = [0.45, 0.62, 0.85];
const STRIPE_SHADE = 0.3;    // stripe brightness relative to the tube
const STRIPE_HALF_ANGLE = 0.45;  // rad

// above this many nodes, tubes and joints use fewer triangles (software WebGL stays interactive)
export const LARGE_RUN_NODES = 2000;

// unit cylinder along +y from y = -1/2 to 1/2, radius 1, darker around the local +x direction
function stripedCylinder(segments) {
  const g = new THREE.CylinderGeometry(1, 1, 1, segments, 1, true);
  const pos = g.attributes.position;
  const colour = new Float32Array(pos.count * 3);
  for (let v = 0; v < pos.count; ++v) {
    const angle = Math.atan2(pos.getZ(v), pos.getX(v));
    colour.fill(Math.abs(angle) < STRIPE_HALF_ANGLE ? STRIPE_SHADE : 1, 3 * v, 3 * v + 3);
  }
  g.setAttribute('color', new THREE.BufferAttribute(colour, 3));
  return g;
}

export class BodyView {
  constructor(run) {
    this.run = run;
    this.group = new THREE.Group();
    const numEdges = run.edges.length / 2;
    this.numEdges = numEdges;
    this.frames = new MaterialFrames(run);
    this.deformationScale = 1;
    this.scaled = new Float64Array(run.numNodes * 3);  // the shown frame's magnified positions

    // a radius for runs that give none: 1 % of the body's size
    const size = this.boundingBox(0).getSize(new THREE.Vector3()).length() || 1;
    this.radius = Float32Array.from(run.radius, (r) => (r > 0 ? r : 0.01 * size));
    this.nodeRadius = new Float32Array(run.numNodes);
    for (let e = 0; e < numEdges; ++e)
      for (const i of [run.edges[2 * e], run.edges[2 * e + 1]])
        this.nodeRadius[i] = Math.max(this.nodeRadius[i], this.radius[e]);

    const material = new THREE.MeshLambertMaterial({ vertexColors: true });
    const large = run.numNodes > LARGE_RUN_NODES;
    // tube and joint shapes of the still view and, with fewer triangles, while playing (software
    // WebGL spends most of a small run's frame on the joints' triangles)
    const coarse = { tube: stripedCylinder(8), joint: new THREE.SphereGeometry(1, 6, 4) };
    this.shapes = { still: large ? coarse : { tube: stripedCylinder(16), joint: new THREE.SphereGeometry(1, 12, 8) },
                    playing: coarse };
    this.tubes = new THREE.InstancedMesh(this.shapes.still.tube, material, numEdges);
    this.joints = new THREE.InstancedMesh(this.shapes.still.joint, new THREE.MeshLambertMaterial(), run.numNodes);
    for (const m of [this.tubes, this.joints]) {
      m.frustumCulled = false;
      m.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      this.group.add(m);
    }
    this.edgeColour = new Float32Array(numEdges * 3);
    this.nodeColour = new Float32Array(run.numNodes * 3);
    this.tubes.instanceColor = new THREE.InstancedBufferAttribute(this.edgeColour, 3);
    this.joints.instanceColor = new THREE.InstancedBufferAttribute(this.nodeColour, 3);

    // large runs play as lines (one segment per edge, a vertex per node, coloured like the nodes):
    // software WebGL cannot redraw ~0.5 M tube triangles and every material frame at the playback
    // rate; paused, they show as tubes again
    if (large) {
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(run.numNodes * 3), 3).setUsage(THREE.DynamicDrawUsage));
      g.setAttribute('color', new THREE.BufferAttribute(this.nodeColour, 3).setUsage(THREE.DynamicDrawUsage));
      g.setIndex(new THREE.BufferAttribute(Uint32Array.from(run.edges), 1));
      this.lines = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ vertexColors: true }));
      this.lines.frustumCulled = false;
      this.lines.visible = false;
      this.group.add(this.lines);
    }
    this.fast = false;
    this.minRadius = 0;  // [m] tubes are drawn at least this thick (about a pixel on screen)

    if (run.triangles) {
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(run.numNodes * 3), 3));
      g.setAttribute('color', new THREE.BufferAttribute(new Float32Array(run.numNodes * 3), 3));
      g.setIndex(new THREE.BufferAttribute(Uint32Array.from(run.triangles), 1));
      this.surface = new THREE.Mesh(g, new THREE.MeshLambertMaterial({ vertexColors: true, side: THREE.DoubleSide }));
      this.surface.frustumCulled = false;
      this.group.add(this.surface);
    }
    if (run.obstacles.length) this.group.add(planarObstacleMeshes(run, this.boundingBox(0), Math.max(...this.radius)));
    // the ground and rigid obstacles of a rod run with contact or a 3D vine run (their own group:
    // not part of the body)
    this.contact = run.contact ? new RigidObstacles(run.contact, this.boundingBox(0)) : null;
    this.field = null;
    this.values = { node: new Float64Array(run.numNodes), edge: new Float64Array(numEdges) };
    this.shown = -1;
  }

  /** Axis-aligned box of the nodes as drawn at frame f. */
  boundingBox(f) {
    const x = this.drawnPositions(f);
    const box = new THREE.Box3();
    const p = new THREE.Vector3();
    for (let i = 0; i < this.run.numNodes; ++i) box.expandByPoint(p.fromArray(x, 3 * i));
    return box;
  }

  /**
   * Node positions of frame f as drawn (#nodes x 3) [m]: the saved ones, or with the deformation
   * scale s != 1, x_i(0) + s (x_i(f) - x_i(0)) (in a buffer the next call overwrites).
   */
  drawnPositions(f) {
    const { positions: x, numNodes: n } = this.run;
    const saved = x.subarray(f * n * 3, (f + 1) * n * 3);
    if (this.deformationScale === 1) return saved;
    const s = this.deformationScale;
    for (let k = 0; k < 3 * n; ++k) this.scaled[k] = x[k] + s * (saved[k] - x[k]);
    return this.scaled;
  }

  /** Magnifies the displacement from the first frame by s (>= 0) and re-poses the shown frame. */
  setDeformationScale(s) {
    this.deformationScale = s;
    const f = this.shown;
    this.shown = -1;
    if (f >= 0) this.show(f);
  }

  setField(field) {
    this.field = field;
    this.range = field ? fieldRange(this.run, field) : null;
    const f = this.shown;
    this.shown = -1;
    if (f >= 0) this.show(f);
  }

  /**
   * Draws tubes and joints at least `radius` [m] thick (half a pixel at the body's distance), so a
   * rope much thinner than a pixel stays visible; re-poses the shown frame when it changes.
   */
  setMinRadius(radius) {
    if (Math.abs(radius - this.minRadius) <= 0.05 * this.minRadius) return;
    this.minRadius = radius;
    const f = this.shown;
    this.shown = -1;
    if (f >= 0) this.show(f);
  }

  /**
   * While playing (`on`): large runs as lines, others with the coarse tubes and joints; paused:
   * the still view's tubes and joints.
   */
  setPlaying(on) {
    const shapes = on ? this.shapes.playing : this.shapes.still;
    this.tubes.geometry = shapes.tube;
    this.joints.geometry = shapes.joint;
    const fast = Boolean(on && this.lines);
    if (fast === this.fast) return;
    this.fast = fast;
    if (this.lines) this.lines.visible = fast;
    this.tubes.visible = this.joints.visible = !fast;
    const f = this.shown;
    this.shown = -1;
    if (f >= 0) this.show(f);
  }

  /** Poses every tube, joint and triangle (or line, when fast) at saved frame f and colours them. */
  show(f) {
    if (f === this.shown) return;
    this.shown = f;
    const { run, radius, nodeRadius } = this;
    const { numNodes: n, edges } = run;
    const x = this.drawnPositions(f);
    if (this.fast) {
      const p = this.lines.geometry.attributes.position;
      p.array.set(x);
      p.needsUpdate = true;
      this.showSurfaceAndObstacles(f, x);
      return;
    }
    const d1 = this.frames.at(f);
    const m = this.tubes.instanceMatrix.array;
    for (let e = 0; e < this.numEdges; ++e) {
      const i = 3 * edges[2 * e], j = 3 * edges[2 * e + 1];
      const ex = x[j] - x[i], ey = x[j + 1] - x[i + 1], ez = x[j + 2] - x[i + 2];
      const l = Math.hypot(ex, ey, ez) || 1;
      // d1 made normal to the drawn edge (it is already, up to round-off, at deformation scale 1)
      const along = (d1[3 * e] * ex + d1[3 * e + 1] * ey + d1[3 * e + 2] * ez) / (l * l);
      let ax = d1[3 * e] - along * ex, ay = d1[3 * e + 1] - along * ey, az = d1[3 * e + 2] - along * ez;
      const la = Math.hypot(ax, ay, az) || 1;
      ax /= la; ay /= la; az /= la;
      // d2 = t x d1
      const bx = (ey * az - ez * ay) / l, by = (ez * ax - ex * az) / l, bz = (ex * ay - ey * ax) / l;
      const r = Math.max(radius[e], this.minRadius), k = 16 * e;
      // columns: local x -> r d1, local y -> edge vector, local z -> r d2 (= -r (t x d1) keeps it right-handed)
      m[k] = r * ax; m[k + 1] = r * ay; m[k + 2] = r * az; m[k + 3] = 0;
      m[k + 4] = ex; m[k + 5] = ey; m[k + 6] = ez; m[k + 7] = 0;
      m[k + 8] = -r * bx; m[k + 9] = -r * by; m[k + 10] = -r * bz; m[k + 11] = 0;
      m[k + 12] = 0.5 * (x[i] + x[j]); m[k + 13] = 0.5 * (x[i + 1] + x[j + 1]); m[k + 14] = 0.5 * (x[i + 2] + x[j + 2]);
      m[k + 15] = 1;
    }
    const s = this.joints.instanceMatrix.array;
    for (let i = 0; i < n; ++i) {
      const r = Math.max(nodeRadius[i], this.minRadius), k = 16 * i;
      s.fill(0, k, k + 16);
      s[k] = r; s[k + 5] = r; s[k + 10] = r; s[k + 15] = 1;
      s[k + 12] = x[3 * i]; s[k + 13] = x[3 * i + 1]; s[k + 14] = x[3 * i + 2];
    }
    this.tubes.instanceMatrix.needsUpdate = true;
    this.joints.instanceMatrix.needsUpdate = true;
    this.showSurfaceAndObstacles(f, x);
  }

  /** Poses the surface at frame f's drawn positions x, places the obstacles and colours the body. */
  showSurfaceAndObstacles(f, x) {
    if (this.surface) {
      const p = this.surface.geometry.attributes.position;
      p.array.set(x);
      p.needsUpdate = true;
      this.surface.geometry.computeVertexNormals();
    }
    if (this.contact) this.contact.show(this.run.times[f]);
    this.colour(f);
  }

  /** Colours the body at saved frame f: uploads only what changed (nothing, uncoloured). */
  colour(f) {
    const { field, run } = this;
    const { edges } = run;
    const edgeColour = this.edgeColour, nodeColour = this.nodeColour;
    if (!field) {
      if (this.plain) return;  // the body colour is in place
      for (let e = 0; e < this.numEdges; ++e) edgeColour.set(BODY_COLOUR, 3 * e);
      for (let i = 0; i < run.numNodes; ++i) nodeColour.set(BODY_COLOUR, 3 * i);
    } else {
      const values = this.values[field.on];
      field.compute(run, f, values);
      const [lo, hi] = this.range;
      const target = field.on === 'node' ? nodeColour : edgeColour;
      // values a field does not define (NaN) keep the body colour
      for (let k = 0; k < values.length; ++k)
        if (Number.isFinite(values[k])) colourMap((values[k] - lo) / (hi - lo), target, 3 * k);
        else target.set(BODY_COLOUR, 3 * k);
      if (field.on === 'node') {  // an edge takes the mean of its nodes' colours
        for (let e = 0; e < this.numEdges; ++e)
          for (let c = 0; c < 3; ++c)
            edgeColour[3 * e + c] = 0.5 * (nodeColour[3 * edges[2 * e] + c] + nodeColour[3 * edges[2 * e + 1] + c]);
      } else {  // a node takes the colour of its last edge
        for (let e = 0; e < this.numEdges; ++e)
          for (let c = 0; c < 3; ++c) nodeColour[3 * edges[2 * e] + c] = nodeColour[3 * edges[2 * e + 1] + c] = edgeColour[3 * e + c];
      }
    }
    this.plain = !field;
    this.tubes.instanceColor.needsUpdate = true;
    this.joints.instanceColor.needsUpdate = true;
    if (this.lines) this.lines.geometry.attributes.color.needsUpdate = true;  // the node colours
    if (this.surface) {
      this.surface.geometry.attributes.color.array.set(nodeColour);
      this.surface.geometry.attributes.color.needsUpdate = true;
    }
  }

  /**
   * Node positions as drawn (the joints' translations, or the lines' vertices when fast), for
   * tests: Float32Array (#nodes x 3).
   */
  drawnNodePositions() {
    const n = this.run.numNodes;
    if (this.fast) return Float32Array.from(this.lines.geometry.attributes.position.array);
    const out = new Float32Array(3 * n);
    const s = this.joints.instanceMatrix.array;
    for (let i = 0; i < n; ++i) out.set(s.subarray(16 * i + 12, 16 * i + 15), 3 * i);
    return out;
  }
}
