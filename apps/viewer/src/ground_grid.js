// The length scale of a 3D view: a grid on the ground (the contact ground plane z = const, else the
// plane under the body) whose lines lie at multiples of a round spacing (1, 2 or 5 x 10^k m, about
// ten cells across), labelled with their coordinates in metres along two of its edges, and x, y, z
// axes with units at the grid's corner. The grid covers about 1.2 times the body's extent.
import * as THREE from 'three';

const GRID_COLOUR = 0xaeb4bd;
const TEXT_COLOUR = '#39404a';
const AXIS_COLOURS = [0xc0392b, 0x27ae60, 0x2e6fd8];

/**
 * The largest round spacing [m] (1, 2 or 5 x 10^k) giving at least `cells` cells over `length` [m]
 * (> 0 and finite, else an error naming it).
 */
export function gridSpacing(length, cells = 8) {
  if (!(length > 0 && Number.isFinite(length))) throw new RangeError(`grid: length ${length} m; allowed: a positive finite length`);
  const raw = length / cells, decade = 10 ** Math.floor(Math.log10(raw));
  return [5, 2].map((m) => m * decade).find((s) => s <= raw * (1 + 1e-9)) ?? decade;
}

/** Coordinate text in metres: "0.05 m", "-1.2 m" (no round-off digits). */
export function metres(v, spacing) {
  const digits = Math.min(12, Math.max(0, Math.ceil(-Math.log10(spacing) - 1e-9)));
  return `${(Math.abs(v) < 1e-9 * spacing ? 0 : v).toFixed(digits)} m`;
}

// a camera-facing text label `height` [m] tall at p
function label(text, p, height) {
  const canvas = document.createElement('canvas'), ctx = canvas.getContext('2d');
  const px = 48;
  ctx.font = `${px}px system-ui, sans-serif`;
  canvas.width = Math.ceil(ctx.measureText(text).width) + 8;
  canvas.height = px + 12;
  ctx.font = `${px}px system-ui, sans-serif`;
  ctx.fillStyle = TEXT_COLOUR;
  ctx.textBaseline = 'middle';
  ctx.fillText(text, 4, canvas.height / 2);
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: new THREE.CanvasTexture(canvas), depthWrite: false }));
  sprite.scale.set((height * canvas.width) / canvas.height, height, 1);
  sprite.position.copy(p);
  sprite.userData.text = text;
  return sprite;
}

export class GroundGrid {
  /** Around the body's box `box` (THREE.Box3), in the plane z = `z` [m]. */
  constructor(box, z) {
    const centre = box.getCenter(new THREE.Vector3());
    const extent = Math.max(box.max.x - box.min.x, box.max.y - box.min.y, 0.5 * box.getSize(new THREE.Vector3()).length(), 1e-6);
    this.spacing = gridSpacing(extent);
    const s = this.spacing, half = Math.ceil((0.6 * extent) / s);
    const x0 = (Math.round(centre.x / s) - half) * s, y0 = (Math.round(centre.y / s) - half) * s, span = 2 * half * s;
    this.bounds = { x0, y0, x1: x0 + span, y1: y0 + span, z };
    const points = [];
    for (let k = 0; k <= 2 * half; ++k) {
      points.push(x0 + k * s, y0, z, x0 + k * s, y0 + span, z);
      points.push(x0, y0 + k * s, z, x0 + span, y0 + k * s, z);
    }
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
    this.group = new THREE.Group();
    this.lines = new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: GRID_COLOUR }));
    this.group.add(this.lines);
    // coordinates of every line, or every k-th (at most 7 per edge), along the front (y0) and left (x0) edges
    const h = 0.05 * extent, every = Math.ceil((2 * half) / 6);
    this.labels = [];
    for (let k = 0; k <= 2 * half; k += every) {
      this.labels.push(label(metres(x0 + k * s, s), new THREE.Vector3(x0 + k * s, y0 - 1.5 * h, z + 0.6 * h), h));
      this.labels.push(label(metres(y0 + k * s, s), new THREE.Vector3(x0 - 3 * h, y0 + k * s, z + 0.6 * h), h));
    }
    // axes x, y, z [m] from the grid's corner, two cells long
    const corner = new THREE.Vector3(x0, y0, z);
    ['x', 'y', 'z'].forEach((name, c) => {
      const dir = new THREE.Vector3().setComponent(c, 1);
      this.group.add(new THREE.ArrowHelper(dir, corner, 2 * s, AXIS_COLOURS[c], 0.3 * s, 0.15 * s));
      this.labels.push(label(`${name} [m]`, corner.clone().addScaledVector(dir, 2 * s + 1.2 * h), h));
    });
    for (const l of this.labels) this.group.add(l);
  }

  /** What the grid shows, for the page's test hook. */
  describe() {
    return { spacing: this.spacing, ...this.bounds, labels: this.labels.map((l) => l.userData.text), visible: this.group.visible };
  }
}
