/**
 * Raw DEFLATE decoder (RFC 1951): stored, fixed-Huffman and dynamic-Huffman blocks. Written in
 * TypeScript because community nodes may not import node:zlib; used to read the entries of the
 * zip files the CRM returns (bulk-read and bulk-write results).
 */

/** A malformed compressed stream. */
export class InflateError extends Error {}

/** A stream that inflates to more than the caller allows (refused as soon as it gets there). */
export class InflateLimitError extends InflateError {
	constructor(readonly maxSize: number) {
		super(`the data inflates to more than ${maxSize} bytes`);
	}
}

const LENGTH_BASE = [
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
	163, 195, 227, 258,
];
const LENGTH_EXTRA = [
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DIST_BASE = [
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
	3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA = [
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];
/** Order of the code-length code lengths in a dynamic block header. */
const CLEN_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A Huffman decoding table: entry = symbol << 4 | code length, indexed by `bits` reversed code bits. */
interface Huffman {
	table: Int32Array;
	bits: number;
}

function buildHuffman(lengths: ArrayLike<number>, count: number): Huffman {
	let maxLen = 0;
	const blCount = new Array<number>(16).fill(0);
	for (let i = 0; i < count; i++) {
		blCount[lengths[i]]++;
		if (lengths[i] > maxLen) maxLen = lengths[i];
	}
	blCount[0] = 0;
	const bits = Math.max(1, maxLen);
	const table = new Int32Array(1 << bits).fill(-1);
	// canonical codes (RFC 1951 §3.2.2); over-subscribed sets are rejected
	const nextCode = new Array<number>(16).fill(0);
	let code = 0;
	let left = 1;
	for (let len = 1; len <= 15; len++) {
		left <<= 1;
		left -= blCount[len];
		if (left < 0) throw new InflateError('over-subscribed Huffman code');
		code = (code + blCount[len - 1]) << 1;
		nextCode[len] = code;
	}
	for (let symbol = 0; symbol < count; symbol++) {
		const len = lengths[symbol];
		if (len === 0) continue;
		let c = nextCode[len]++;
		let reversed = 0;
		for (let i = 0; i < len; i++) {
			reversed = (reversed << 1) | (c & 1);
			c >>>= 1;
		}
		for (let i = reversed; i < table.length; i += 1 << len) table[i] = (symbol << 4) | len;
	}
	return { table, bits };
}

const FIXED_LITLEN: Huffman = (() => {
	const lengths = new Array<number>(288);
	for (let i = 0; i < 288; i++) lengths[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
	return buildHuffman(lengths, 288);
})();
const FIXED_DIST: Huffman = buildHuffman(new Array<number>(30).fill(5), 30);

/** Bit-level reader and output buffer of one inflate run (fields, not closures: V8 keeps them fast). */
class Inflater {
	private inPos = 0;
	private bitBuf = 0;
	private bitCnt = 0;
	private readonly input: Uint8Array;
	/** the output never grows past this many bytes */
	private readonly maxSize: number;
	private readonly tooLarge: () => Error;
	out: Uint8Array;
	outPos = 0;

	constructor(input: Uint8Array, sizeHint: number, maxSize: number, tooLarge: () => Error) {
		this.input = input;
		this.maxSize = maxSize;
		this.tooLarge = tooLarge;
		this.out = new Uint8Array(Math.min(Math.max(1024, sizeHint), maxSize));
	}

	/** Makes at least n bits available; past the end the stream reads as zero bits (see `finish`). */
	private need(n: number): void {
		while (this.bitCnt < n) {
			if (this.inPos < this.input.length) this.bitBuf |= this.input[this.inPos] << this.bitCnt;
			else if (this.inPos >= this.input.length + 4)
				throw new InflateError('unexpected end of compressed data');
			this.inPos++;
			this.bitCnt += 8;
		}
	}

	bits(n: number): number {
		if (n === 0) return 0;
		this.need(n);
		const value = this.bitBuf & ((1 << n) - 1);
		this.bitBuf >>>= n;
		this.bitCnt -= n;
		return value;
	}

	decode(h: Huffman): number {
		this.need(h.bits);
		const entry = h.table[this.bitBuf & ((1 << h.bits) - 1)];
		if (entry < 0) throw new InflateError('invalid Huffman code');
		const len = entry & 15;
		this.bitBuf >>>= len;
		this.bitCnt -= len;
		return entry >>> 4;
	}

	/** Room for `extra` more bytes; past `maxSize` the stream is refused before anything is written. */
	ensure(extra: number): void {
		if (this.outPos + extra <= this.out.length) return;
		if (this.outPos + extra > this.maxSize) throw this.tooLarge();
		let size = Math.max(1, this.out.length * 2);
		while (size < this.outPos + extra) size *= 2;
		size = Math.min(size, this.maxSize);
		const grown = new Uint8Array(size);
		grown.set(this.out.subarray(0, this.outPos));
		this.out = grown;
	}

	/** Stored block: skip to the byte boundary, LEN, NLEN, then LEN raw bytes. */
	stored(): void {
		this.bitBuf >>>= this.bitCnt & 7;
		this.bitCnt -= this.bitCnt & 7;
		const len = this.bits(16);
		const nlen = this.bits(16);
		if ((len ^ 0xffff) !== nlen) throw new InflateError('stored block length mismatch');
		this.ensure(len);
		let copied = 0;
		while (copied < len && this.bitCnt >= 8) {
			this.out[this.outPos++] = this.bits(8);
			copied++;
		}
		const rest = len - copied;
		if (this.inPos + rest > this.input.length)
			throw new InflateError('unexpected end of compressed data');
		this.out.set(this.input.subarray(this.inPos, this.inPos + rest), this.outPos);
		this.outPos += rest;
		this.inPos += rest;
	}

	/** Literal/length and distance codes of a dynamic block header. */
	dynamicCodes(): [Huffman, Huffman] {
		const hlit = this.bits(5) + 257;
		const hdist = this.bits(5) + 1;
		const hclen = this.bits(4) + 4;
		const clen = new Array<number>(19).fill(0);
		for (let i = 0; i < hclen; i++) clen[CLEN_ORDER[i]] = this.bits(3);
		const clenCode = buildHuffman(clen, 19);
		const lengths = new Array<number>(hlit + hdist).fill(0);
		for (let i = 0; i < hlit + hdist; ) {
			const symbol = this.decode(clenCode);
			if (symbol < 16) {
				lengths[i++] = symbol;
				continue;
			}
			let repeat: number;
			let value = 0;
			if (symbol === 16) {
				if (i === 0) throw new InflateError('repeat with no previous length');
				value = lengths[i - 1];
				repeat = 3 + this.bits(2);
			} else if (symbol === 17) repeat = 3 + this.bits(3);
			else repeat = 11 + this.bits(7);
			if (i + repeat > hlit + hdist) throw new InflateError('too many code lengths');
			while (repeat--) lengths[i++] = value;
		}
		if (lengths[256] === 0) throw new InflateError('no end-of-block code');
		return [buildHuffman(lengths.slice(0, hlit), hlit), buildHuffman(lengths.slice(hlit), hdist)];
	}

	/** Symbols of one Huffman-coded block up to its end-of-block code. */
	codes(litlen: Huffman, dist: Huffman): void {
		for (;;) {
			const symbol = this.decode(litlen);
			if (symbol < 256) {
				if (this.outPos >= this.out.length) this.ensure(1);
				this.out[this.outPos++] = symbol;
				continue;
			}
			if (symbol === 256) return;
			const li = symbol - 257;
			if (li >= 29) throw new InflateError('invalid length symbol');
			const length = LENGTH_BASE[li] + this.bits(LENGTH_EXTRA[li]);
			const di = this.decode(dist);
			if (di >= 30) throw new InflateError('invalid distance symbol');
			const distance = DIST_BASE[di] + this.bits(DIST_EXTRA[di]);
			if (distance > this.outPos) throw new InflateError('distance too far back');
			this.ensure(length);
			const out = this.out;
			let from = this.outPos - distance;
			let to = this.outPos;
			for (let i = 0; i < length; i++) out[to++] = out[from++];
			this.outPos = to;
		}
	}

	/** Refuses streams that needed bits beyond their end. */
	finish(): Uint8Array {
		if (this.inPos * 8 - this.bitCnt > this.input.length * 8)
			throw new InflateError('unexpected end of compressed data');
		return this.out.subarray(0, this.outPos);
	}
}

/**
 * Inflates a raw DEFLATE stream; `sizeHint` (the expected output size) avoids re-allocations.
 * Output beyond `maxSize` bytes is never produced: the stream is refused with `tooLarge()`, by
 * default an InflateLimitError (a zip bomb inflates a few kilobytes to gigabytes).
 */
export function inflateRaw(
	input: Uint8Array,
	sizeHint = 0,
	maxSize = Number.MAX_SAFE_INTEGER,
	tooLarge: () => Error = () => new InflateLimitError(maxSize),
): Uint8Array {
	const z = new Inflater(input, sizeHint, maxSize, tooLarge);
	let last = 0;
	while (!last) {
		last = z.bits(1);
		const type = z.bits(2);
		if (type === 0) z.stored();
		else if (type === 1) z.codes(FIXED_LITLEN, FIXED_DIST);
		else if (type === 2) {
			const [litlen, dist] = z.dynamicCodes();
			z.codes(litlen, dist);
		} else throw new InflateError('invalid block type');
	}
	return z.finish();
}
