// Unit tests of the package's own zip support (nodes/shared/formats/zip): CRC-32, the TypeScript inflater
// (checked against node:zlib on every block type) and the zip writer/reader (checked against the
// sandbox's node:zlib-based zip code in both directions).
import { randomBytes } from 'node:crypto';
import { constants, crc32 as zlibCrc32, deflateRawSync } from 'node:zlib';

import {
	InflateError,
	InflateLimitError,
	MAX_UNZIPPED_BYTES,
	ZipError,
	crc32,
	createZip,
	inflateRaw,
	isZip,
	readZip,
} from '../../../nodes/shared/formats/zip';
import { readZip as sandboxReadZip, writeZip as sandboxWriteZip } from '../../../sandbox/zip.ts';

const text = (n: number) =>
	Buffer.from(
		Array.from(
			{ length: n },
			(_, i) =>
				`${i},Lead ${i},lead${i}@example.com,"Acme, Inc.",${i % 7 === 0 ? 'Web' : 'Chat'}\r\n`,
		).join(''),
		'utf8',
	);

describe('crc32', () => {
	test.each([
		['empty', Buffer.alloc(0)],
		['ascii', Buffer.from('The quick brown fox jumps over the lazy dog')],
		['random 64 KB', randomBytes(65536)],
	])('matches node:zlib (%s)', (_label, data) => {
		expect(crc32(data)).toBe(zlibCrc32(data) >>> 0);
	});

	test('known value', () => {
		expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
	});
});

describe('inflateRaw', () => {
	const cases: Array<[string, Buffer, Parameters<typeof deflateRawSync>[1]]> = [
		['empty input', Buffer.alloc(0), {}],
		['stored blocks (level 0), > 64 KB', randomBytes(200_000), { level: 0 }],
		[
			'fixed Huffman',
			Buffer.from('hello hello hello hello, fixed codes'),
			{ strategy: constants.Z_FIXED },
		],
		['dynamic Huffman, CSV text', text(5000), { level: 9 }],
		['dynamic Huffman, fast level', text(3000), { level: 1 }],
		['long runs (distance 1, length 258)', Buffer.alloc(100_000, 0x41), {}],
		['incompressible random data', randomBytes(50_000), {}],
		['Huffman only', text(500), { strategy: constants.Z_HUFFMAN_ONLY }],
		[
			'RLE strategy',
			Buffer.concat([Buffer.alloc(5000, 1), text(200), Buffer.alloc(7000, 2)]),
			{ strategy: constants.Z_RLE },
		],
		['UTF-8 text', Buffer.from('Übersicht — 日本語 — ÆØÅ '.repeat(2000), 'utf8'), {}],
	];

	test.each(cases)('round-trips node:zlib output: %s', (_label, data, options) => {
		const compressed = deflateRawSync(data, options);
		expect(Buffer.from(inflateRaw(compressed, data.length)).equals(data)).toBe(true);
		// without a size hint the output grows as needed
		expect(Buffer.from(inflateRaw(compressed)).equals(data)).toBe(true);
	});

	test('rejects damaged streams', () => {
		expect(() => inflateRaw(Buffer.from([0x07]))).toThrow(InflateError); // block type 3
		const compressed = deflateRawSync(text(200));
		expect(() => inflateRaw(compressed.subarray(0, compressed.length >> 1))).toThrow(InflateError);
		const stored = deflateRawSync(Buffer.from('abc'), { level: 0 });
		const broken = Buffer.from(stored);
		broken[3] ^= 0xff; // NLEN no longer the complement of LEN
		expect(() => inflateRaw(broken)).toThrow(InflateError);
	});
});

describe('createZip / readZip', () => {
	test('a stored zip written here reads back here and with node:zlib', () => {
		const files = [
			{ name: 'Leads.csv', data: text(100) },
			{ name: 'naïve/übersicht.txt', data: Buffer.from('ü', 'utf8') },
			{ name: 'empty.csv', data: Buffer.alloc(0) },
		];
		const zip = createZip(files);
		expect(isZip(zip)).toBe(true);
		expect(readZip(zip).map((f) => [f.name, f.data.toString('base64')])).toEqual(
			files.map((f) => [f.name, f.data.toString('base64')]),
		);
		expect(sandboxReadZip(zip).map((f) => [f.name, f.data.toString('base64')])).toEqual(
			files.map((f) => [f.name, f.data.toString('base64')]),
		);
	});

	test('DEFLATE zips written with node:zlib (the CRM result files) read here', () => {
		const files = [
			{ name: '4876876000000700001.csv', data: text(20_000) },
			{ name: 'small.txt', data: Buffer.from('x') }, // stored by the writer: deflate would be larger
		];
		const zip = sandboxWriteZip(files);
		expect(zip.length).toBeLessThan(files[0].data.length / 3);
		const read = readZip(zip);
		expect(read.map((f) => f.name)).toEqual(files.map((f) => f.name));
		expect(read[0].data.equals(files[0].data)).toBe(true);
		expect(read[1].data.toString()).toBe('x');
	});

	test('refuses what is not a zip, and corrupt entries', () => {
		expect(isZip(Buffer.from('Last_Name,Email\r\n'))).toBe(false);
		expect(() => readZip(Buffer.from('Last_Name,Email\r\nSmith,s@example.com\r\n'))).toThrow(
			ZipError,
		);
		const zip = createZip([{ name: 'a.csv', data: Buffer.from('hello world') }]);
		const corrupt = Buffer.from(zip);
		corrupt[30 + 'a.csv'.length] ^= 0xff; // first content byte: CRC-32 no longer matches
		expect(() => readZip(corrupt)).toThrow(/corrupt/);
		expect(() => readZip(zip.subarray(0, zip.length - 10))).toThrow(ZipError);
	});

	test('an empty archive is valid', () => {
		const zip = createZip([]);
		expect(zip.length).toBe(22);
		expect(readZip(zip)).toEqual([]);
	});
});

/**
 * A raw DEFLATE stream of `bytes` zero bytes written by hand (node:zlib would have to build them):
 * one fixed-Huffman block, a literal 0, then copies of 258 bytes at distance 1, 13 bits each.
 */
function zeroBomb(bytes: number): Buffer {
	const copies = Math.ceil((bytes - 1) / 258);
	const out = Buffer.alloc(Math.ceil((3 + 8 + copies * 13 + 7) / 8) + 1);
	let bit = 0;
	const put = (value: number, n: number) => {
		for (let i = 0; i < n; i++, bit++) if ((value >> i) & 1) out[bit >> 3] |= 1 << (bit & 7);
	};
	// Huffman codes go most significant bit first
	const code = (value: number, n: number) => {
		for (let i = n - 1; i >= 0; i--, bit++) if ((value >> i) & 1) out[bit >> 3] |= 1 << (bit & 7);
	};
	put(1, 1); // last block
	put(1, 2); // fixed Huffman
	code(0x30, 8); // literal 0
	for (let i = 0; i < copies; i++) {
		code(0xc5, 8); // length symbol 285: 258 bytes
		code(0, 5); // distance code 0: distance 1
	}
	code(0, 7); // end of block
	return out.subarray(0, Math.ceil(bit / 8));
}

/** A zip of one DEFLATE entry holding `stream`, declaring `declared` uncompressed bytes. */
function deflateZip(stream: Buffer, declared: number): Buffer {
	const zip = createZip([{ name: 'bomb.csv', data: stream }]);
	zip.writeUInt16LE(8, 8); // local header: method DEFLATE
	zip.writeUInt32LE(declared, 22);
	const central = zip.readUInt32LE(zip.length - 22 + 16);
	zip.writeUInt16LE(8, central + 10);
	zip.writeUInt32LE(declared, central + 24);
	return zip;
}

describe('zip bombs: output bounded by the declared size and by MAX_UNZIPPED_BYTES', () => {
	const GiB = 1024 * 1024 * 1024;
	// 1 GiB of zeros in about 6.5 MB: what a crafted result file or a user's binary could hold
	const bomb = zeroBomb(GiB);
	/**
	 * What readZip threw for `zip`, and the bytes of ArrayBuffers it allocated meanwhile (garbage
	 * included: nothing is collected in between).
	 */
	const refusalOf = (zip: Buffer): { error: unknown; grew: number } => {
		const before = process.memoryUsage().arrayBuffers;
		let error: unknown;
		try {
			readZip(zip);
		} catch (e) {
			error = e;
		}
		return { error, grew: process.memoryUsage().arrayBuffers - before };
	};

	test('the crafted stream inflates past 64 MiB (its real size is 1 GiB) from under 7 MB', () => {
		expect(bomb.length).toBeLessThan(7 * 1024 * 1024);
		expect(() => inflateRaw(bomb, 0, 64 * 1024 * 1024)).toThrow(InflateLimitError);
		const head = zeroBomb(100_000);
		expect(
			Buffer.from(inflateRaw(head)).equals(Buffer.alloc(1 + Math.ceil(99_999 / 258) * 258)),
		).toBe(true);
	});

	test('an entry declaring 1,000 bytes that inflates to 1 GiB is refused at 1,000 bytes', () => {
		const { error, grew } = refusalOf(deflateZip(bomb, 1000));
		expect(error).toBeInstanceOf(ZipError);
		expect((error as Error).message).toBe(
			'zip entry "bomb.csv" inflates to more than its declared 1000 bytes',
		);
		// inflating stopped at the declared size: far below the 1 GiB the stream holds
		expect(grew).toBeLessThan(16 * 1024 * 1024);
	});

	test('an archive declaring more than the maximum is refused before anything is inflated', () => {
		expect(MAX_UNZIPPED_BYTES).toBe(512 * 1024 * 1024);
		const { error, grew } = refusalOf(deflateZip(bomb, 0xfffffff0));
		expect(error).toBeInstanceOf(ZipError);
		expect((error as Error).message).toBe(
			`the zip holds ${0xfffffff0} bytes uncompressed; at most 536870912 bytes (512 MiB) are read`,
		);
		expect(grew).toBeLessThan(16 * 1024 * 1024);
		// several entries count together
		const two = createZip([
			{ name: 'a.csv', data: Buffer.alloc(600) },
			{ name: 'b.csv', data: Buffer.alloc(600) },
		]);
		expect(() => readZip(two, 1000)).toThrow(
			'the zip holds 1200 bytes uncompressed; at most 1000 bytes',
		);
		expect(readZip(two, 1200).map((f) => f.data.length)).toEqual([600, 600]);
	});
});
