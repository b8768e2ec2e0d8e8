// NumPy .npy (format 1.0, little-endian '<f8' or '<i8', C order) parsed from an ArrayBuffer
// without copying float64 data, or its header alone (for loading a file frame by frame).
// Damaged files throw an Error naming the file and the problem.

/**
 * @param {ArrayBuffer} buffer the whole file
 * @param {string} name file name, for messages
 * @returns {{shape: number[], data: Float64Array}} int64 data is converted to float64
 */
export function parseNpy(buffer, name) {
  const { shape, descr, offset, count } = parseNpyHeader(new Uint8Array(buffer), name);
  const available = (buffer.byteLength - offset) / 8;
  if (available < count) throw truncated(name, shape, count, available);
  let data;
  if (descr === '<f8') {
    data = offset % 8 === 0 ? new Float64Array(buffer, offset, count)
                            : new Float64Array(buffer.slice(offset, offset + 8 * count));
  } else {
    const ints = new BigInt64Array(buffer.slice(offset, offset + 8 * count));
    data = Float64Array.from(ints, (v) => Number(v));
  }
  return { shape, data };
}

/**
 * The header of a .npy file from its first bytes.
 * @returns {{shape: number[], descr: string, offset: number, count: number}} offset: first data byte
 */
export function parseNpyHeader(bytes, name) {
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (bytes.length < 10 || magic.some((m, i) => bytes[i] !== m) || bytes[6] !== 1)
    throw new Error(`${name}: not a version 1.0 .npy file (${bytes.length} bytes)`);
  const headerLength = bytes[8] | (bytes[9] << 8);
  if (bytes.length < 10 + headerLength) throw new Error(`${name}: truncated .npy header`);
  const header = new TextDecoder().decode(bytes.subarray(10, 10 + headerLength));
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !shapeText || !/'fortran_order':\s*False/.test(header))
    throw new Error(`${name}: unreadable .npy header: ${header.trim()}`);
  if (descr[1] !== '<f8' && descr[1] !== '<i8') throw new Error(`${name}: dtype ${descr[1]}; allowed: '<f8' or '<i8'`);
  const shape = shapeText[1].split(',').map((s) => s.trim()).filter((s) => s.length).map(Number);
  return { shape, descr: descr[1], offset: 10 + headerLength, count: shape.reduce((a, b) => a * b, 1) };
}

export function truncated(name, shape, count, available) {
  return new Error(`${name}: truncated: the header says shape (${shape.join(', ')}) = ${count} values, ` +
                   `the file holds ${Math.floor(available)}`);
}
