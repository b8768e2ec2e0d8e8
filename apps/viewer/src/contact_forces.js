// Contact forces of a rod run with contact (run array `contact_forces`, (F, N, 3) [N]) as arrows:
// from each node along the force on it, a line with a cone head, of length c |f_i| with one scale
// c [m/N] for the whole run (the largest force over the frames is a quarter of the body's size).
import * as THREE from 'three';

const ARROW_COLOUR = 0xd0402b;

export class ContactForceArrows {
  constructor(run, size) {
    this.run = run;
    this.size = size;
    const n = run.numNodes;
    this.group = new THREE.Group();
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(2 * n * 3), 3).setUsage(THREE.DynamicDrawUsage));
    this.lines = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: ARROW_COLOUR }));
    const cone = new THREE.ConeGeometry(0.35, 1, 12);
    cone.translate(0, -0.5, 0);  // the tip at the origin, pointing along +y
    this.heads = new THREE.InstancedMesh(cone, new THREE.MeshLambertMaterial({ color: ARROW_COLOUR }), n);
    this.heads.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    for (const o of [this.lines, this.heads]) {
      o.frustumCulled = false;
      this.group.add(o);
    }
    this.tips = new Float64Array(n * 3);
    this.count = 0;
  }

  /** c [m/N]: the largest contact force over the loaded frames drawn a quarter of the body's size. */
  scale() {
    if (this.final) return this.final;
    const { run } = this, f = run.contactForces, frames = run.loadedFrames();
    let largest = 0;
    for (let k = 0; k < frames * run.numNodes * 3; k += 3) largest = Math.max(largest, Math.hypot(f[k], f[k + 1], f[k + 2]));
    const c = largest > 0 ? (0.25 * this.size) / largest : 0;
    if (frames === run.frames) this.final = c;
    return c;
  }

  /** Arrows of frame f from the drawn node positions x (#nodes x 3) [m]. */
  show(f, x) {
    const { run } = this, n = run.numNodes, c = this.scale();
    const force = run.contactForces.subarray(f * n * 3, (f + 1) * n * 3);
    const p = this.lines.geometry.attributes.position.array;
    const head = new THREE.Matrix4(), q = new THREE.Quaternion(), up = new THREE.Vector3(0, 1, 0);
    const dir = new THREE.Vector3(), tip = new THREE.Vector3(), size = new THREE.Vector3();
    this.count = 0;
    for (let i = 0; i < n; ++i) {
      const length = c * Math.hypot(force[3 * i], force[3 * i + 1], force[3 * i + 2]);
      for (let k = 0; k < 3; ++k) {
        this.tips[3 * i + k] = x[3 * i + k] + c * force[3 * i + k];
        p[6 * i + k] = x[3 * i + k];
        p[6 * i + 3 + k] = this.tips[3 * i + k];
      }
      if (length > 0) {
        ++this.count;
        dir.fromArray(force, 3 * i).normalize();
        const h = Math.min(0.3 * length, 0.04 * this.size);
        head.compose(tip.fromArray(this.tips, 3 * i), q.setFromUnitVectors(up, dir), size.set(h, h, h));
      } else {
        head.makeScale(0, 0, 0);
      }
      this.heads.setMatrixAt(i, head);
    }
    this.lines.geometry.attributes.position.needsUpdate = true;
    this.heads.instanceMatrix.needsUpdate = true;
  }
}
