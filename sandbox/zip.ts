// Real zip files for the bulk jobs (docs/protocol.md §10.3): a writer with DEFLATE entries and a
// reader for stored and DEFLATE entries (what clients upload), both on node:zlib.
// Zip64 and encryption are not supported: the reader refuses them as not-a-zip.
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

export interface ZipEntry {
	name: string;
	data: Buffer;
}

const LOCAL_SIG = 0x04034b50;
const CENTRAL_SIG = 0x02014b50;
const END_SIG = 0x06054b50;

function dosDateTime(date: Date): { time: number; date: number } {
	const year = Math.max(1980, date.getUTCFullYear());
	return {
		time:
			(date.getUTCHours() << 11) |
			(date.getUTCMinutes() << 5) |
			Math.floor(date.getUTCSeconds() / 2),
		date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
	};
}

interface EntryFields {
	method: number;
	time: number;
	date: number;
	crc: number;
	size: number;
	rawSize: number;
	nameLength: number;
}

/** The fields a local header and its central directory entry share, from `at` (version needed … name length). */
function writeEntryFields(header: Buffer, at: number, f: EntryFields): void {
	header.writeUInt16LE(20, at); // version needed
	header.writeUInt16LE(0x0800, at + 2); // UTF-8 names
	header.writeUInt16LE(f.method, at + 4);
	header.writeUInt16LE(f.time, at + 6);
	header.writeUInt16LE(f.date, at + 8);
	header.writeUInt32LE(f.crc, at + 10);
	header.writeUInt32LE(f.size, at + 14);
	header.writeUInt32LE(f.rawSize, at + 18);
	header.writeUInt16LE(f.nameLength, at + 22);
}

/** Builds a zip archive; entries are DEFLATE-compressed (stored when that is not smaller). */
export function writeZip(entries: ZipEntry[], modified: Date = new Date()): Buffer {
	const { time, date } = dosDateTime(modified);
	const locals: Buffer[] = [];
	const centrals: Buffer[] = [];
	let offset = 0;
	for (const entry of entries) {
		const name = Buffer.from(entry.name, 'utf8');
		const deflated = deflateRawSync(entry.data);
		const stored = deflated.length >= entry.data.length;
		const body = stored ? entry.data : deflated;
		const crc = crc32(entry.data) >>> 0;
		const fields: EntryFields = {
			method: stored ? 0 : 8,
			time,
			date,
			crc,
			size: body.length,
			rawSize: entry.data.length,
			nameLength: name.length,
		};
		const local = Buffer.alloc(30); // extra field length (28) stays 0
		local.writeUInt32LE(LOCAL_SIG, 0);
		writeEntryFields(local, 4, fields);
		locals.push(local, name, body);
		const central = Buffer.alloc(46);
		central.writeUInt32LE(CENTRAL_SIG, 0);
		central.writeUInt16LE(20, 4); // version made by
		writeEntryFields(central, 6, fields);
		central.writeUInt32LE(offset, 42);
		centrals.push(central, name);
		offset += local.length + name.length + body.length;
	}
	const centralSize = centrals.reduce((n, b) => n + b.length, 0);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(END_SIG, 0);
	end.writeUInt16LE(entries.length, 8);
	end.writeUInt16LE(entries.length, 10);
	end.writeUInt32LE(centralSize, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, ...centrals, end]);
}

/** True when the bytes start like a zip archive (local header or empty-archive end record). */
export function looksLikeZip(data: Buffer): boolean {
	return (
		data.length >= 22 && (data.readUInt32LE(0) === LOCAL_SIG || data.readUInt32LE(0) === END_SIG)
	);
}

/** Reads every file entry of a zip (directories skipped); throws an Error for anything malformed. */
export function readZip(data: Buffer): ZipEntry[] {
	if (!looksLikeZip(data)) throw new Error('not a zip archive');
	let end = -1;
	for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
		if (data.readUInt32LE(i) === END_SIG) {
			end = i;
			break;
		}
	}
	if (end < 0) throw new Error('zip end record not found');
	const count = data.readUInt16LE(end + 10);
	let pos = data.readUInt32LE(end + 16);
	const entries: ZipEntry[] = [];
	for (let n = 0; n < count; n++) {
		if (pos + 46 > data.length || data.readUInt32LE(pos) !== CENTRAL_SIG)
			throw new Error('bad zip central directory');
		const flags = data.readUInt16LE(pos + 8);
		const method = data.readUInt16LE(pos + 10);
		const crc = data.readUInt32LE(pos + 16);
		const compressedSize = data.readUInt32LE(pos + 20);
		const size = data.readUInt32LE(pos + 24);
		const nameLength = data.readUInt16LE(pos + 28);
		const extraLength = data.readUInt16LE(pos + 30);
		const commentLength = data.readUInt16LE(pos + 32);
		const localOffset = data.readUInt32LE(pos + 42);
		const name = data
			.subarray(pos + 46, pos + 46 + nameLength)
			.toString(flags & 0x0800 ? 'utf8' : 'latin1');
		pos += 46 + nameLength + extraLength + commentLength;
		if (flags & 0x0001) throw new Error('encrypted zip entries are not supported');
		if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff) {
			throw new Error('zip64 archives are not supported');
		}
		if (name.endsWith('/')) continue;
		if (localOffset + 30 > data.length || data.readUInt32LE(localOffset) !== LOCAL_SIG)
			throw new Error('bad zip local header');
		const start =
			localOffset + 30 + data.readUInt16LE(localOffset + 26) + data.readUInt16LE(localOffset + 28);
		const raw = data.subarray(start, start + compressedSize);
		if (raw.length !== compressedSize) throw new Error('truncated zip entry');
		let content: Buffer;
		if (method === 0) content = Buffer.from(raw);
		else if (method === 8) content = inflateRawSync(raw);
		else throw new Error(`zip compression method ${method} is not supported`);
		if (content.length !== size || crc32(content) >>> 0 !== crc)
			throw new Error(`zip entry ${name} is corrupt`);
		entries.push({ name, data: content });
	}
	return entries;
}
