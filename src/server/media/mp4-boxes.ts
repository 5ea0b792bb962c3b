import { open } from 'node:fs/promises';

/**
 * The few MP4 (ISO BMFF) box operations the smart cut needs: read a video track's `avcC`,
 * replace it (moving chunk offsets when `moov` precedes the media data), and set the
 * presented length of the video track (its edit list). Everything else is left byte for byte.
 */

export interface Box {
  type: string;
  /** Offset of the box header in the buffer. */
  start: number;
  /** Offset of the payload (after size, type and a 64-bit size). */
  body: number;
  end: number;
}

export function childBoxes(buf: Buffer, from: number, to: number): Box[] {
  const boxes: Box[] = [];
  let offset = from;
  while (offset + 8 <= to) {
    let size = buf.readUInt32BE(offset);
    const type = buf.toString('latin1', offset + 4, offset + 8);
    let body = offset + 8;
    if (size === 1) {
      size = Number(buf.readBigUInt64BE(offset + 8));
      body += 8;
    } else if (size === 0) size = to - offset;
    if (size < body - offset || offset + size > to) throw new Error(`malformed MP4 box ${JSON.stringify(type)} at ${offset}`);
    boxes.push({ type, start: offset, body, end: offset + size });
    offset += size;
  }
  return boxes;
}

const child = (buf: Buffer, parent: Box, type: string) => childBoxes(buf, parent.body, parent.end).find((b) => b.type === type);

/** The `trak` boxes of a `moov` payload whose handler is `vide`. */
function videoTraks(moov: Buffer, moovBox: Box): Box[] {
  return childBoxes(moov, moovBox.body, moovBox.end).filter((trak) => {
    if (trak.type !== 'trak') return false;
    const mdia = child(moov, trak, 'mdia');
    const hdlr = mdia && child(moov, mdia, 'hdlr');
    return !!hdlr && moov.toString('latin1', hdlr.body + 8, hdlr.body + 12) === 'vide';
  });
}

/** Path of boxes from `moov` down to the first video track's `avcC`, outermost first; null when the track is not `avc1`/`avc3`. */
function avcCPath(moov: Buffer, moovBox: Box): Box[] | null {
  const [trak] = videoTraks(moov, moovBox);
  if (!trak) return null;
  const path: Box[] = [moovBox, trak];
  for (const type of ['mdia', 'minf', 'stbl', 'stsd']) {
    const next = child(moov, path[path.length - 1], type);
    if (!next) return null;
    path.push(next);
  }
  const stsd = path[path.length - 1];
  // stsd: version/flags, entry count, then the sample entries
  if (moov.readUInt32BE(stsd.body + 4) !== 1) return null;
  const [entry] = childBoxes(moov, stsd.body + 8, stsd.end);
  if (!entry || (entry.type !== 'avc1' && entry.type !== 'avc3')) return null;
  // a visual sample entry has 78 bytes of fields before its boxes
  const avcC = childBoxes(moov, entry.body + 78, entry.end).find((b) => b.type === 'avcC');
  if (!avcC) return null;
  return [...path, entry, avcC];
}

/** Decoder configuration of an H.264 track (ISO/IEC 14496-15 `AVCDecoderConfigurationRecord`). */
export interface AvcConfig {
  profile: number;
  compatibility: number;
  level: number;
  /** Bytes of each NAL unit's length prefix in the samples. */
  lengthSize: number;
  sps: Buffer[];
  pps: Buffer[];
  /** What follows the PPS list (the High-profile chroma/bit-depth fields), kept as is. */
  tail: Buffer;
}

export function parseAvcC(body: Buffer): AvcConfig {
  if (body[0] !== 1) throw new Error('not an AVCDecoderConfigurationRecord');
  let offset = 5;
  const list = (count: number) => {
    const out: Buffer[] = [];
    for (let i = 0; i < count; i++) {
      const len = body.readUInt16BE(offset);
      out.push(Buffer.from(body.subarray(offset + 2, offset + 2 + len)));
      offset += 2 + len;
    }
    return out;
  };
  const sps = list(body[offset++] & 0x1f);
  const pps = list(body[offset++]);
  return { profile: body[1], compatibility: body[2], level: body[3], lengthSize: (body[4] & 3) + 1, sps, pps, tail: Buffer.from(body.subarray(offset)) };
}

export function serializeAvcC(c: AvcConfig): Buffer {
  if (c.sps.length > 31 || c.pps.length > 255) throw new RangeError('too many parameter sets for avcC');
  const parts: Buffer[] = [Buffer.from([1, c.profile, c.compatibility, c.level, 0xfc | (c.lengthSize - 1), 0xe0 | c.sps.length])];
  const len = (b: Buffer) => {
    const l = Buffer.alloc(2);
    l.writeUInt16BE(b.length);
    return l;
  };
  for (const s of c.sps) parts.push(len(s), s);
  parts.push(Buffer.from([c.pps.length]));
  for (const p of c.pps) parts.push(len(p), p);
  parts.push(c.tail);
  return Buffer.concat(parts);
}

/** Reads the top-level `moov` of a file without reading its media data (it may sit before or after them). */
async function readMoov(path: string): Promise<Buffer | null> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const header = Buffer.alloc(16);
    let offset = 0;
    while (offset + 8 <= size) {
      await fh.read(header, 0, 16, offset);
      let boxSize = header.readUInt32BE(0);
      const type = header.toString('latin1', 4, 8);
      if (boxSize === 1) boxSize = Number(header.readBigUInt64BE(8));
      else if (boxSize === 0) boxSize = size - offset;
      if (boxSize < 8) return null;
      if (type === 'moov') {
        const moov = Buffer.alloc(boxSize);
        await fh.read(moov, 0, boxSize, offset);
        return moov;
      }
      offset += boxSize;
    }
    return null;
  } finally {
    await fh.close();
  }
}

/** The `avcC` of a file's first video track, or null (no `moov`, not H.264 in `avc1`/`avc3`). */
export async function readAvcConfig(path: string): Promise<AvcConfig | null> {
  const moov = await readMoov(path);
  if (!moov) return null;
  const path_ = avcCPath(moov, childBoxes(moov, 0, moov.length)[0]);
  if (!path_) return null;
  const avcC = path_[path_.length - 1];
  return parseAvcC(moov.subarray(avcC.body, avcC.end));
}

/** Finds the top-level `moov` of a whole file in memory. */
function topMoov(file: Buffer): { moov: Box; top: Box[] } {
  const top = childBoxes(file, 0, file.length);
  const moov = top.find((b) => b.type === 'moov');
  if (!moov) throw new Error('no moov box');
  return { moov, top };
}

/**
 * Returns a copy of an MP4 file (in memory) whose first video track's `avcC` is `config`.
 * The boxes around it grow by the difference; when `moov` comes before the media data
 * (faststart) every chunk offset (`stco`/`co64`) moves by it too.
 */
export function replaceAvcConfig(file: Buffer, config: AvcConfig): Buffer {
  const { moov } = topMoov(file);
  const path = avcCPath(file, moov);
  if (!path) throw new Error('no avcC in the video track');
  const avcC = path[path.length - 1];
  const body = serializeAvcC(config);
  const delta = avcC.body + body.length - avcC.end;
  if (avcC.body - avcC.start !== 8) throw new Error('64-bit avcC box');
  const out = Buffer.concat([file.subarray(0, avcC.body), body, file.subarray(avcC.end)]);
  for (const box of path) {
    if (box.body - box.start === 16) out.writeBigUInt64BE(BigInt(box.end - box.start + delta), box.start + 8);
    else out.writeUInt32BE(box.end - box.start + delta, box.start);
  }
  const mediaAfterMoov = childBoxes(file, 0, file.length).some((b) => b.type === 'mdat' && b.start > moov.start);
  if (mediaAfterMoov && delta !== 0) {
    const newMoov = { ...moov, end: moov.end + delta };
    for (const trak of childBoxes(out, newMoov.body, newMoov.end).filter((b) => b.type === 'trak')) {
      const stbl = ['mdia', 'minf', 'stbl'].reduce<Box | undefined>((b, t) => b && child(out, b, t), trak);
      if (!stbl) continue;
      for (const table of childBoxes(out, stbl.body, stbl.end)) {
        if (table.type !== 'stco' && table.type !== 'co64') continue;
        const count = out.readUInt32BE(table.body + 4);
        for (let i = 0; i < count; i++) {
          if (table.type === 'stco') {
            const at = table.body + 8 + i * 4;
            out.writeUInt32BE(out.readUInt32BE(at) + delta, at);
          } else {
            const at = table.body + 8 + i * 8;
            out.writeBigUInt64BE(out.readBigUInt64BE(at) + BigInt(delta), at);
          }
        }
      }
    }
  }
  return out;
}

/**
 * Sets how long the first video track is presented: the duration of its last edit (the
 * edit list's media segment) so that the edits add up to `seconds`, and the track (`tkhd`)
 * and movie (`mvhd`) durations with it. Same-size writes: the file keeps its layout. Frames
 * decoded past that end (references of the last shown frames, kept by a stream copy) are
 * then not shown. Returns false when the track has no edit list to set.
 */
export function setVideoPresentationLength(file: Buffer, seconds: number): boolean {
  const { moov } = topMoov(file);
  const moovChildren = childBoxes(file, moov.body, moov.end);
  const mvhd = moovChildren.find((b) => b.type === 'mvhd');
  const [trak] = videoTraks(file, moov);
  if (!mvhd || !trak) return false;
  const mvhdV1 = file[mvhd.body] === 1;
  const timescale = file.readUInt32BE(mvhd.body + (mvhdV1 ? 20 : 12));
  const edts = child(file, trak, 'edts');
  const elst = edts && child(file, edts, 'elst');
  const tkhd = child(file, trak, 'tkhd');
  if (!elst || !tkhd) return false;
  const elstV1 = file[elst.body] === 1;
  const count = file.readUInt32BE(elst.body + 4);
  const entrySize = elstV1 ? 20 : 12;
  const entryAt = (i: number) => elst.body + 8 + i * entrySize;
  const readDur = (i: number) => (elstV1 ? Number(file.readBigUInt64BE(entryAt(i))) : file.readUInt32BE(entryAt(i)));
  if (count < 1) return false;
  let before = 0;
  for (let i = 0; i < count - 1; i++) before += readDur(i);
  const total = Math.round(seconds * timescale);
  const last = total - before;
  if (last <= 0) return false;
  if (elstV1) file.writeBigUInt64BE(BigInt(last), entryAt(count - 1));
  else file.writeUInt32BE(last, entryAt(count - 1));
  const tkhdV1 = file[tkhd.body] === 1;
  if (tkhdV1) file.writeBigUInt64BE(BigInt(total), tkhd.body + 28);
  else file.writeUInt32BE(total, tkhd.body + 20);
  // the movie lasts as long as its longest track
  let longest = total;
  for (const other of moovChildren.filter((b) => b.type === 'trak' && b.start !== trak.start)) {
    const h = child(file, other, 'tkhd');
    if (h) longest = Math.max(longest, file[h.body] === 1 ? Number(file.readBigUInt64BE(h.body + 28)) : file.readUInt32BE(h.body + 20));
  }
  if (mvhdV1) file.writeBigUInt64BE(BigInt(longest), mvhd.body + 24);
  else file.writeUInt32BE(longest, mvhd.body + 16);
  return true;
}
