// Seeded randomness. Every entity draws from its own stream, named by a stable label
// ("campaign/3/adset/1"), so a stream's numbers never depend on how much another module consumed:
// adding a metric to one source cannot reshuffle the rows of another.

/** cyrb128: a fast, well-mixed 128-bit string hash, used only to seed streams. */
function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** A deterministic stream of numbers (sfc32 generator). */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(
    readonly seed: number,
    readonly label: string,
  ) {
    [this.a, this.b, this.c, this.d] = hash128(`${seed}:${label}`);
    // sfc32 needs a few rounds to forget a weak starting state.
    for (let i = 0; i < 12; i++) this.next();
  }

  /** An independent stream for a sub-entity; does not consume numbers from this one. */
  fork(label: string): Rng {
    return new Rng(this.seed, `${this.label}/${label}`);
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  float(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error(`pick from an empty list (${this.label})`);
    return item;
  }

  /** Multiplicative noise around 1: a log-normal factor with the given spread (0.1 ≈ ±10%). */
  noise(spread: number): number {
    // Sum of three uniforms: a cheap bell curve in [-1.5, 1.5].
    const bell = this.next() + this.next() + this.next() - 1.5;
    return Math.exp(bell * spread * 1.4);
  }

  /** A string of decimal digits that does not start with 0. */
  digits(length: number): string {
    let out = String(this.int(1, 9));
    for (let i = 1; i < length; i++) out += String(this.int(0, 9));
    return out;
  }

  /** A random (version 4 layout) UUID drawn from this stream. */
  uuid(): string {
    const hex: string[] = [];
    for (let i = 0; i < 4; i++) hex.push((Math.floor(this.next() * 4294967296) >>> 0).toString(16).padStart(8, '0'));
    const s = hex.join('');
    const variant = ((parseInt(s[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-${variant}${s.slice(17, 20)}-${s.slice(20, 32)}`;
  }
}

/** Deterministic ids: one stream per kind of entity within an organisation. */
export class IdSource {
  private readonly streams = new Map<string, Rng>();
  private readonly used = new Set<string>();

  constructor(private readonly root: Rng) {}

  uuid(kind: string): string {
    return this.stream(kind).uuid();
  }

  /** A numeric platform id of `length` digits after `prefix`, unique within this source. */
  platformId(kind: string, length: number, prefix = ''): string {
    const rng = this.stream(`platform:${kind}`);
    for (;;) {
      const id = prefix + rng.digits(length);
      if (!this.used.has(id)) {
        this.used.add(id);
        return id;
      }
    }
  }

  private stream(kind: string): Rng {
    let rng = this.streams.get(kind);
    if (!rng) {
      rng = this.root.fork(`ids:${kind}`);
      this.streams.set(kind, rng);
    }
    return rng;
  }
}
