// Small but real thumbnail images, encoded here so the generator needs no image library.
// PNG: RGB, filter 0 rows, zlib-compressed, CRC-32 per chunk. JPEG: baseline with every 8×8 block
// a flat colour (only DC coefficients are coded), which any decoder reads as a colour mosaic.
import { crc32, deflateSync } from 'node:zlib';

export type Rgb = readonly [number, number, number];

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A diagonal gradient from `from` to `to` with a lighter band across the middle. */
export function png(width: number, height: number, from: Rgb, to: Rgb): Buffer {
  const stride = width * 3 + 1;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // filter type: none
    for (let x = 0; x < width; x++) {
      const t = (x + y) / (width + height - 2);
      const band = Math.abs(y - height / 2) < height / 10 ? 40 : 0;
      for (let c = 0; c < 3; c++) {
        raw[y * stride + 1 + x * 3 + c] = Math.min(255, Math.round((from[c] ?? 0) * (1 - t) + (to[c] ?? 0) * t) + band);
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// Standard luminance DC Huffman table (ITU T.81, table K.3): code counts per length, then symbols.
const DC_COUNTS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_SYMBOLS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
// An AC table holding only end-of-block (symbol 0x00, code "0"): every block has no AC coefficients.
const AC_COUNTS = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const AC_SYMBOLS = [0];
/** Quantiser 8 turns a flat block's DC coefficient, 8 × (value − 128), back into value − 128. */
const QUANT = 8;

/** Canonical Huffman codes (symbol → [code, length]) from per-length counts. */
function huffmanCodes(counts: readonly number[], symbols: readonly number[]): Map<number, [number, number]> {
  const codes = new Map<number, [number, number]>();
  let code = 0;
  let k = 0;
  counts.forEach((count, i) => {
    for (let n = 0; n < count; n++) codes.set(symbols[k++] ?? 0, [code++, i + 1]);
    code <<= 1;
  });
  return codes;
}

const DC_CODES = huffmanCodes(DC_COUNTS, DC_SYMBOLS);

class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private filled = 0;

  write(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.current = (this.current << 1) | ((value >> i) & 1);
      if (++this.filled === 8) this.flushByte();
    }
  }

  /** Pads the last byte with 1 bits, as T.81 requires. */
  finish(): Buffer {
    while (this.filled !== 0) this.write(1, 1);
    return Buffer.from(this.bytes);
  }

  private flushByte(): void {
    this.bytes.push(this.current);
    if (this.current === 0xff) this.bytes.push(0x00); // byte stuffing
    this.current = 0;
    this.filled = 0;
  }
}

function segment(marker: number, body: number[]): Buffer {
  const length = body.length + 2;
  return Buffer.from([0xff, marker, length >> 8, length & 0xff, ...body]);
}

function toYCbCr([r, g, b]: Rgb): [number, number, number] {
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  return [
    clamp(0.299 * r + 0.587 * g + 0.114 * b),
    clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b),
    clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b),
  ];
}

/** A JPEG of `columns` × `rows` flat 8×8 blocks; `blockColour(column, row)` gives each block's colour. */
export function jpeg(columns: number, rows: number, blockColour: (column: number, row: number) => Rgb): Buffer {
  const width = columns * 8;
  const height = rows * 8;
  const bits = new BitWriter();
  const predictors = [0, 0, 0];
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      toYCbCr(blockColour(column, row)).forEach((value, component) => {
        const dc = value - 128;
        const diff = dc - (predictors[component] ?? 0);
        predictors[component] = dc;
        const magnitude = Math.abs(diff);
        const category = magnitude === 0 ? 0 : Math.floor(Math.log2(magnitude)) + 1;
        const [code, length] = DC_CODES.get(category) ?? [0, 0];
        bits.write(code, length);
        if (category > 0) bits.write(diff > 0 ? diff : diff + (1 << category) - 1, category);
        bits.write(0, 1); // end of block
      });
    }
  }
  const components = [1, 2, 3];
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // JFIF 1.01, no thumbnail
    segment(0xdb, [0x00, ...new Array<number>(64).fill(QUANT)]),
    segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, ...components.flatMap((id) => [id, 0x11, 0])]),
    segment(0xc4, [0x00, ...DC_COUNTS, ...DC_SYMBOLS]),
    segment(0xc4, [0x10, ...AC_COUNTS, ...AC_SYMBOLS]),
    segment(0xda, [3, ...components.flatMap((id) => [id, 0x00]), 0, 63, 0]),
    bits.finish(),
    Buffer.from([0xff, 0xd9]),
  ]);
}
