// One run in its own canvas: renderer, camera, orbit/pan/zoom controls, the body, a title, a
// legend and an error box. A planar (vine) run is shown from above with an orthographic camera.
// Two canvases show the same scene: the still view (paused, scrubbed, orbited) at full resolution
// with multisampling (up to LARGE_RUN_NODES nodes), and in its place while playing a canvas
// without multisampling whose resolution the page scales to keep up with the display
// (adaptive_resolution.js). A WebGL context's multisampling is fixed when it is made: hence two.
// 3D runs get a labelled ground grid with axes (ground_grid.js), runs that record contact forces
// their arrows (contact_forces.js); a note in the corner gives the grid spacing and the deformation
// scale factor.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { BodyView, LARGE_RUN_NODES } from './body_view.js';
import { fieldsOf, colourMapCss } from './fields.js';
import { GroundGrid, metres } from './ground_grid.js';
import { ContactForceArrows } from './contact_forces.js';

export const BACKGROUND = 0xf5f6f8;

export class Panel {
  constructor(container, entry) {
    this.entry = entry;
    this.element = document.createElement('div');
    this.element.className = 'panel';
    this.title = document.createElement('div');
    this.title.className = 'title';
    this.title.textContent = entry.name;
    this.message = document.createElement('div');
    this.message.className = 'message';
    this.legend = document.createElement('div');
    this.legend.className = 'legend';
    this.legend.hidden = true;
    this.note = document.createElement('div');  // grid spacing and deformation scale
    this.note.className = 'note';
    this.note.hidden = true;
    this.element.append(this.title, this.message, this.legend, this.note);
    container.append(this.element);
    this.run = null;
    this.frame = -1;
  }

  fail(error) {
    this.error = String(error.message || error);
    this.message.className = 'message error';
    this.message.textContent = `Cannot show ${this.entry.name}: ${this.error}`;
  }

  /** Builds the scene once the run is loaded. */
  attach(run, options) {
    this.run = run;
    const { meta } = run;
    const counts = run.kind.startsWith('vine') ? `${run.bodies} bodies` : `${run.numNodes} nodes, ${run.edges.length / 2} edges` +
      (run.triangles ? `, ${run.triangles.length / 3} triangles` : '');
    // a rendered frame is labelled with the run's name only
    this.title.textContent = options.render ? run.name : `${run.name} — ${meta.kind}, ${counts}, ${run.frames} frames`;
    if (meta.status !== 'completed') {
      this.message.className = 'message warning';
      this.message.textContent = `run status: ${meta.status}${meta.message ? ': ' + meta.message : ''}`;
    }
    this.pixelRatio = options.pixelRatio ?? window.devicePixelRatio;  // of the still view
    this.stillRenderer = this.makeRenderer(run.numNodes <= LARGE_RUN_NODES);
    this.view = document.createElement('div');  // holds the canvases; takes the mouse for the controls
    this.view.className = 'view';
    this.view.append(this.stillRenderer.domElement);
    this.element.prepend(this.view);
    this.playRenderer = null;  // made by preparePlaying (if options.playingCanvases)
    this.renderer = this.stillRenderer;  // the one drawing now
    this.scene = new THREE.Scene();
    this.body = new BodyView(run);
    this.fields = fieldsOf(run, this.body.contact);
    this.scene.add(this.body.group);
    if (this.body.contact) this.scene.add(this.body.contact.group);
    if (run.contactForces) {
      this.arrows = new ContactForceArrows(run, this.body.boundingBox(0).getSize(new THREE.Vector3()).length() || 1);
      this.scene.add(this.arrows.group);
    }
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8090a0, 1.6));
    const light = new THREE.DirectionalLight(0xffffff, 1.8);
    light.position.set(1, -2, 3);
    this.scene.add(light);

    if (run.planar) {
      this.camera = new THREE.OrthographicCamera(-1, 1, 1, -1, -1, 1);
    } else {
      this.camera = new THREE.PerspectiveCamera(35, 1, 1e-3, 1e3);
      this.camera.up.set(0, 0, 1);
    }
    this.controls = new OrbitControls(this.camera, this.view);
    if (run.planar) this.controls.enableRotate = false;
    this.controls.addEventListener('change', () => {
      this.updateMinRadius();
      this.dirty = true;
    });
    this.controls.addEventListener('start', () => (this.userMoved = true));
    this.options = options;
    this.fitCamera();
  }

  makeRenderer(antialias) {
    // opaque (alpha: false): the compositor copies the canvas instead of blending it
    const renderer = new THREE.WebGLRenderer({ antialias, alpha: false });
    renderer.setPixelRatio(this.pixelRatio);
    renderer.setClearColor(BACKGROUND);
    return renderer;
  }

  /** Frames the body over the loaded frames (first and last) from the options' view direction. */
  fitCamera() {
    const { run, options } = this;
    const box = this.body.boundingBox(0).union(this.body.boundingBox(run.loadedFrames() - 1));
    box.expandByScalar(2 * Math.max(0, ...this.body.radius));  // a shell-only run has no edges
    const centre = box.getCenter(new THREE.Vector3());
    const size = Math.max(box.getSize(new THREE.Vector3()).length(), 1e-6);
    if (run.planar) {
      Object.assign(this.camera, { near: -10 * size, far: 10 * size });
      this.camera.position.set(centre.x, centre.y, centre.z + size);
      this.halfHeight = 0.6 * size / (options.zoom ?? 1);
    } else {
      Object.assign(this.camera, { near: size / 1000, far: size * 100 });
      const az = THREE.MathUtils.degToRad(options.azimuth ?? -60), el = THREE.MathUtils.degToRad(options.elevation ?? 25);
      // the bounding sphere (radius size / 2) fits the narrower of the two fields of view
      const aspect = Math.max(this.element.clientWidth, 1) / Math.max(this.element.clientHeight, 1);
      const halfFov = Math.atan(Math.tan(THREE.MathUtils.degToRad(35 / 2)) * Math.min(aspect, 1));
      const distance = (0.55 * size) / Math.sin(halfFov) / (options.zoom ?? 1);
      this.camera.position.set(centre.x + distance * Math.cos(el) * Math.cos(az),
                               centre.y + distance * Math.cos(el) * Math.sin(az), centre.z + distance * Math.sin(el));
      this.placeGrid(box, size);
    }
    this.controls.target.copy(centre);
    this.controls.update();
    this.resize();
    this.dirty = true;
  }

  /**
   * The labelled grid: on the ground plane of a run with contact when it is z = const (lifted by
   * 0.2 % of the body's size above the ground's surface so that it shows), else under the body.
   */
  placeGrid(box, size) {
    const visible = this.grid ? this.grid.group.visible : true;
    if (this.grid) this.scene.remove(this.grid.group);
    this.grid = null;
    const ground = this.body.contact?.items.find((o) => o.ground);
    if (ground && Math.abs(ground.normal[2]) < 1 - 1e-12) return;  // a tilted ground: no grid
    this.grid = new GroundGrid(box, ground ? ground.point[2] + 2e-3 * size : box.min.z);
    this.grid.group.visible = visible;
    this.scene.add(this.grid.group);
    this.updateNote();
  }

  updateNote() {
    const parts = [];
    if (this.grid) parts.push(`grid ${metres(this.grid.spacing, this.grid.spacing)}`);
    const s = this.body.deformationScale;
    if (s !== 1) parts.push(`deformation ×${s}`);
    this.note.textContent = parts.join(' · ');
    this.note.hidden = !parts.length;
  }

  /** Draws the displacement from the first frame magnified by s (>= 0); refits the view. */
  setDeformationScale(s) {
    if (!this.run || s === this.body.deformationScale) return;
    this.body.setDeformationScale(s);
    if (this.arrows) this.arrows.show(this.frame, this.body.drawnPositions(this.frame));
    if (!this.userMoved) this.fitCamera();
    this.updateNote();
    this.dirty = true;
  }

  /** Half a pixel at the distance of the view's target [m]: the thinnest tube drawn. */
  updateMinRadius() {
    const height = Math.max(this.renderer.domElement.height, 1);
    const visible = this.camera.isOrthographicCamera
      ? (this.camera.top - this.camera.bottom) / this.camera.zoom
      : 2 * this.camera.position.distanceTo(this.controls.target) * Math.tan(THREE.MathUtils.degToRad(this.camera.fov / 2));
    this.body.setMinRadius(0.5 * visible / height);
  }

  resize() {
    if (!this.renderer) return;
    const w = Math.max(this.element.clientWidth, 1), h = Math.max(this.element.clientHeight, 1);
    for (const r of [this.stillRenderer, this.playRenderer]) r?.setSize(w, h, false);
    if (this.camera.isOrthographicCamera) {
      const a = w / h, hh = this.halfHeight / Math.min(a, 1);  // the body fits the narrower side
      Object.assign(this.camera, { left: -hh * a, right: hh * a, top: hh, bottom: -hh });
    } else {
      this.camera.aspect = w / h;
    }
    this.camera.updateProjectionMatrix();
    this.updateMinRadius();
    this.dirty = true;
  }

  /** Frame of this run shown at time t [s]: the last saved (and loaded) frame at or before t. */
  frameAt(t) {
    const times = this.run.times;
    let lo = 0, hi = this.run.loadedFrames() - 1;  // frames still streaming in are not shown
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (times[mid] <= t + 1e-12) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  setField(key) {
    if (!this.run) return;
    const field = this.fields.find((f) => f.key === key) || null;
    this.body.setField(field);
    this.legend.hidden = !field;
    if (field) {
      const [lo, hi] = this.body.range;
      this.legend.innerHTML = `<div class="bar" style="background:${colourMapCss()}"></div>` +
        `<span>${lo.toPrecision(3)}</span><span class="name">${field.label} [${field.unit}]</span>` +
        `<span>${hi.toPrecision(3)}</span>`;
    }
    this.dirty = true;
  }

  show(frame) {
    if (!this.run) return;
    if (frame !== this.frame) {
      this.frame = frame;
      this.body.show(frame);
      if (this.arrows) this.arrows.show(frame, this.body.drawnPositions(frame));
      this.dirty = true;
    }
  }

  /**
   * Playing (`on`): the playing canvas (no multisampling, `scale` times the still view's
   * resolution) in place of the still one, and the body's playing shapes (body_view.js); paused:
   * the still canvas and shapes.
   */
  setPlaying(on, scale = 1) {
    if (!this.run) return;
    if (on) this.preparePlaying();
    const separate = on && this.playRenderer !== null;  // else the still canvas plays too
    // only the canvas drawing now is shown (the compositor draws every shown one, in software)
    this.stillRenderer.domElement.style.visibility = separate ? 'hidden' : 'visible';
    if (this.playRenderer) {
      this.playRenderer.domElement.style.visibility = separate ? 'visible' : 'hidden';
      if (separate && this.pixelRatio * scale !== this.playRenderer.getPixelRatio()) this.playRenderer.setPixelRatio(this.pixelRatio * scale);
    }
    this.renderer = separate ? this.playRenderer : this.stillRenderer;
    this.body.setPlaying(on);
    this.resize();
  }

  /**
   * Makes the playing canvas and draws the shown frame on it, hidden, with the playing shapes: the
   * first play then finds its shaders compiled (software WebGL also builds its pipelines only when
   * it first draws with them). Not when the page has too many panels for two WebGL contexts each
   * (options.playingCanvases false): they then play on their still canvas.
   */
  preparePlaying() {
    if (!this.run || this.playRenderer || !this.options.playingCanvases) return;
    this.playRenderer = this.makeRenderer(false);
    this.playRenderer.domElement.style.visibility = 'hidden';
    this.view.append(this.playRenderer.domElement);
    this.resize();
    this.body.setPlaying(true);
    this.playRenderer.render(this.scene, this.camera);
    this.body.setPlaying(false);
  }

  render(force = false) {
    if (!this.run || !(this.dirty || force)) return false;
    this.renderer.render(this.scene, this.camera);
    this.dirty = false;
    return true;
  }
}
