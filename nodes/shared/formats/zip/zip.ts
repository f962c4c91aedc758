import { crc32 } from './crc32';
import { inflateRaw } from './inflate';

/** One file of a zip archive. */
export interface ZipFile {
	name: string;
	data: Buffer;
}

/** A malformed or unsupported zip archive. */
export class ZipError extends Error {}

const LOCAL_SIG = 0x04034b50;
const CENTRAL_SIG = 0x02014b50;
const END_SIG = 0x06054b50;
/** Sizes and offsets above this need zip64, which neither side here supports. */
const MAX_32 = 0xffffffff;

/**
 * The most bytes readZip unpacks from one archive, all entries together (docs/operations.md). A bulk
 * read result page (200,000 records, §8.1) stays well below it; an archive declaring more is refused
 * before anything is inflated, so a crafted zip cannot exhaust n8n's memory.
 */
export const MAX_UNZIPPED_BYTES = 512 * 1024 * 1024;

function dosTime(date: Date): { time: number; date: number } {
	const year = Math.min(2107, Math.max(1980, date.getUTCFullYear()));
	return {
		time:
			(date.getUTCHours() << 11) |
			(date.getUTCMinutes() << 5) |
			Math.floor(date.getUTCSeconds() / 2),
		date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
	};
}

/**
 * The fields a stored entry's local header and its central directory entry share, in the same
 * order from `at` (after the signature, and after "version made by" in the central entry).
 */
function writeEntryFields(
	header: Buffer,
	at: number,
	entry: { time: number; date: number; crc: number; size: number; nameLength: number },
): void {
	header.writeUInt16LE(10, at); // version needed: stored
	header.writeUInt16LE(0x0800, at + 2); // UTF-8 names
	header.writeUInt16LE(0, at + 4); // method: stored
	header.writeUInt16LE(entry.time, at + 6);
	header.writeUInt16LE(entry.date, at + 8);
	header.writeUInt32LE(entry.crc, at + 10);
	header.writeUInt32LE(entry.size, at + 14); // compressed size: stored, the same
	header.writeUInt32LE(entry.size, at + 18);
	header.writeUInt16LE(entry.nameLength, at + 22);
}

/**
 * Builds a zip archive of stored (uncompressed) entries with CRC-32 checksums and UTF-8 names —
 * what the bulk-write upload needs (§1.2: one zip holding one CSV).
 */
export function createZip(files: ZipFile[], modified: Date = new Date(0)): Buffer {
	const { time, date } = dosTime(
		modified.getTime() > 0 ? modified : new Date(Date.UTC(1980, 0, 1)),
	);
	const parts: Buffer[] = [];
	const central: Buffer[] = [];
	let offset = 0;
	for (const file of files) {
		const name = Buffer.from(file.name, 'utf8');
		const crc = crc32(file.data);
		if (file.data.length >= MAX_32 || offset >= MAX_32)
			throw new ZipError('zip entries above 4 GB are not supported');
		const fields = { time, date, crc, size: file.data.length, nameLength: name.length };
		const local = Buffer.alloc(30);
		local.writeUInt32LE(LOCAL_SIG, 0);
		writeEntryFields(local, 4, fields);
		parts.push(local, name, file.data);
		const entry = Buffer.alloc(46);
		entry.writeUInt32LE(CENTRAL_SIG, 0);
		entry.writeUInt16LE(20, 4); // version made by
		writeEntryFields(entry, 6, fields);
		entry.writeUInt32LE(offset, 42);
		central.push(entry, name);
		offset += local.length + name.length + file.data.length;
	}
	const centralSize = central.reduce((n, b) => n + b.length, 0);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(END_SIG, 0);
	end.writeUInt16LE(files.length, 8);
	end.writeUInt16LE(files.length, 10);
	end.writeUInt32LE(centralSize, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...parts, ...central, end]);
}

/** Whether the bytes start like a zip archive (local file header, or the end record of an empty one). */
export function isZip(data: Uint8Array): boolean {
	if (data.length < 22) return false;
	const sig = (data[0] | (data[1] << 8) | (data[2] << 16) | (data[3] << 24)) >>> 0;
	return sig === LOCAL_SIG || sig === END_SIG;
}

/**
 * Reads every file of a zip archive (directories skipped): stored and DEFLATE entries, checked
 * against their CRC-32. Throws a ZipError (InflateError for a damaged DEFLATE stream) for anything
 * malformed, encrypted or zip64, for entries declaring more than `maxBytes` uncompressed bytes in
 * all (before inflating any), and for an entry that inflates past its declared size (inflating
 * stops there).
 */
export function readZip(input: Uint8Array, maxBytes = MAX_UNZIPPED_BYTES): ZipFile[] {
	const data = Buffer.isBuffer(input)
		? input
		: Buffer.from(input.buffer, input.byteOffset, input.byteLength);
	if (!isZip(data)) throw new ZipError('not a zip archive');
	let end = -1;
	for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
		if (data.readUInt32LE(i) === END_SIG) {
			end = i;
			break;
		}
	}
	if (end < 0) throw new ZipError('the zip end record is missing');
	const count = data.readUInt16LE(end + 10);
	const directory = data.readUInt32LE(end + 16);
	// the declared sizes first: an archive promising too much is refused before anything is inflated
	let declared = 0;
	for (let n = 0, pos = directory; n < count; n++) {
		if (pos + 46 > data.length || data.readUInt32LE(pos) !== CENTRAL_SIG)
			throw new ZipError('the zip central directory is damaged');
		declared += data.readUInt32LE(pos + 24);
		pos +=
			46 + data.readUInt16LE(pos + 28) + data.readUInt16LE(pos + 30) + data.readUInt16LE(pos + 32);
	}
	if (declared > maxBytes) {
		throw new ZipError(
			`the zip holds ${declared} bytes uncompressed; at most ${maxBytes} bytes (${maxBytes / 1024 / 1024} MiB) are read`,
		);
	}
	let pos = directory;
	const files: ZipFile[] = [];
	for (let n = 0; n < count; n++) {
		if (pos + 46 > data.length || data.readUInt32LE(pos) !== CENTRAL_SIG)
			throw new ZipError('the zip central directory is damaged');
		const flags = data.readUInt16LE(pos + 8);
		const method = data.readUInt16LE(pos + 10);
		const crc = data.readUInt32LE(pos + 16);
		const compressedSize = data.readUInt32LE(pos + 20);
		const size = data.readUInt32LE(pos + 24);
		const nameLength = data.readUInt16LE(pos + 28);
		const extraLength = data.readUInt16LE(pos + 30);
		const commentLength = data.readUInt16LE(pos + 32);
		const localOffset = data.readUInt32LE(pos + 42);
		const name = data.toString(flags & 0x0800 ? 'utf8' : 'latin1', pos + 46, pos + 46 + nameLength);
		pos += 46 + nameLength + extraLength + commentLength;
		if (flags & 0x0001) throw new ZipError(`zip entry "${name}" is encrypted`);
		if (compressedSize === MAX_32 || size === MAX_32 || localOffset === MAX_32)
			throw new ZipError('zip64 archives are not supported');
		if (name.endsWith('/')) continue;
		if (localOffset + 30 > data.length || data.readUInt32LE(localOffset) !== LOCAL_SIG) {
			throw new ZipError(`zip entry "${name}" has no local header`);
		}
		const start =
			localOffset + 30 + data.readUInt16LE(localOffset + 26) + data.readUInt16LE(localOffset + 28);
		if (start + compressedSize > data.length)
			throw new ZipError(`zip entry "${name}" is truncated`);
		const raw = data.subarray(start, start + compressedSize);
		let content: Uint8Array;
		if (method === 0) content = raw;
		// inflating stops at the declared size (InflateError on a damaged stream)
		else if (method === 8)
			content = inflateRaw(
				raw,
				size,
				size,
				() => new ZipError(`zip entry "${name}" inflates to more than its declared ${size} bytes`),
			);
		else throw new ZipError(`zip entry "${name}" uses unsupported compression method ${method}`);
		if (content.length !== size || crc32(content) !== crc)
			throw new ZipError(`zip entry "${name}" is corrupt (size or CRC-32 mismatch)`);
		// an inflated entry is a fresh array: wrapped, not copied (a stored one is copied out of the input)
		files.push({
			name,
			data:
				method === 0
					? Buffer.from(content)
					: Buffer.from(content.buffer, content.byteOffset, content.byteLength),
		});
	}
	return files;
}
